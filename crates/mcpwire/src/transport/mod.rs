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
#[cfg(feature = "server")]
mod stdio_threads;

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use http::HttpServer;
pub use memory::MemoryClient;

/// Sends `tracing` output to stderr (stdout belongs to the protocol on stdio), filtered by
/// `RUST_LOG` (default `warn`). Call it once, first thing in `main`; later calls do nothing.
///
/// `RUST_LOG` is a comma-separated list of `target=level` and bare `level` directives
/// (`info`, `mcpwire=debug,hyper=warn`); a value that is not such a list (span or field
/// filters) is ignored, and the default applies. The filter is `tracing-subscriber`'s
/// `Targets`, which needs no regular expression engine; an application that wants the full
/// `EnvFilter` syntax, colours or JSON lines installs its own subscriber instead of calling
/// this.
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
    log_to_stderr_or("warn");
}

/// [`log_to_stderr`], with `default` (directives in `RUST_LOG`'s syntax) in place of `warn`
/// when `RUST_LOG` is unset or not such a list; a `default` that is not such a list means
/// `warn`.
///
/// # Examples
///
/// ```no_run
/// #[tokio::main]
/// async fn main() -> mcpwire::Result<()> {
///     // One line per request (mcpwire::layer::RequestLog) unless RUST_LOG says otherwise.
///     mcpwire::transport::log_to_stderr_or("warn,mcpwire::request=info");
///     mcpwire::McpServer::new("demo")
///         .layer(mcpwire::layer::RequestLog::new())
///         .serve_stdio()
///         .await
/// }
/// ```
pub fn log_to_stderr_or(default: &str) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    let parse = |directives: String| {
        Some(directives)
            .filter(|directives| !directives.trim().is_empty())
            .and_then(|directives| directives.parse::<Targets>().ok())
    };
    let filter = (std::env::var("RUST_LOG").ok().and_then(parse))
        .or_else(|| parse(default.to_owned()))
        .unwrap_or_else(|| Targets::new().with_default(LevelFilter::WARN));
    let _ = tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(filter)
        .try_init();
}
