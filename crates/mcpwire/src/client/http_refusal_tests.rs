//! How the HTTP transport reads refusals, against scripted axum servers shaped like the SDKs
//! people run: the TypeScript SDK 1.x (`400`, `"id": null`), the Python SDK 1.x (`400`,
//! `"id": "server-error"`, and a fresh `Mcp-Session-Id` it forgets at once). `Auto` falls back
//! at once; a pinned 2026-07-28 fails at once with the status and the message; a reply naming
//! another waiting request answers that one; a probe without an answer gives up after the
//! probe timeout; the verdict is kept per URL.

use crate::client::{Client, ClientError, EraChoice};
use crate::protocol::Era;
use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a connect may take here before the test calls it a hang (the call timeout is 60 s).
const NO_HANG: Duration = Duration::from_secs(10);

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

fn json_response(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// A 2025-11-25 session server; `refuse` answers what comes outside a session.
async fn session_server(
    headers: HeaderMap,
    body: Bytes,
    refuse: fn() -> Response,
    discovers: Arc<AtomicUsize>,
) -> Response {
    let message: Value = serde_json::from_slice(&body).unwrap();
    let session = headers.get("mcp-session-id").and_then(|v| v.to_str().ok());
    match (message["method"].as_str(), session) {
        (Some("server/discover"), _) => {
            discovers.fetch_add(1, Ordering::SeqCst);
            refuse()
        }
        (Some("initialize"), None) => {
            let result = json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "serverInfo": {"name": "sessions", "version": "1"}}});
            let mut response = json_response(StatusCode::OK, result);
            response
                .headers_mut()
                .insert("mcp-session-id", "good".parse().unwrap());
            response
        }
        // A session the server does not know (e.g. one from a refusal): `404`.
        (_, Some(session)) if session != "good" => StatusCode::NOT_FOUND.into_response(),
        (_, None) => refuse(),
        (_, Some(_)) => match message.get("id") {
            Some(id) => json_response(
                StatusCode::OK,
                json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            ),
            None => StatusCode::ACCEPTED.into_response(),
        },
    }
}

/// The TypeScript SDK 1.x's answer to a request before `initialize`.
fn typescript_1x() -> Response {
    json_response(
        StatusCode::BAD_REQUEST,
        json!({"jsonrpc": "2.0", "error": {"code": -32000,
            "message": "Bad Request: Server not initialized"}, "id": null}),
    )
}

/// The Python SDK 1.x's: a string id, and a session id it forgets at once.
fn python_1x() -> Response {
    let mut response = json_response(
        StatusCode::BAD_REQUEST,
        json!({"jsonrpc": "2.0", "id": "server-error", "error": {"code": -32600,
            "message": "Bad Request: Missing session ID"}}),
    );
    response
        .headers_mut()
        .insert("mcp-session-id", "forgotten".parse().unwrap());
    response
}

fn app(refuse: fn() -> Response, discovers: Arc<AtomicUsize>) -> Router {
    Router::new().route(
        "/mcp",
        post(move |headers: HeaderMap, body: Bytes| {
            session_server(headers, body, refuse, discovers.clone())
        })
        .get(|| async { StatusCode::METHOD_NOT_ALLOWED })
        .delete(|| async { StatusCode::OK }),
    )
}

async fn auto_falls_back_at_once(refuse: fn() -> Response) {
    let url = serve(app(refuse, Arc::default())).await;
    let connect = Client::builder().connect_http(&url);
    let client = tokio::time::timeout(NO_HANG, connect)
        .await
        .expect("the refusal is the probe's answer")
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().info.unwrap().name, "sessions");
    client.ping().await.unwrap();
}

#[tokio::test]
async fn a_typescript_sdk_1x_refusal_with_a_null_id_falls_back_at_once() {
    auto_falls_back_at_once(typescript_1x).await;
}

#[tokio::test]
async fn a_python_sdk_1x_refusal_with_a_string_id_falls_back_without_its_session_id() {
    // The session id sent with the refusal is not kept: `initialize` goes without it.
    auto_falls_back_at_once(python_1x).await;
}

#[tokio::test]
async fn a_modern_request_refused_with_a_4xx_fails_at_once_with_the_status_and_message() {
    for (refuse, message) in [
        (
            typescript_1x as fn() -> Response,
            "Bad Request: Server not initialized (-32000)",
        ),
        (python_1x, "Bad Request: Missing session ID (-32600)"),
    ] {
        let url = serve(app(refuse, Arc::default())).await;
        let connect = Client::builder().era(EraChoice::Modern).connect_http(&url);
        let error = tokio::time::timeout(NO_HANG, connect)
            .await
            .expect("the refusal fails the request at once")
            .unwrap_err();
        let ClientError::Http { status, body } = &error else {
            panic!("{error:?}");
        };
        assert_eq!((*status, body.as_str()), (400, message));
    }
}

#[tokio::test]
async fn the_verdict_is_kept_per_url() {
    let discovers = Arc::new(AtomicUsize::new(0));
    let url = serve(app(typescript_1x, discovers.clone())).await;
    let builder = Client::builder();
    let first = builder.clone().connect_http(&url).await.unwrap();
    let second = builder.connect_http(&url).await.unwrap();
    assert_eq!((first.era(), second.era()), (Era::Legacy, Era::Legacy));
    assert_eq!(discovers.load(Ordering::SeqCst), 1, "probed once");
    // Another URL (another server) is probed afresh.
    let other = serve(app(typescript_1x, discovers.clone())).await;
    let third = Client::builder().connect_http(&other).await.unwrap();
    assert_eq!(third.era(), Era::Legacy);
    assert_eq!(discovers.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_probe_without_an_answer_gives_up_after_the_probe_timeout() {
    let app = Router::new().route(
        "/mcp",
        post(|headers: HeaderMap, body: Bytes| async move {
            if body.windows(17).any(|w| w == b"\"server/discover\"") {
                tokio::time::sleep(Duration::from_secs(120)).await;
            }
            session_server(headers, body, typescript_1x, Arc::default()).await
        })
        .get(|| async { StatusCode::METHOD_NOT_ALLOWED }),
    );
    let url = serve(app).await;
    let connect = Client::builder()
        .probe_timeout(Duration::from_millis(300))
        .connect_http(&url);
    let client = tokio::time::timeout(NO_HANG, connect)
        .await
        .expect("the probe gives up long before the call timeout")
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
}

/// A 2026-07-28 server that holds `tools/call slow` open, and refuses `tools/call other` with
/// a `400` whose body names the slow call's id.
#[tokio::test]
async fn a_refusal_naming_another_waiting_request_answers_that_request() {
    let slow_id: Arc<Mutex<Option<Value>>> = Arc::default();
    let seen = slow_id.clone();
    let app = Router::new().route(
        "/mcp",
        post(move |body: Bytes| {
            let seen = seen.clone();
            async move {
                let message: Value = serde_json::from_slice(&body).unwrap();
                let id = message["id"].clone();
                match (
                    message["method"].as_str(),
                    message["params"]["name"].as_str(),
                ) {
                    (Some("server/discover"), _) => json_response(
                        StatusCode::OK,
                        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
                            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}}),
                    ),
                    (_, Some("slow")) => {
                        *seen.lock().unwrap() = Some(id);
                        tokio::time::sleep(Duration::from_secs(120)).await;
                        StatusCode::GATEWAY_TIMEOUT.into_response()
                    }
                    _ => {
                        let slow = seen.lock().unwrap().clone();
                        json_response(
                            StatusCode::CONFLICT,
                            json!({"jsonrpc": "2.0", "id": slow,
                                "error": {"code": -32603, "message": "the slow one failed"}}),
                        )
                    }
                }
            }
        }),
    );
    let url = serve(app).await;
    let client = Client::builder()
        .era(EraChoice::Modern)
        .connect_http(&url)
        .await
        .unwrap();
    let slow = tokio::spawn({
        let client = client.clone();
        async move { client.call_tool("slow", json!({})).await }
    });
    while slow_id.lock().unwrap().is_none() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let other = client.call_tool("other", json!({})).await.unwrap_err();
    assert!(
        matches!(&other, ClientError::Http { status: 409, body } if body == "the slow one failed (-32603)"),
        "{other:?}"
    );
    let slow = tokio::time::timeout(NO_HANG, slow)
        .await
        .expect("the reply naming it answered the slow call")
        .unwrap()
        .unwrap_err();
    assert_eq!(slow.rpc_code(), Some(-32603), "{slow:?}");
}
