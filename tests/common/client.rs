//! What the client tests share: connecting the client to an example over stdio or HTTP, and a
//! macro running a scenario on both transports and both eras.
#![allow(dead_code)]

use super::{HttpExample, example_bin};
use mcpwire::client::{Client, ClientBuilder, EraChoice, StdioServer};
use mcpwire::protocol::Era;

#[derive(Clone, Copy, Debug)]
pub enum Via {
    Stdio,
    Http,
}

/// A connected client, and the HTTP server process it talks to (stdio children belong to the
/// client).
pub struct Connected {
    pub client: Client,
    pub _server: Option<HttpExample>,
}

pub async fn connect(via: Via, era: EraChoice, example: &str, builder: ClientBuilder) -> Connected {
    let builder = builder.era(era);
    match via {
        Via::Stdio => {
            let client = builder
                .connect_stdio(StdioServer::new(example_bin(example)))
                .await
                .unwrap_or_else(|e| panic!("connect to {example} over stdio: {e}"));
            Connected {
                client,
                _server: None,
            }
        }
        Via::Http => {
            let server = HttpExample::start(example);
            let client = builder
                .connect_http(&server.url)
                .await
                .unwrap_or_else(|e| panic!("connect to {example} over HTTP: {e}"));
            Connected {
                client,
                _server: Some(server),
            }
        }
    }
}

pub fn expected_era(era: EraChoice) -> Era {
    match era {
        EraChoice::Legacy => Era::Legacy,
        _ => Era::Modern,
    }
}

/// Runs each `async fn NAME(via: Via, era: EraChoice)` on both transports and both eras.
#[allow(unused_macros)]
macro_rules! on_every_transport {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn stdio_legacy() { $scenario(Via::Stdio, EraChoice::Legacy).await }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn stdio_modern() { $scenario(Via::Stdio, EraChoice::Modern).await }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn http_legacy() { $scenario(Via::Http, EraChoice::Legacy).await }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn http_modern() { $scenario(Via::Http, EraChoice::Modern).await }
        }
    )*};
}
