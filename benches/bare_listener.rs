//! What the benchmarks' bare servers (`mcp-floor`, `mcp-proxy-floor`) share, included by each
//! with `#[path]`: bind, print the line the scripts wait for (the bookshop's own words), then
//! hand every accepted socket, with `TCP_NODELAY` as ours, to `serve` on a task of its own,
//! until SIGINT.

use std::future::Future;
use std::net::SocketAddr;
use std::process::ExitCode;
use tokio::net::{TcpListener, TcpStream};

/// Serves `addr` until SIGINT: each connection is `serve(socket)`. `name` prefixes errors.
pub async fn serve_until_interrupted<F, Fut>(name: &str, addr: SocketAddr, serve: F) -> ExitCode
where
    F: Fn(TcpStream) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = match TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("{name}: bind {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    // The line scripts/layer-cost and scripts/gateway-cost wait for.
    eprintln!("MCP server listening on http://{local}/mcp");
    let accepting = async {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                continue;
            };
            let _ = tcp.set_nodelay(true);
            tokio::spawn(serve(tcp));
        }
    };
    tokio::select! {
        () = accepting => ExitCode::SUCCESS,
        _ = tokio::signal::ctrl_c() => ExitCode::SUCCESS,
    }
}
