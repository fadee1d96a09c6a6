//! The wire pieces both sides need, below `protocol` users and above bytes: JSON-RPC line
//! framing, the 2026-07-28 header value encoding, and the `x-mcp-header` rules. Compiled when
//! either the `server` or the `client` feature is on; it imports neither.

pub(crate) mod header_params;
pub(crate) mod header_value;
pub(crate) mod lines;
