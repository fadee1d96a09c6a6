//! Streamable HTTP, 2025-11-25: sessions minted by `initialize`, requests to the client on the
//! request's event stream, the client's answers and notifications, GET, DELETE and expiry.

use crate::support;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use support::http::*;

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Asks the client for its roots and reports the first one's URI.
#[tool]
async fn first_root(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .send_request("roots/list", &json!({}))
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    let answer: serde_json::Value = serde_json::from_str(answer.get()).unwrap();
    Ok(answer["roots"][0]["uri"]
        .as_str()
        .unwrap_or("none")
        .to_owned())
}

/// Never answers.
#[tool]
async fn hang(ctx: Context) -> String {
    let _guard = SetOnDrop(ctx.state::<Arc<Hang>>().clone());
    ctx.info("hanging").await;
    std::future::pending::<()>().await;
    unreachable!()
}

/// What `quiet` saw, and what lets it finish.
#[derive(Default)]
struct Gate {
    open: tokio::sync::Notify,
    finished: std::sync::atomic::AtomicBool,
}

/// Sends nothing until the gate opens, then answers.
#[tool]
async fn quiet(ctx: Context) -> String {
    let observed = ctx.state::<Arc<Hang>>().clone();
    let _guard = SetOnDrop(observed.clone());
    observed.started.store(true, Ordering::SeqCst);
    let gate = ctx.state::<Arc<Gate>>().clone();
    gate.open.notified().await;
    gate.finished.store(true, Ordering::SeqCst);
    "done".to_owned()
}

fn server(observed: Arc<Hang>) -> McpServer {
    gated_server(observed, Arc::default())
}

fn gated_server(observed: Arc<Hang>, gate: Arc<Gate>) -> McpServer {
    McpServer::new("legacy-test")
        .version("1.0.0")
        .state(observed)
        .state(gate)
        .tool(quiet)
        .unwrap()
        .tool(add)
        .unwrap()
        .tool(first_root)
        .unwrap()
        .tool(hang)
        .unwrap()
}

async fn running() -> Running {
    start(server(Arc::default())).await
}

fn call(id: u64, name: &str, arguments: serde_json::Value) -> serde_json::Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":arguments}})
}

#[tokio::test]
async fn initialize_mints_a_session_id() {
    let server = running().await;
    let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}});
    let response = server.post_raw(body.to_string(), &[]).await;
    assert_eq!(response.status(), 200);
    assert_eq!(content_type(&response), "application/json");
    let id = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(id.len(), 32);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    let result = json_of(response).await;
    assert_eq!(result["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(result["result"]["serverInfo"]["name"], "legacy-test");
    assert!(result["result"].get("resultType").is_none());
    assert_ne!(
        server.initialize().await,
        id,
        "every session has its own id"
    );
}

#[tokio::test]
async fn a_failed_initialize_mints_no_session() {
    let server = running().await;
    let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":5}});
    let response = server.post_raw(body.to_string(), &[]).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("mcp-session-id").is_none());
    assert_eq!(json_of(response).await["error"]["code"], -32602);
}

#[tokio::test]
async fn session_requests_answer_json() {
    let server = running().await;
    let session = server.initialize().await;
    let response = server
        .legacy(&session, &call(1, "add", json!({"a":2,"b":3})))
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(content_type(&response), "application/json");
    assert_eq!(
        response.text().await.unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5}}}"#
    );
    let unknown = json!({"jsonrpc":"2.0","id":2,"method":"prompts/list"});
    let response = server.legacy(&session, &unknown).await;
    assert_eq!(response.status(), 200, "legacy errors keep 200");
    assert_eq!(json_of(response).await["error"]["code"], -32601);
}

/// `_meta` as a session request carries it, read once by the endpoint: a malformed one is
/// refused with `-32602` and the session serves on; one with a progress token and entries the
/// server does not know is served.
#[tokio::test]
async fn a_session_requests_meta_is_read_and_a_malformed_one_refused() {
    let server = running().await;
    let session = server.initialize().await;
    let mut malformed = call(1, "add", json!({"a":2,"b":3}));
    malformed["params"]["_meta"] = json!(5);
    let response = json_of(server.legacy(&session, &malformed).await).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_eq!(
        response["error"]["message"],
        "Invalid params: malformed _meta"
    );
    let mut tracked = call(2, "add", json!({"a":2,"b":3}));
    tracked["params"]["_meta"] = json!({"progressToken": "p-1", "other": [1, 2]});
    let response = json_of(server.legacy(&session, &tracked).await).await;
    assert_eq!(
        response["result"]["structuredContent"]["result"], 5,
        "{response}"
    );
}

#[tokio::test]
async fn an_unknown_session_is_404_and_a_missing_one_400() {
    let server = running().await;
    let response = server
        .legacy("0123456789abcdef", &call(1, "add", json!({"a":1,"b":1})))
        .await;
    assert_eq!(response.status(), 404);
    assert_eq!(
        json_of(response).await,
        json!({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Session not found: initialize again"}})
    );
    let response = server
        .post_raw(
            call(2, "add", json!({"a":1,"b":1})).to_string(),
            &[("mcp-protocol-version", LEGACY)],
        )
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        json_of(response).await,
        json!({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Bad Request: missing Mcp-Session-Id header"}})
    );
}

#[tokio::test]
async fn delete_ends_the_session() {
    let server = running().await;
    let session = server.initialize().await;
    let delete = || {
        server
            .client
            .delete(&server.url)
            .header("mcp-session-id", &session)
            .send()
    };
    assert_eq!(delete().await.unwrap().status(), 200);
    let response = server
        .legacy(&session, &call(1, "add", json!({"a":1,"b":1})))
        .await;
    assert_eq!(response.status(), 404);
    assert_eq!(delete().await.unwrap().status(), 404);
}

#[tokio::test]
async fn requests_to_the_client_travel_on_the_request_stream_and_answers_come_back_by_post() {
    let server = running().await;
    let session = server.initialize().await;
    let mut response = server
        .legacy(&session, &call(7, "first_root", json!({})))
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(content_type(&response), "text/event-stream");
    assert!(response.headers().get("mcp-session-id").is_none());
    let question = first_event(&mut response).await;
    assert_eq!(question["method"], "roots/list");
    let answer =
        json!({"jsonrpc":"2.0","id":question["id"],"result":{"roots":[{"uri":"file:///work"}]}});
    let accepted = server.legacy(&session, &answer).await;
    assert_eq!(accepted.status(), 202);
    assert_eq!(accepted.text().await.unwrap(), "");
    let rest = tokio::time::timeout(Duration::from_secs(10), response.text())
        .await
        .unwrap()
        .unwrap();
    let events = parse_events(&rest);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["id"], 7);
    assert_eq!(events[0]["result"]["content"][0]["text"], "file:///work");
}

#[tokio::test]
async fn responses_to_unknown_requests_are_accepted() {
    let server = running().await;
    let session = server.initialize().await;
    let answer = json!({"jsonrpc":"2.0","id":"s-99","result":{}});
    assert_eq!(server.legacy(&session, &answer).await.status(), 202);
    let error = json!({"jsonrpc":"2.0","id":"s-98","error":{"code":-1,"message":"no"}});
    assert_eq!(server.legacy(&session, &error).await.status(), 202);
}

/// Cancels request 9 of `session` by id, and waits until its handler is dropped.
async fn cancel_request_9(server: &Running, session: &str, observed: &Hang) {
    let cancel =
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}});
    assert_eq!(server.legacy(session, &cancel).await.status(), 202);
    eventually("the handler is dropped", || {
        observed.dropped.load(Ordering::SeqCst)
    })
    .await;
}

#[tokio::test]
async fn notifications_cancelled_stops_the_request() {
    let observed = Arc::new(Hang::default());
    let server = start(server(observed.clone())).await;
    let session = server.initialize().await;
    let mut response = server.legacy(&session, &call(9, "hang", json!({}))).await;
    assert_eq!(content_type(&response), "text/event-stream");
    let log = first_event(&mut response).await;
    assert_eq!(log["method"], "notifications/message");
    cancel_request_9(&server, &session, &observed).await;
    let rest = tokio::time::timeout(Duration::from_secs(10), response.text())
        .await
        .unwrap()
        .unwrap();
    assert!(
        parse_events(&rest).is_empty(),
        "a cancelled request gets no response: {rest:?}"
    );
}

/// A dropped stream is no cancellation on a session: the call goes on (that it runs to its end
/// and its events are resumed is `http_resume::a_dropped_stream_is_resumed_from_its_last_event_id`),
/// and the client can still cancel it by id.
#[tokio::test]
async fn a_session_request_whose_stream_dropped_is_still_cancelled_by_id() {
    let observed = Arc::new(Hang::default());
    let server = start(server(observed.clone())).await;
    let session = server.initialize().await;
    let mut response = server.legacy(&session, &call(9, "hang", json!({}))).await;
    first_event(&mut response).await;
    drop(response);
    cancel_request_9(&server, &session, &observed).await;
}

/// A session whose request 9 (`quiet`) runs, its connection closed before anything was sent;
/// after long enough for the server to see the connection closed.
async fn left_before_any_event() -> (Running, String, Arc<Hang>, Arc<Gate>) {
    let (observed, gate) = (Arc::new(Hang::default()), Arc::new(Gate::default()));
    let server = start(gated_server(observed.clone(), gate.clone())).await;
    let session = server.initialize().await;
    let body = call(9, "quiet", json!({}));
    let request = server.legacy(&session, &body);
    tokio::select! {
        _ = request => panic!("quiet answers only once its gate opens"),
        () = eventually("the handler started", || observed.started.load(Ordering::SeqCst)) => {}
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    (server, session, observed, gate)
}

/// A connection closed before the answer's first byte is no cancellation either: the request,
/// which ran inside the answer, runs on to its end, holding its id meanwhile, and frees it then.
#[tokio::test]
async fn a_session_request_whose_connection_closed_before_any_event_runs_to_its_end() {
    let (server, session, observed, gate) = left_before_any_event().await;
    assert!(
        !observed.dropped.load(Ordering::SeqCst),
        "the request was dropped"
    );
    let again = json_of(
        server
            .legacy(&session, &call(9, "add", json!({"a":1,"b":2})))
            .await,
    )
    .await;
    assert_eq!(again["error"]["code"], -32600, "id 9 still runs: {again}");
    gate.open.notify_one();
    eventually("the request finished", || {
        gate.finished.load(Ordering::SeqCst)
    })
    .await;
    // Its id is freed once its answer is made, a moment after the tool returns.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let reuse = call(9, "add", json!({"a":1,"b":2}));
        let answer = json_of(server.legacy(&session, &reuse).await).await;
        if answer["error"]["code"] != -32600 {
            assert_eq!(
                answer["result"]["structuredContent"]["result"], 3,
                "{answer}"
            );
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "id 9 was never freed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// ... and the client can still cancel it by id.
#[tokio::test]
async fn a_session_request_whose_connection_closed_before_any_event_is_cancelled_by_id() {
    let (server, session, observed, gate) = left_before_any_event().await;
    cancel_request_9(&server, &session, &observed).await;
    assert!(!gate.finished.load(Ordering::SeqCst));
}

#[tokio::test]
async fn get_opens_a_stream_which_ends_with_the_session() {
    let server = running().await;
    let session = server.initialize().await;
    let get = || {
        server
            .client
            .get(&server.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &session)
            .send()
    };
    let stream = get().await.unwrap();
    assert_eq!(stream.status(), 200);
    assert_eq!(content_type(&stream), "text/event-stream");
    let delete = server
        .client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .send();
    assert_eq!(delete.await.unwrap().status(), 200);
    let rest = tokio::time::timeout(Duration::from_secs(10), stream.text()).await;
    assert_eq!(rest.expect("the stream ended").unwrap(), "");
    let unknown = get().await.unwrap();
    assert_eq!(unknown.status(), 404);
}

#[tokio::test]
async fn idle_sessions_expire() {
    let server = start_http(
        server(Arc::default())
            .http()
            .session_idle_timeout(Duration::from_millis(50)),
    )
    .await;
    let session = server.initialize().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let response = server
        .legacy(&session, &call(1, "add", json!({"a":1,"b":1})))
        .await;
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn a_full_session_table_evicts_the_idlest_session() {
    let server = start_http(server(Arc::default()).http().max_sessions(2)).await;
    let first = server.initialize().await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let second = server.initialize().await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let third = server.initialize().await;
    let add = call(1, "add", json!({"a":1,"b":1}));
    assert_eq!(server.legacy(&first, &add).await.status(), 404);
    assert_eq!(server.legacy(&second, &add).await.status(), 200);
    assert_eq!(server.legacy(&third, &add).await.status(), 200);
}

#[tokio::test]
async fn both_revisions_share_one_endpoint() {
    let server = running().await;
    let session = server.initialize().await;
    let modern = modern_body(
        1,
        "tools/call",
        json!({"name":"add","arguments":{"a":4,"b":4}}),
    );
    let response = server.modern(&modern).await;
    assert_eq!(json_of(response).await["result"]["resultType"], "complete");
    let response = server
        .legacy(&session, &call(2, "add", json!({"a":4,"b":4})))
        .await;
    let result = json_of(response).await;
    assert_eq!(result["result"]["structuredContent"]["result"], 8);
    assert!(result["result"].get("resultType").is_none());
}
