//! Streamable HTTP under bad input: foreign hosts and origins, oversized and malformed bodies.
//! Each gets a clear error, and the server goes on serving.

mod http_support;

use http_support::*;
use mcpwire::prelude::*;
use serde_json::json;

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn server() -> McpServer {
    McpServer::new("protected").tool(add).unwrap()
}

/// The server still answers a correct request.
async fn still_serving(server: &Running) {
    let body = modern_body(
        99,
        "tools/call",
        json!({"name":"add","arguments":{"a":20,"b":22}}),
    );
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        json_of(response).await["result"]["structuredContent"]["result"],
        42
    );
}

fn list() -> serde_json::Value {
    modern_body(1, "tools/list", json!({}))
}

#[tokio::test]
async fn a_foreign_origin_is_403() {
    let server = start(server()).await;
    for origin in [
        "https://evil.example",
        "null",
        "http://localhost.evil.example:80",
    ] {
        let mut headers = modern_headers(&list());
        headers.insert("origin", origin.parse().unwrap());
        let response = server.post_with(&list(), headers).await;
        assert_eq!(response.status(), 403, "{origin}");
        assert_eq!(
            json_of(response).await,
            json!({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden: Origin not allowed"}})
        );
    }
    let get = server
        .client
        .get(&server.url)
        .header("origin", "https://evil.example")
        .send();
    assert_eq!(get.await.unwrap().status(), 403);
    let mut headers = modern_headers(&list());
    headers.insert("origin", "http://localhost:6274".parse().unwrap());
    assert_eq!(server.post_with(&list(), headers).await.status(), 200);
    still_serving(&server).await;
}

#[tokio::test]
async fn a_foreign_host_is_403() {
    let server = start(server()).await;
    let mut headers = modern_headers(&list());
    headers.insert("host", "attacker.example".parse().unwrap());
    let response = server.post_with(&list(), headers).await;
    assert_eq!(response.status(), 403);
    assert_eq!(
        json_of(response).await["error"]["message"],
        "Forbidden: Host not allowed"
    );
    still_serving(&server).await;
}

#[tokio::test]
async fn allowed_hosts_are_configurable() {
    let server = start_http(server().http().allowed_hosts(["mcp.example"])).await;
    let mut headers = modern_headers(&list());
    headers.insert("host", "mcp.example:443".parse().unwrap());
    headers.insert("origin", "https://mcp.example".parse().unwrap());
    assert_eq!(server.post_with(&list(), headers).await.status(), 200);
    let local = server.modern(&list()).await;
    assert_eq!(local.status(), 403, "127.0.0.1 is no longer allowed");
    let open = start_http(
        McpServer::new("open")
            .tool(add)
            .unwrap()
            .http()
            .allow_any_host(),
    )
    .await;
    let mut headers = modern_headers(&list());
    headers.insert("host", "anything.example".parse().unwrap());
    headers.insert("origin", "https://elsewhere.example".parse().unwrap());
    assert_eq!(open.post_with(&list(), headers).await.status(), 200);
}

#[tokio::test]
async fn an_oversized_body_is_413() {
    let server = start_http(server().http().max_body_bytes(1024)).await;
    let padding = "x".repeat(2048);
    let body = modern_body(1, "tools/list", json!({"padding": padding}));
    let response = server.modern(&body).await;
    assert_eq!(response.status(), 413);
    assert_eq!(
        json_of(response).await,
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: body longer than 1024 bytes"}})
    );
    // Without Content-Length (chunked), the limit holds while reading.
    let chunks = vec![Ok::<_, std::io::Error>(body.to_string())];
    let stream = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
    let response = server.post_raw(stream, &[]).await;
    assert_eq!(response.status(), 413);
    still_serving(&server).await;
}

#[tokio::test]
async fn the_default_limit_is_4_mib() {
    let server = start(server()).await;
    let body = modern_body(
        1,
        "tools/list",
        json!({"padding": "x".repeat(4 * 1024 * 1024)}),
    );
    assert_eq!(server.modern(&body).await.status(), 413);
    still_serving(&server).await;
}

#[tokio::test]
async fn malformed_bodies_get_json_rpc_errors() {
    let server = start(server()).await;
    let cases: [(&[u8], serde_json::Value); 6] = [
        (
            b"{nope",
            json!({"code":-32700,"message":"Parse error: the message is not valid JSON"}),
        ),
        (
            b"",
            json!({"code":-32700,"message":"Parse error: the message is not valid JSON"}),
        ),
        (
            b"\xff\xfe",
            json!({"code":-32700,"message":"Parse error: the body is not UTF-8"}),
        ),
        (
            b"[]",
            json!({"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}),
        ),
        (
            br#"{"id":1,"method":"ping"}"#,
            json!({"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":7}"#,
            json!({"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}),
        ),
    ];
    for (body, error) in cases {
        let response = server.post_raw(body.to_vec(), &[]).await;
        assert_eq!(response.status(), 400, "{body:?}");
        assert_eq!(content_type(&response), "application/json");
        let answer = json_of(response).await;
        assert_eq!(answer["error"], error, "{body:?}");
        assert!(answer["id"].is_null() || answer["id"] == 1);
    }
    still_serving(&server).await;
}

#[tokio::test]
async fn a_modern_client_posting_a_response_is_told_it_has_no_session() {
    let server = start(server()).await;
    let answer = json!({"jsonrpc":"2.0","id":"s-1","result":{}});
    let response = server
        .post_raw(answer.to_string(), &[("mcp-protocol-version", MODERN)])
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(json_of(response).await["error"]["code"], -32600);
    still_serving(&server).await;
}
