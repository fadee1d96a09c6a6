//! Examples, tests and benchmarks of the `mcp` SDK live in `examples/`, `tests/` and `benches/`.
