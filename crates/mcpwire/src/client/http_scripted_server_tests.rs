//! The HTTP transport against scripted axum servers: the 2025-11-25 GET stream (its messages
//! reach the notification stream; a stream the server ends is reopened with `Last-Event-ID`),
//! and how `Auto` reads HTTP statuses to `server/discover` (a plain 4xx means a legacy server;
//! 401, 403 and 5xx are failures, never a reason to try `initialize`).

use crate::client::{Client, EraChoice};
use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Seen = Arc<Mutex<Vec<Option<String>>>>;

async fn answer_post(body: Bytes) -> Response {
    legacy_post(body, StatusCode::BAD_REQUEST).await
}

/// A 2025-11-25-only server: `server/discover` gets `discover_status` with a plain-text body.
async fn legacy_post(body: Bytes, discover_status: StatusCode) -> Response {
    let message: Value = serde_json::from_slice(&body).unwrap();
    match (message["method"].as_str(), message.get("id")) {
        (Some("server/discover"), _) => {
            (discover_status, "Bad Request: no session").into_response()
        }
        (Some("initialize"), Some(id)) => {
            let result = json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "serverInfo": {"name": "scripted", "version": "1"}}});
            let headers = [
                ("mcp-session-id", "s-1"),
                ("content-type", "application/json"),
            ];
            (headers, result.to_string()).into_response()
        }
        (_, Some(id)) => {
            let result = json!({"jsonrpc": "2.0", "id": id, "result": {}});
            (
                [(header::CONTENT_TYPE, "application/json")],
                result.to_string(),
            )
                .into_response()
        }
        (_, None) => StatusCode::ACCEPTED.into_response(),
    }
}

fn note(n: u32) -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/message",
           "params": {"level": "info", "data": format!("note {n}")}})
    .to_string()
}

async fn answer_get(seen: Seen, headers: HeaderMap) -> Response {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let count = {
        let mut seen = seen.lock().unwrap();
        seen.push(last);
        seen.len()
    };
    let body = match count {
        1 => format!("id: 1\nretry: 20\nevent: message\ndata: {}\n\n", note(1)),
        2 => format!("id: 2\ndata: {}\n\n", note(2)),
        _ => return StatusCode::METHOD_NOT_ALLOWED.into_response(),
    };
    // The event comes a moment after the stream opens: connecting waits for the GET's answer,
    // and the test subscribes to notifications only then (they are seen from subscribing on).
    let delayed = futures_util::stream::once(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Ok::<_, std::convert::Infallible>(body)
    });
    let body = axum::body::Body::from_stream(delayed);
    ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
}

#[tokio::test]
async fn an_ended_get_stream_is_reopened_with_last_event_id() {
    let seen: Seen = Arc::default();
    let gets = seen.clone();
    let app = Router::new().route(
        "/mcp",
        post(answer_post).get(move |headers: HeaderMap| answer_get(gets.clone(), headers)),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let client = Client::builder()
        .era(EraChoice::Legacy)
        .connect_http(&url)
        .await
        .unwrap();
    let mut notes = client.notifications();
    let mut data = Vec::new();
    while data.len() < 2 {
        let note = tokio::time::timeout(Duration::from_secs(5), notes.next())
            .await
            .expect("a notification")
            .unwrap();
        data.push(note.params["data"].clone());
    }
    assert_eq!(data, ["note 1", "note 2"]);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Opened, reopened after id 1 and after id 2 (refused there: the stream then stays closed).
    assert_eq!(
        *seen.lock().unwrap(),
        [None, Some("1".to_owned()), Some("2".to_owned())]
    );
    client.ping().await.unwrap();
}

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

#[tokio::test]
async fn auto_reads_discover_statuses() {
    for (status, legacy) in [
        (StatusCode::BAD_REQUEST, true),
        (StatusCode::NOT_FOUND, true),
        (StatusCode::METHOD_NOT_ALLOWED, true),
        (StatusCode::UNAUTHORIZED, false),
        (StatusCode::FORBIDDEN, false),
        (StatusCode::INTERNAL_SERVER_ERROR, false),
    ] {
        let initialized = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = initialized.clone();
        let app = Router::new().route(
            "/mcp",
            post(move |body: Bytes| {
                let seen = seen.clone();
                async move {
                    if body.windows(12).any(|w| w == b"\"initialize\"") {
                        seen.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                    legacy_post(body, status).await
                }
            })
            .get(|| async { StatusCode::METHOD_NOT_ALLOWED }),
        );
        let url = serve(app).await;
        let outcome = Client::builder().connect_http(&url).await;
        match legacy {
            true => assert_eq!(
                outcome.unwrap().era(),
                crate::protocol::Era::Legacy,
                "{status}"
            ),
            false => {
                let error = outcome.unwrap_err();
                assert!(
                    matches!(&error, crate::client::ClientError::Http { status: s, .. } if *s == status.as_u16()),
                    "{status}: {error}"
                );
                assert!(
                    !initialized.load(std::sync::atomic::Ordering::SeqCst),
                    "{status}"
                );
            }
        }
    }
}

/// 2026-07-28 answers to `server/discover`, and a `tools/call` whose event stream ends before
/// its answer.
async fn modern_post(body: Bytes) -> Response {
    let message: Value = serde_json::from_slice(&body).unwrap();
    let id = message["id"].clone();
    match message["method"].as_str() {
        Some("server/discover") => {
            let result = json!({"jsonrpc": "2.0", "id": id, "result": {
                "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {}}});
            (
                [(header::CONTENT_TYPE, "application/json")],
                result.to_string(),
            )
                .into_response()
        }
        _ => {
            let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": id, "progress": 1}});
            let body = format!("event: message\ndata: {progress}\n\n");
            ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
        }
    }
}

#[tokio::test]
async fn a_stream_that_ends_before_its_answer_fails_the_call_at_once() {
    let url = serve(Router::new().route("/mcp", post(modern_post))).await;
    let client = Client::builder()
        .era(EraChoice::Modern)
        .connect_http(&url)
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let error = client.call_tool("lost", json!({})).await.unwrap_err();
    assert!(
        matches!(error, crate::client::ClientError::Transport(_)),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Connecting on 2025-11-25 returns only once the server has answered the GET stream, so a
/// request the server sends on it right after (e.g. an elicitation for the next tool call) is
/// not dropped for want of a stream.
#[tokio::test]
async fn connecting_waits_for_the_get_stream() {
    let answered = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = answered.clone();
    let app = Router::new().route(
        "/mcp",
        post(answer_post).get(move || {
            let flag = flag.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
                ([(header::CONTENT_TYPE, "text/event-stream")], ": open\n\n").into_response()
            }
        }),
    );
    let url = serve(app).await;
    let client = Client::builder()
        .era(EraChoice::Legacy)
        .connect_http(&url)
        .await
        .unwrap();
    assert!(answered.load(std::sync::atomic::Ordering::SeqCst));
    client.close().await;
}

/// A plain `http://` endpoint's POSTs go on hyper's connections directly; one that redirects
/// (`307`, as a moved endpoint answers) is still followed, as reqwest always did: every call
/// reaches the endpoint the redirection names. Once redirected, the client sends through
/// reqwest (which follows) from the start.
#[tokio::test]
async fn a_redirected_endpoint_is_followed() {
    let redirected = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = redirected.clone();
    let app = Router::new().route("/mcp", post(modern_discover)).route(
        "/old",
        post(move || {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async { (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, "/mcp")]) }
        }),
    );
    let url = serve(app).await.replace("/mcp", "/old");
    let client = Client::builder()
        .era(EraChoice::Modern)
        .connect_http(&url)
        .await
        .unwrap();
    assert!(client.list_tools().await.unwrap().is_empty());
    assert!(client.list_tools().await.unwrap().is_empty());
    // The discovery twice (sent directly, then through reqwest), then each listing once.
    assert_eq!(redirected.load(std::sync::atomic::Ordering::SeqCst), 4);
}

/// A 2026-07-28 server with no tools: it answers `server/discover` and `tools/list`.
async fn modern_discover(body: Bytes) -> Response {
    let message: Value = serde_json::from_slice(&body).unwrap();
    let id = message["id"].clone();
    let result = match message["method"].as_str() {
        Some("server/discover") => json!({"resultType": "complete",
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}),
        _ => json!({"resultType": "complete", "tools": []}),
    };
    let line = json!({"jsonrpc": "2.0", "id": id, "result": result});
    (
        [(header::CONTENT_TYPE, "application/json")],
        line.to_string(),
    )
        .into_response()
}
