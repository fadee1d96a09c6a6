//! The `requestState` layer: what a 2026-07-28 round hands to the client, sealed so that the
//! client can only echo it back to the request it belongs to.
//!
//! # Examples
//!
//! ```
//! use mcpwire::McpServer;
//! use mcpwire::request_state::{KEYS_ENV, KeyRing};
//!
//! assert_eq!(KEYS_ENV, "MCP_REQUEST_STATE_KEYS");
//! // Every replica gets the same secrets (here from a secret store, as raw bytes).
//! let secret = [7u8; 32];
//! let keys = KeyRing::new([secret]).unwrap();
//! let server = McpServer::new("bookshop").request_state_keys(keys);
//! # drop(server);
//! ```

pub(crate) mod codec;
#[cfg(test)]
mod codec_proptests;
mod keys;
#[cfg(feature = "redis")]
mod redis_replay;
mod replay;

pub(crate) use codec::digest;
pub(crate) use codec::{Binding, StateCodec, arguments_digest, new_call_id};
pub use keys::{KEYS_ENV, KeyError, KeyRing};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis_replay::RedisReplayGuard;
pub use replay::{MemoryReplayGuard, ReplayFuture, ReplayGuard, ReplayUnavailable};
