//! `serve_from_args`: stdio by default, Streamable HTTP with `--http ADDR` (with the `http`
//! feature), so an example's `main` stays one line.

use crate::error::{Error, Result};
use crate::server::McpServer;

impl McpServer {
    /// Serves as the command line says: over stdio by default, or over Streamable HTTP with
    /// `--http 127.0.0.1:PORT` (port `0` picks a free one). On HTTP it prints the endpoint's
    /// URL (last, on a line `MCP server listening on URL`) and how to connect the MCP
    /// Inspector to stderr, and stops gracefully on Ctrl-C.
    ///
    /// ```no_run
    /// # use mcpwire::prelude::*;
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     McpServer::new("demo").serve_from_args().await
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// On an unknown argument or a missing address, and as [`McpServer::serve_stdio`] or
    /// [`McpServer::serve_http`] fail.
    pub async fn serve_from_args(self) -> Result<()> {
        let Some(addr) = http_address(std::env::args().skip(1))? else {
            return self.serve_stdio().await;
        };
        self.serve_http_at(addr).await
    }

    #[cfg(not(feature = "http"))]
    async fn serve_http_at(self, _addr: String) -> Result<()> {
        Err(Error::Startup(
            "--http needs mcpwire's `http` feature, which this build leaves out".to_owned(),
        ))
    }

    #[cfg(feature = "http")]
    async fn serve_http_at(self, addr: String) -> Result<()> {
        let listener = tokio::net::TcpListener::bind(&addr).await?;
        let url = format!("http://{}/mcp", listener.local_addr()?);
        eprintln!(
            "Connect the MCP Inspector: npx @modelcontextprotocol/inspector, then choose \
             transport \"Streamable HTTP\" and URL {url}\n\
             or from a terminal: npx @modelcontextprotocol/inspector --cli {url} \
             --transport http --method tools/list"
        );
        eprintln!("MCP server listening on {url}");
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        self.http().serve_listener(listener, ctrl_c).await
    }
}

/// `Some(addr)` for `--http ADDR` (or `--http=ADDR`), `None` for no arguments.
fn http_address(mut args: impl Iterator<Item = String>) -> Result<Option<String>> {
    let usage = |why: String| {
        Error::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{why}; usage: [--http 127.0.0.1:PORT] (stdio without it)"),
        ))
    };
    let mut addr = None;
    while let Some(arg) = args.next() {
        if let Some(value) = arg.strip_prefix("--http=") {
            addr = Some(value.to_owned());
        } else if arg == "--http" {
            addr = Some(
                args.next()
                    .ok_or_else(|| usage("--http needs an address".into()))?,
            );
        } else {
            return Err(usage(format!("unknown argument {arg:?}")));
        }
    }
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use super::http_address;

    fn parse(args: &[&str]) -> Option<String> {
        http_address(args.iter().map(|a| a.to_string())).unwrap()
    }

    #[test]
    fn reads_the_http_address() {
        assert_eq!(parse(&[]), None);
        assert_eq!(
            parse(&["--http", "127.0.0.1:0"]).as_deref(),
            Some("127.0.0.1:0")
        );
        assert_eq!(
            parse(&["--http=127.0.0.1:9"]).as_deref(),
            Some("127.0.0.1:9")
        );
        assert!(http_address(["--http".to_owned()].into_iter()).is_err());
        assert!(http_address(["--stdio".to_owned()].into_iter()).is_err());
    }
}
