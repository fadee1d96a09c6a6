//! The `requestState` layer: what a 2026-07-28 round hands to the client, sealed so that the
//! client can only echo it back to the request it belongs to.

pub(crate) mod codec;
mod keys;
mod replay;

pub(crate) use codec::digest;
pub(crate) use codec::{Binding, StateCodec, arguments_digest, new_call_id};
pub use keys::{KEYS_ENV, KeyError, KeyRing};
pub use replay::{MemoryReplayGuard, ReplayFuture, ReplayGuard};
