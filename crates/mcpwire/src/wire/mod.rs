//! The wire pieces both sides need, below `protocol` users and above bytes: JSON-RPC line
//! framing, the 2026-07-28 header value encoding, the `x-mcp-header` rules, and (with `auth`)
//! the JWT library's crypto backend. Compiled when either the `server` or the `client` feature
//! is on; it imports neither.

// The maps a call looks something up in: foldhash, not SipHash.
pub(crate) mod fast_map;
pub(crate) mod header_params;
pub(crate) mod header_value;
// reqwest's errors in words, with their causes (the client, and the server's key fetches).
#[cfg(any(feature = "client", all(feature = "auth", feature = "http")))]
pub(crate) mod http_error;
// Used by the HTTP server's verifier and the client's assertions.
#[cfg(all(feature = "auth", any(feature = "http", feature = "client")))]
pub(crate) mod jwt_backend;
pub(crate) mod line_split;
pub(crate) mod lines;
// A call's arguments, shared with the body they were read from.
#[cfg(feature = "server")]
pub(crate) mod shared_json;
// A tool's structured output, written where it is sent.
#[cfg(feature = "server")]
pub(crate) mod structured;
// Readings of JSON objects only: the gateway's results (and the derived readings the server's
// in-place readings of `params` are tested against).
#[cfg(any(test, feature = "gateway"))]
pub(crate) mod object;
