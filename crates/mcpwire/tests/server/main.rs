//! The server's registries and what `#[tool]`, `#[prompt]` and `#[resource]` register
//! (`mcpwire::server`): definitions, schemas, validation, catalogs, completion.
//!
//! One test binary; each module is one concern, and `support` is the test tree's one support
//! module.

#[path = "../support/mod.rs"]
mod support;

mod catalog;
mod classification;
mod completion;
mod given_input_schema;
mod mount;
mod prompts_resources;
mod registration;
mod skills_mount;
mod tool_definitions;
mod validation;
