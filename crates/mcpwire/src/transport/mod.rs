//! Transports: stdio (and any byte-stream pair), Streamable HTTP (the `http` feature), and
//! in-memory.
//!
//! # Examples
//!
//! ```no_run
//! use mcpwire::prelude::*;
//!
//! #[tokio::main]
//! async fn main() -> mcpwire::Result<()> {
//!     mcpwire::transport::log_to_stderr();
//!     let server = McpServer::new("demo");
//!     match std::env::var("PORT") {
//!         Ok(port) => server.serve_http(format!("127.0.0.1:{port}")).await,
//!         Err(_) => server.serve_stdio().await,
//!     }
//! }
//! ```

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub mod memory;
mod stdio;

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use http::HttpServer;
pub use memory::MemoryClient;

/// Sends `tracing` output to stderr (stdout belongs to the protocol on stdio), filtered by
/// `RUST_LOG` (default `warn`). Call it once, first thing in `main`; later calls do nothing.
///
/// # Examples
///
/// ```no_run
/// #[tokio::main]
/// async fn main() -> mcpwire::Result<()> {
///     // RUST_LOG=mcpwire=debug shows every request.
///     mcpwire::transport::log_to_stderr();
///     mcpwire::McpServer::new("demo").serve_stdio().await
/// }
/// ```
pub fn log_to_stderr() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
