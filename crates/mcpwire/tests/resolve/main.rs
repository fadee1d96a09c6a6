//! Resolvers (`mcpwire::resolve`): running them, their keys, the questions they ask on both
//! revisions, declines, URL elicitation and the bounds of rounds.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod declines;
mod questions;
mod resolution;
mod resolver_keys;
mod rounds_bounds;
mod url_elicitation;
