//! Streamable HTTP, 2026-07-28: stateless requests, mirrored headers, the status mapping, JSON or
//! SSE answers, and cancellation by closing the stream.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use support::http::*;

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Reports progress twice, then answers.
#[tool]
async fn count(ctx: Context) -> String {
    ctx.report_progress(1.0, Some(2.0), Some("one".into()))
        .await;
    ctx.report_progress(2.0, Some(2.0), Some("two".into()))
        .await;
    "counted".into()
}

/// Observes whether `hang` was dropped.
/// Optionally reports progress, then never answers.
#[tool]
async fn hang(progress: bool, ctx: Context) -> String {
    let state = ctx.state::<Arc<Hang>>().clone();
    let _guard = SetOnDrop(state.clone());
    state.started.store(true, Ordering::SeqCst);
    if progress {
        ctx.report_progress(0.5, None, None).await;
    }
    std::future::pending::<()>().await;
    unreachable!()
}

/// Echoes the request's `x-tenant` header.
#[tool]
async fn tenant(ctx: Context) -> String {
    let headers = ctx.headers().expect("HTTP requests carry headers");
    headers["x-tenant"].to_str().unwrap().to_owned()
}

fn server(observed: Arc<Hang>) -> McpServer {
    McpServer::new("modern-test")
        .version("1.0.0")
        .state(observed)
        .tool(add)
        .unwrap()
        .tool(count)
        .unwrap()
        .tool(hang)
        .unwrap()
        .tool(tenant)
        .unwrap()
}

async fn running() -> Running {
    start(server(Arc::default())).await
}

const SERVER_INFO: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-test","version":"1.0.0"}}"#;

#[tokio::test]
async fn tools_call_answers_json_without_a_session() {
    let server = running().await;
    let body = modern_body(
        1,
        "tools/call",
        json!({"name":"add","arguments":{"a":2,"b":3}}),
    );
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 200);
    assert_eq!(content_type(&response), "application/json");
    assert!(response.headers().get("mcp-session-id").is_none());
    let text = response.text().await.unwrap();
    let expected = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"5"}}],"structuredContent":{{"result":5}},"resultType":"complete",{SERVER_INFO}}}}}"#
    );
    assert_eq!(text, expected);
}

#[tokio::test]
async fn tools_list_is_cacheable_and_stateless() {
    let server = running().await;
    let body = modern_body(2, "tools/list", json!({}));
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("mcp-session-id").is_none());
    let list = json_of(response).await;
    assert_eq!(list["id"], 2);
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "count", "hang", "tenant"]);
    assert_eq!(list["result"]["resultType"], "complete");
    assert_eq!(list["result"]["cacheScope"], "public");
    assert_eq!(list["result"]["ttlMs"], 60000);
}

#[tokio::test]
async fn a_session_id_sent_by_a_modern_client_is_ignored_and_not_echoed() {
    let server = running().await;
    let body = modern_body(3, "tools/list", json!({}));
    let mut headers = modern_headers(&body);
    headers.insert("mcp-session-id", "no-such-session".parse().unwrap());
    let response = server.post_with(&body, headers).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("mcp-session-id").is_none());
}

fn mismatch(id: u64, message: &str) -> Value {
    json!({"jsonrpc":"2.0","id":id,"error":{"code":-32020,"message":format!("Header mismatch: {message}")}})
}

#[tokio::test]
async fn every_header_mismatch_is_400_with_32020() {
    let server = running().await;
    let body = modern_body(
        4,
        "tools/call",
        json!({"name":"add","arguments":{"a":1,"b":1}}),
    );
    let cases: [(&str, Option<&str>, &str); 8] = [
        (
            "mcp-protocol-version",
            None,
            "missing required header MCP-Protocol-Version",
        ),
        (
            "mcp-protocol-version",
            Some("2025-11-25"),
            "header MCP-Protocol-Version does not match the request body",
        ),
        ("mcp-method", None, "missing required header Mcp-Method"),
        (
            "mcp-method",
            Some("tools/list"),
            "header Mcp-Method does not match the request body",
        ),
        ("mcp-name", None, "missing required header Mcp-Name"),
        (
            "mcp-name",
            Some("sub"),
            "header Mcp-Name does not match the request body",
        ),
        (
            "mcp-name",
            Some("=?base64?***?="),
            "header Mcp-Name has an invalid value",
        ),
        (
            "mcp-name",
            Some("=?base64?c3Vi?="),
            "header Mcp-Name does not match the request body",
        ),
    ];
    for (header, value, message) in cases {
        let mut headers = modern_headers(&body);
        match value {
            None => {
                headers.remove(header);
            }
            Some(value) => {
                headers.insert(header, value.parse().unwrap());
            }
        }
        let response = server.post_with(&body, headers).await;
        assert_eq!(response.status(), 400, "{header}: {value:?}");
        assert_eq!(content_type(&response), "application/json");
        assert_eq!(
            json_of(response).await,
            mismatch(4, message),
            "{header}: {value:?}"
        );
    }
    // The Base64 form of the right value passes.
    let mut headers = modern_headers(&body);
    headers.insert("mcp-name", "=?base64?YWRk?=".parse().unwrap());
    let response = server.post_with(&body, headers).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        json_of(response).await["result"]["structuredContent"]["result"],
        2
    );
}

#[tokio::test]
async fn header_values_with_invalid_characters_are_mismatches() {
    let server = running().await;
    let body = modern_body(
        5,
        "tools/call",
        json!({"name":"add","arguments":{"a":1,"b":1}}),
    );
    let mut headers = modern_headers(&body);
    headers.insert(
        "mcp-name",
        reqwest::header::HeaderValue::from_bytes(b"add\xff").unwrap(),
    );
    let response = server.post_with(&body, headers).await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        json_of(response).await,
        mismatch(5, "header Mcp-Name has an invalid value")
    );
}

#[tokio::test]
async fn an_unknown_method_is_404_with_32601() {
    let server = running().await;
    let body = modern_body(6, "prompts/list", json!({}));
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 404);
    assert_eq!(
        json_of(response).await,
        json!({"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"Method not found: prompts/list"}})
    );
}

#[tokio::test]
async fn missing_client_capabilities_are_400_with_32602() {
    let server = running().await;
    let meta = json!({"io.modelcontextprotocol/protocolVersion": MODERN});
    let body = modern_body(7, "tools/list", json!({"_meta": meta}));
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 400);
    let error = json_of(response).await;
    assert_eq!(error["id"], 7);
    assert_eq!(error["error"]["code"], -32602);
    assert_eq!(
        error["error"]["message"],
        "Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion and \
         io.modelcontextprotocol/clientCapabilities"
    );
}

#[tokio::test]
async fn a_request_without_meta_or_session_is_400_with_32602() {
    let server = running().await;
    let body = json!({"jsonrpc":"2.0","id":8,"method":"tools/list"});
    let response = server
        .post_raw(
            body.to_string(),
            &[
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/list"),
            ],
        )
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(json_of(response).await["error"]["code"], -32602);
}

#[tokio::test]
async fn an_unsupported_version_is_400_with_32022() {
    let server = running().await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2027-01-01",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let body = modern_body(9, "tools/list", json!({"_meta": meta}));
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        json_of(response).await,
        json!({"jsonrpc":"2.0","id":9,"error":{"code":-32022,"message":"Unsupported protocol version",
               "data":{"supported":[MODERN],"requested":"2027-01-01"}}})
    );
}

#[tokio::test]
async fn get_and_delete_from_modern_clients_are_405() {
    let server = running().await;
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let plain = server
            .client
            .request(method.clone(), &server.url)
            .send()
            .await
            .unwrap();
        assert_eq!(plain.status(), 405, "{method}");
        assert_eq!(plain.headers()["allow"], "POST");
        let announced = server
            .client
            .request(method.clone(), &server.url)
            .header("mcp-protocol-version", MODERN)
            .header("mcp-session-id", "whatever")
            .header("last-event-id", "1")
            .send()
            .await
            .unwrap();
        assert_eq!(announced.status(), 405, "{method}");
    }
}

#[tokio::test]
async fn progress_notifications_arrive_on_sse_before_the_result() {
    let server = running().await;
    let mut meta = meta();
    meta["progressToken"] = json!("p-1");
    let body = modern_body(10, "tools/call", json!({"name":"count","_meta":meta}));
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 200);
    assert_eq!(content_type(&response), "text/event-stream");
    assert_eq!(response.headers()["x-accel-buffering"], "no");
    assert!(response.headers().get("mcp-session-id").is_none());
    let events = events_of(response).await;
    assert_eq!(events.len(), 3, "{events:?}");
    let progress = |n: f64, message: &str| {
        json!({"jsonrpc":"2.0","method":"notifications/progress",
               "params":{"progressToken":"p-1","progress":n,"total":2.0,"message":message}})
    };
    assert_eq!(events[0], progress(1.0, "one"));
    assert_eq!(events[1], progress(2.0, "two"));
    assert_eq!(events[2]["id"], 10);
    assert_eq!(events[2]["result"]["content"][0]["text"], "counted");
}

#[tokio::test]
async fn without_a_progress_token_the_same_tool_answers_json() {
    let server = running().await;
    let body = modern_body(11, "tools/call", json!({"name":"count"}));
    let response = server.modern(&body).await;
    assert_eq!(content_type(&response), "application/json");
    assert_eq!(
        json_of(response).await["result"]["content"][0]["text"],
        "counted"
    );
}

#[tokio::test]
async fn closing_the_event_stream_cancels_the_handler() {
    let hang = Arc::new(Hang::default());
    let server = start(server(hang.clone())).await;
    let mut meta = meta();
    meta["progressToken"] = json!(1);
    let body = modern_body(
        12,
        "tools/call",
        json!({"name":"hang","arguments":{"progress":true},"_meta":meta}),
    );
    let mut response = server.modern(&body).await;
    assert_eq!(content_type(&response), "text/event-stream");
    let first = first_event(&mut response).await;
    assert_eq!(first["method"], "notifications/progress");
    assert!(!hang.dropped.load(Ordering::SeqCst));
    drop(response);
    eventually("the handler is dropped", || {
        hang.dropped.load(Ordering::SeqCst)
    })
    .await;
    // The server goes on serving.
    let body = modern_body(
        13,
        "tools/call",
        json!({"name":"add","arguments":{"a":1,"b":2}}),
    );
    assert_eq!(
        json_of(server.modern(&body).await).await["result"]["structuredContent"]["result"],
        3
    );
}

#[tokio::test]
async fn closing_the_connection_before_any_event_cancels_the_handler() {
    let hang = Arc::new(Hang::default());
    let server = start(server(hang.clone())).await;
    let body = modern_body(
        14,
        "tools/call",
        json!({"name":"hang","arguments":{"progress":false}}),
    );
    let request = server.modern(&body);
    let started = hang.clone();
    tokio::select! {
        _ = request => panic!("hang never answers"),
        () = eventually("the handler started", move || started.started.load(Ordering::SeqCst)) => {}
    }
    eventually("the handler is dropped", || {
        hang.dropped.load(Ordering::SeqCst)
    })
    .await;
}

#[tokio::test]
async fn handlers_see_the_http_headers() {
    let server = running().await;
    let body = modern_body(15, "tools/call", json!({"name":"tenant"}));
    let mut headers = modern_headers(&body);
    headers.insert("x-tenant", "acme".parse().unwrap());
    let response = server.post_with(&body, headers).await;
    assert_eq!(
        json_of(response).await["result"]["content"][0]["text"],
        "acme"
    );
}

#[tokio::test]
async fn notifications_without_a_session_are_accepted() {
    let server = running().await;
    let body = json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}});
    let response = server
        .post_raw(body.to_string(), &[("mcp-protocol-version", MODERN)])
        .await;
    assert_eq!(response.status(), 202);
    assert_eq!(response.text().await.unwrap(), "");
}

#[tokio::test]
async fn server_discover_lists_both_revisions() {
    let server = running().await;
    let body = modern_body(16, "server/discover", json!({}));
    let discovered = json_of(server.modern(&body).await).await;
    assert_eq!(
        discovered["result"]["supportedVersions"],
        json!([MODERN, "2025-11-25", "2025-06-18", "2025-03-26"])
    );
}

#[tokio::test]
async fn initialize_and_ping_are_not_2026_methods() {
    let server = running().await;
    for method in ["initialize", "ping"] {
        let body = modern_body(17, method, json!({}));
        let response = server.modern(&body).await;
        assert_eq!(response.status(), 404, "{method}");
        assert!(response.headers().get("mcp-session-id").is_none());
        assert_eq!(
            json_of(response).await,
            json!({"jsonrpc":"2.0","id":17,"error":{"code":-32601,"message":format!("Method not found: {method}")}})
        );
    }
}

#[tokio::test]
async fn a_header_mismatch_wins_over_an_unsupported_version() {
    let server = running().await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2025-11-25",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let body = modern_body(18, "tools/list", json!({"_meta": meta}));
    let mut headers = modern_headers(&body);
    headers.insert("mcp-protocol-version", MODERN.parse().unwrap());
    let response = server.post_with(&body, headers).await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        json_of(response).await,
        mismatch(
            18,
            "header MCP-Protocol-Version does not match the request body"
        )
    );
}
