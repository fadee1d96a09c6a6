//! The transports (`mcpwire::transport`): Streamable HTTP on both revisions, and the fleet
//! of replicas sharing Redis.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod http;
