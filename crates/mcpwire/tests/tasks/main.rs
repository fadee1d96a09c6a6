//! The tasks extension (`mcpwire::tasks`) over HTTP: lifecycle, authorization, stores.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod authorization;
mod backorder;
mod extension;
mod on_redis;
mod redis_bounds;
mod sqlite;
