//! MCP middleware (`mcpwire::layer`) over real transports.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod shared_rate_limit;
mod stack;
mod with_tasks;
