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
//! **Not passed through yet.** A backend's questions (elicitation, sampling, roots) are
//! answered as declined by the gateway's client; progress, cancellation, logging and a
//! backend's own list-changed notifications do not reach the front client.

mod backend;
mod config;
mod error;
#[allow(clippy::module_inception)]
mod gateway;
mod link;
mod mounted;
mod names;
mod proxy;
mod routes;

pub use backend::{Backend, Target};
pub use config::backends_from_config;
pub use error::GatewayError;
pub use gateway::Gateway;
