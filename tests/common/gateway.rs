//! A gateway (`mcpwire::gateway`) in front of one server that is already serving Streamable
//! HTTP, served over Streamable HTTP in this process: what the tests that drive a real peer
//! through the gateway share.

use mcpwire::McpServer;
use mcpwire::client::EraChoice;
use mcpwire::gateway::{Backend, Gateway};
use std::time::{Duration, Instant};

/// The bound on the gateway's start (it connects to its backend first) and on its listener.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A gateway serving on a free port of loopback; it stops when dropped (its runtime ends).
pub struct Fronting {
    /// The gateway's endpoint: `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    _runtime: tokio::runtime::Runtime,
}

impl Fronting {
    /// A gateway whose one backend, `name`, is the server at `backend_url`, mounted under
    /// `namespace` (`""`: no prefix) and spoken to on `backend_era`; returns once the gateway
    /// accepts connections (bounded).
    pub fn start(name: &str, backend_url: &str, namespace: &str, backend_era: EraChoice) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime for the gateway");
        let backend = Backend::http(name, backend_url)
            .namespace(namespace)
            .era(backend_era);
        let server = runtime
            .block_on(async {
                tokio::time::timeout(
                    START_TIMEOUT,
                    Gateway::new()
                        .backend(backend)
                        .start(McpServer::new("gateway")),
                )
                .await
            })
            .unwrap_or_else(|_| panic!("the gateway in front of {name} did not start in time"))
            .unwrap_or_else(|e| panic!("the gateway in front of {name} did not start: {e}"));
        let port = super::free_port();
        runtime.spawn(server.serve_http(format!("127.0.0.1:{port}")));
        let deadline = Instant::now() + START_TIMEOUT;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the gateway does not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Fronting {
            url: format!("http://127.0.0.1:{port}/mcp"),
            _runtime: runtime,
        }
    }
}
