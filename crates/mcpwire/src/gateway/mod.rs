//! A gateway: many MCP servers (stdio commands, Streamable HTTP endpoints, either revision)
//! served as one, through the crate's own client (feature `gateway`).
//!
//! A [`Gateway`] lists each [`Backend`]'s tools, prompts, resources and templates and registers
//! them on an [`McpServer`](crate::McpServer) of yours under the backend's namespace; its
//! calls are sent on to the backend. Read [`backends_from_config`] for the configuration file
//! (`mcpwire-cli gateway --config FILE`).
//!
//! **Credentials.** The caller's `Authorization` header is never sent to a backend unless that
//! backend opts in ([`Backend::forward_authorization`]); give a backend its own credentials with
//! [`Backend::header`] instead.
//!
//! **Passed through.** A backend's questions (elicitation, sampling, roots: of a tool, a
//! prompt or a resource read) reach the client in front and its answers go back, on either
//! revision in front and behind; so do its progress and log messages (at the level the front
//! client asked for) and the front client's cancellation (`docs/gateway.md`, "Questions,
//! progress, log messages and cancellation"), a backend's own list changes (its entries are
//! listed again), and a backend tool's header parameters (`x-mcp-header`: checked in front as
//! the front's own tools' are).

mod backend;
mod call;
mod changes;
mod completion;
mod config;
mod error;
mod flight;
#[allow(clippy::module_inception)]
mod gateway;
mod held;
mod link;
mod mounted;
mod names;
mod proxy;
mod questions;
mod routes;
mod skills;

pub use backend::{Backend, Target};
pub use config::backends_from_config;
pub use error::GatewayError;
pub use gateway::Gateway;
