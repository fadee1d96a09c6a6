//! The dispatcher (`mcpwire::dispatch`) over the in-memory transport and HTTP: both revisions,
//! change notifications, subscriptions, cache hints, connection bounds, typed request extensions
//! and the scope decision off HTTP.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod cache_hints;
mod changes;
mod connection_limits;
mod in_memory;
mod local_grant;
mod request_extensions;
mod subscriptions;
