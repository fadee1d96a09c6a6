//! The extension seam: what an MCP extension (tasks, Apps, Skills, your own) plugs into a server
//! without the core knowing it. An extension is negotiated by its identifier
//! (`io.modelcontextprotocol/skills`): the server declares it, with its settings, under
//! `capabilities.extensions` (in `initialize` on 2025-11-25, in `server/discover` on
//! 2026-07-28), and a client declares it in its own capabilities. An extension contributes
//!
//! - its capability entry, on the revisions it is offered on ([`Eras`]);
//! - its methods ([`ExtensionMethod`]), served like any other method: after authorization,
//!   through the server-wide middleware, and answered `-32601` on a revision it is not offered
//!   on;
//! - tools, prompts and resources, registered like any others;
//! - `_meta` entries on the listings of tools and resources already registered
//!   ([`Install::tool_meta`](crate::server::Install::tool_meta): MCP Apps points a tool at its
//!   view so), refused for a name nothing is registered as.
//!
//! Install one with [`McpServer::extension`](crate::McpServer::extension); write one by
//! implementing [`Extension`](crate::server::Extension).
//!
//! # Examples
//!
//! ```
//! use mcpwire::extension::{Eras, ExtensionRequest};
//! use mcpwire::server::{Extension, Install};
//! use mcpwire::prelude::*;
//! use serde_json::{Value, json};
//!
//! /// Says hello, as `example.com/hello` on both revisions.
//! struct Hello;
//!
//! impl Extension for Hello {
//!     const ID: &'static str = "example.com/hello";
//!
//!     fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
//!         install.settings(json!({ "greeting": "hello" }));
//!         install.method("hello/say", |request: ExtensionRequest| async move {
//!             let name: String = request.params::<Value>()?["name"]
//!                 .as_str()
//!                 .unwrap_or("world")
//!                 .to_owned();
//!             Ok(json!({ "text": format!("hello, {name}") }))
//!         });
//!         Ok(())
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
//! let mut client = McpServer::new("greeter").extension(Hello)?.serve_memory().await?;
//! let reply = client
//!     .request(r#"{"jsonrpc":"2.0","id":1,"method":"hello/say","params":{"name":"Ada"}}"#)
//!     .await
//!     .unwrap();
//! assert!(reply.contains(r#""text":"hello, Ada""#), "{reply}");
//! # let _ = Eras::BOTH;
//! # Ok(()) }
//! ```

mod eras;
pub(crate) mod intercept;
pub(crate) mod listen;
mod method;
mod negotiation;
pub(crate) mod registry;
mod request;

pub use eras::Eras;
pub use method::{Admission, ExtensionMethod, MethodFuture};
pub use negotiation::not_negotiated;
pub(crate) use negotiation::{declared_by, declared_settings};
pub(crate) use registry::Extensions;
pub use request::ExtensionRequest;
