//! Extensions on the seam (`mcpwire::extension`): the seam itself, MCP Apps and Skills.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod apps;
mod seam;
mod skills;
