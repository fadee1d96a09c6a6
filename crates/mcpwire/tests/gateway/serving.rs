//! A server of this crate served over Streamable HTTP on loopback for the gateway's tests: a
//! backend, or the gateway itself.

use mcpwire::McpServer;
use mcpwire::client::{Client, EraChoice};
use mcpwire::gateway::{Backend, Gateway};

/// The four pairs of revisions, front client's first, backend's second.
pub const PAIRS: [(EraChoice, EraChoice); 4] = [
    (EraChoice::Legacy, EraChoice::Legacy),
    (EraChoice::Legacy, EraChoice::Modern),
    (EraChoice::Modern, EraChoice::Legacy),
    (EraChoice::Modern, EraChoice::Modern),
];

/// A server on 127.0.0.1 (ephemeral port), stopped when dropped.
pub struct Serving {
    pub url: String,
    task: tokio::task::JoinHandle<mcpwire::Result<()>>,
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `server` until the returned value is dropped.
pub async fn serve(server: McpServer) -> Serving {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(
        server
            .http()
            .serve_listener(listener, std::future::pending::<()>()),
    );
    Serving { url, task }
}

/// `server` served as a backend, and a gateway in front of it (`backend` makes its entry from
/// the backend's URL); both served, the backend first.
pub async fn behind_gateway(
    server: McpServer,
    backend: impl FnOnce(String) -> Backend,
) -> (Serving, Serving) {
    let served = serve(server).await;
    let gateway = Gateway::new()
        .backend(backend(served.url.clone()))
        .start(McpServer::new("gateway"))
        .await
        .expect("the gateway starts");
    let gateway = serve(gateway).await;
    (served, gateway)
}

/// A client of `gateway` speaking `era`.
pub async fn front_client(era: EraChoice, gateway: &Serving) -> Client {
    Client::builder()
        .era(era)
        .connect_http(&gateway.url)
        .await
        .unwrap()
}
