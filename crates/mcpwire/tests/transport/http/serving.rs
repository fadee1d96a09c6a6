//! Streamable HTTP serving: mounting the endpoint in an axum application with its own
//! middleware, and graceful shutdown.

use crate::support;
use axum::serve::ListenerExt;
use mcpwire::prelude::*;
use serde_json::json;
use std::time::Duration;
use support::http::*;

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Answers after a while.
#[tool]
async fn slow(ctx: Context) -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    ctx.headers()
        .and_then(|headers| headers.get("x-added-by-middleware"))
        .map_or("finished", |_| "finished, with the middleware's header")
        .to_owned()
}

fn server() -> McpServer {
    McpServer::new("serving")
        .tool(add)
        .unwrap()
        .tool(slow)
        .unwrap()
}

#[tokio::test]
async fn the_router_mounts_into_an_app_with_its_own_routes_and_middleware() {
    let mcp = server().into_router().await.unwrap();
    let app = axum::Router::new()
        .route("/health", axum::routing::get(|| async { "ok" }))
        .merge(mcp)
        .layer(axum::middleware::from_fn(
            |mut request: axum::extract::Request, next: axum::middleware::Next| async move {
                request
                    .headers_mut()
                    .insert("x-added-by-middleware", "1".parse().unwrap());
                next.run(request).await
            },
        ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    let client = reqwest::Client::new();
    let health = client.get(format!("{base}/health")).send().await.unwrap();
    assert_eq!(health.text().await.unwrap(), "ok");
    let body = modern_body(1, "tools/call", json!({"name":"slow"}));
    let response = client
        .post(format!("{base}/mcp"))
        .headers(modern_headers(&body))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let text = json_of(response).await["result"]["content"][0]["text"].clone();
    assert_eq!(text, "finished, with the middleware's header");
    task.abort();
}

#[tokio::test]
async fn a_custom_path_serves_there_only() {
    let mcp = server().http().path("/v1/mcp").into_router().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move { axum::serve(listener, mcp).await });
    let client = reqwest::Client::new();
    let body = modern_body(1, "tools/list", json!({}));
    let post = |path: &'static str| {
        client
            .post(format!("{base}{path}"))
            .headers(modern_headers(&body))
            .body(body.to_string())
            .send()
    };
    assert_eq!(post("/v1/mcp").await.unwrap().status(), 200);
    assert_eq!(post("/mcp").await.unwrap().status(), 404);
    task.abort();
}

#[tokio::test]
async fn shutdown_lets_in_flight_requests_finish_and_closes_streams() {
    let server = start(server()).await;
    let session = server.initialize().await;
    let stream = server
        .client
        .get(&server.url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let body = modern_body(1, "tools/call", json!({"name":"slow"}));
    let in_flight = tokio::spawn({
        let client = server.client.clone();
        let url = server.url.clone();
        async move {
            client
                .post(url)
                .headers(modern_headers(&body))
                .body(body.to_string())
                .send()
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let url = server.url.clone();
    server.shut_down().await.expect("serve returns Ok");
    let response = in_flight
        .await
        .unwrap()
        .expect("the in-flight request was answered");
    assert_eq!(
        json_of(response).await["result"]["content"][0]["text"],
        "finished"
    );
    let rest = tokio::time::timeout(Duration::from_secs(5), stream.text()).await;
    assert!(rest.expect("the GET stream closed").is_ok());
    let refused = reqwest::Client::new().post(url).body("{}").send().await;
    assert!(refused.is_err(), "no new connections after shutdown");
}

#[tokio::test]
async fn serve_http_binds_the_given_address() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server().serve_http_with_shutdown(addr, async {
        let _ = stopped.await;
    }));
    let url = format!("http://{addr}/mcp");
    let body = modern_body(1, "tools/list", json!({}));
    let mut answered = None;
    for _ in 0..100 {
        let sent = reqwest::Client::new()
            .post(&url)
            .headers(modern_headers(&body))
            .body(body.to_string())
            .send()
            .await;
        if let Ok(response) = sent {
            answered = Some(response.status());
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(answered, Some(reqwest::StatusCode::OK));
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

/// A bus within this process: enough to make a server one replica of a fleet.
struct LocalBus(tokio::sync::broadcast::Sender<String>);

impl mcpwire::transport::http::FleetBus for LocalBus {
    fn publish(&self, payload: String) -> mcpwire::transport::http::SharedFuture<'_, ()> {
        let _ = self.0.send(payload);
        Box::pin(async { Ok(()) })
    }

    fn subscribe(
        &self,
    ) -> futures_util::stream::BoxStream<'static, mcpwire::transport::http::BusEvent> {
        use futures_util::StreamExt;
        use mcpwire::transport::http::BusEvent;
        use tokio::sync::broadcast::error::RecvError;
        futures_util::stream::unfold(self.0.subscribe(), |mut receiver| async move {
            match receiver.recv().await {
                Ok(payload) => Some((BusEvent::Message(payload), receiver)),
                Err(RecvError::Lagged(_)) => Some((BusEvent::Reconnected, receiver)),
                Err(RecvError::Closed) => None,
            }
        })
        .boxed()
    }
}

/// What `http` logs while it starts (its router is built), through `tracing`.
async fn start_up_log(http: mcpwire::transport::HttpServer) -> String {
    // The test runtime has one thread: start-up logs on this one.
    let logs = support::Logs::capture();
    drop(http.into_router().await.unwrap());
    logs.text()
}

/// A random `requestState` key matters only to a fleet, whose replicas must open each other's
/// rounds: one process alone starts quietly; a replica (here: on a bus) without shared keys
/// says so, and one with keys of its own does not.
#[tokio::test]
async fn only_a_fleet_without_shared_keys_is_warned_about_request_state_keys() {
    assert!(
        std::env::var_os(mcpwire::request_state::KEYS_ENV).is_none(),
        "this test needs {} unset",
        mcpwire::request_state::KEYS_ENV
    );
    let bus = || LocalBus(tokio::sync::broadcast::channel(16).0);
    let alone = start_up_log(server().http()).await;
    assert!(!alone.contains("random key"), "{alone}");

    let replica = start_up_log(server().http().fleet_bus(bus())).await;
    assert!(
        replica.contains("requestState is sealed with a random key"),
        "{replica}"
    );
    assert!(
        replica.contains(mcpwire::request_state::KEYS_ENV),
        "{replica}"
    );

    let keys = mcpwire::request_state::KeyRing::new([[7u8; 32]]).unwrap();
    let shared = server().request_state_keys(keys).http().fleet_bus(bus());
    let shared = start_up_log(shared).await;
    assert!(!shared.contains("random key"), "{shared}");
}
