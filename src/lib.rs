//! Examples, tests and benchmarks of the `mcpwire` SDK live in `examples/`, `tests/` and `benches/`.
