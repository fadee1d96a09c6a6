//! The commands that talk to a server, one file each.

pub mod call;
pub mod info;
mod listing;
pub mod prompts;
pub mod resources;
pub mod skills;
pub mod tools;
