//! `gateway --config FILE [--http ADDR]`: the servers a host's `mcpServers` file names, served
//! as one (`mcpwire::gateway`), on stdio or Streamable HTTP.

use crate::cli::Gateway;
use crate::exit::{Failure, UNREACHABLE};
use mcpwire::McpServer;
use mcpwire::gateway::{self, backends_from_config};

/// Reads the configuration (refusing a bad one before anything starts), starts the backends,
/// and serves until the transport ends; over HTTP it first prints `MCP server listening on URL`
/// on stderr, as the examples do.
pub async fn run(command: Gateway) -> Result<(), Failure> {
    mcpwire::transport::log_to_stderr();
    let path = command.config.display().to_string();
    let text = std::fs::read_to_string(&command.config)
        .map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
    let backends = backends_from_config(&text, |name| std::env::var(name).ok())
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    if backends.is_empty() {
        return Err(Failure::usage(format!("{path}: no server to serve")));
    }
    let front = McpServer::new("mcpwire-gateway").version(env!("CARGO_PKG_VERSION"));
    let server = backends
        .into_iter()
        .fold(gateway::Gateway::new(), gateway::Gateway::backend)
        .start(front)
        .await
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    let served = match command.http {
        Some(addr) => {
            // Bound here, so the address printed is the one served (port 0 included).
            let listener = tokio::net::TcpListener::bind(&addr)
                .await
                .map_err(|e| Failure {
                    code: UNREACHABLE,
                    message: format!("cannot listen on {addr}: {e}"),
                })?;
            if let Ok(bound) = listener.local_addr() {
                eprintln!("MCP server listening on http://{bound}/mcp");
            }
            let http = server.http();
            http.serve_listener(listener, std::future::pending()).await
        }
        None => server.serve_stdio().await,
    };
    served.map_err(|e| Failure {
        code: UNREACHABLE,
        message: format!("the gateway stopped: {e}"),
    })
}
