//! The gateway (`mcpwire::gateway`) in front of servers of this crate: what passes through it
//! (questions on the four pairs of revisions, progress, log messages, cancellation, list
//! changes, header parameters, skills). The gateway in front of servers nobody here wrote is tested
//! from the workspace's root `tests/`.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod completion;
mod logging;
mod param_headers;
mod questions;
mod results;
mod serving;
mod skills;
mod templates;
mod views;
