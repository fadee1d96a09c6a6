//! Streamable HTTP under bad input: foreign hosts and origins, oversized and malformed bodies.
//! Each gets a clear error, and the server goes on serving.

use crate::support;
use mcpwire::prelude::*;
use serde_json::json;
use support::http::*;

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
async fn a_body_sent_in_several_chunks_is_read_whole() {
    use futures_util::StreamExt;
    let server = start(server()).await;
    let body = modern_body(
        7,
        "tools/call",
        json!({"name":"add","arguments":{"a":40,"b":2}}),
    )
    .to_string();
    let thirds = body.len() / 3;
    let parts = [
        body[..thirds].to_owned(),
        body[thirds..2 * thirds].to_owned(),
        body[2 * thirds..].to_owned(),
    ];
    // Each part its own chunk on the wire, apart in time, so that the server reads three.
    let chunks = futures_util::stream::iter(parts).then(|part| async move {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        Ok::<_, std::io::Error>(part)
    });
    let headers = [
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/call"),
        ("mcp-name", "add"),
    ];
    let response = server
        .post_raw(reqwest::Body::wrap_stream(chunks), &headers)
        .await;
    assert_eq!(response.status(), 200);
    let answer = json_of(response).await;
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["result"], 42,
        "{answer}"
    );
}

/// What a plain blocking client (Python's `http.client`, curl without `Expect`) sees when it
/// writes a whole oversized body before reading the answer.
struct Blocking {
    /// Whether every byte of the body was written.
    sent: std::io::Result<()>,
    /// The response: status line and headers, then the body.
    response: std::io::Result<(String, String)>,
}

fn post_blocking(addr: &str, body_len: usize) -> Blocking {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {body_len}\r\n\r\n"
    );
    let sending = std::thread::spawn(move || -> std::io::Result<()> {
        writer.write_all(head.as_bytes())?;
        let chunk = vec![b' '; 64 * 1024];
        let mut left = body_len;
        while left > 0 {
            let n = left.min(chunk.len());
            writer.write_all(&chunk[..n])?;
            left -= n;
        }
        writer.flush()
    });
    let response = (|| {
        let mut received = Vec::new();
        let mut buffer = [0u8; 4096];
        let head_end = loop {
            if let Some(end) = received.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let n = stream.read(&mut buffer)?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            received.extend_from_slice(&buffer[..n]);
        };
        let head = String::from_utf8_lossy(&received[..head_end]).into_owned();
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .unwrap_or(0);
        while received.len() < head_end + length {
            let n = stream.read(&mut buffer)?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            received.extend_from_slice(&buffer[..n]);
        }
        let body = String::from_utf8_lossy(&received[head_end..head_end + length]).into_owned();
        Ok((head, body))
    })();
    Blocking {
        sent: sending.join().unwrap(),
        response,
    }
}

#[tokio::test]
async fn a_blocking_client_writing_a_12_mib_body_reads_the_413() {
    let server = start(server()).await;
    let addr = server.url["http://".len()..]
        .trim_end_matches("/mcp")
        .to_owned();
    let outcome = tokio::task::spawn_blocking(move || post_blocking(&addr, 12 * 1024 * 1024))
        .await
        .unwrap();
    assert!(
        outcome.sent.is_ok(),
        "the client wrote its whole body: {:?}",
        outcome.sent
    );
    let (head, body) = outcome.response.expect("the client read the answer");
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&body).unwrap(),
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: body longer than 4194304 bytes"}})
    );
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
    // Each bad body, its error, and the id it is answered under: the request's own id when it
    // could be read, `null` when not.
    let cases: [(&[u8], serde_json::Value, serde_json::Value); 6] = [
        (
            b"{nope",
            json!({"code":-32700,"message":"Parse error: the message is not valid JSON"}),
            serde_json::Value::Null,
        ),
        (
            b"",
            json!({"code":-32700,"message":"Parse error: the message is not valid JSON"}),
            serde_json::Value::Null,
        ),
        (
            b"\xff\xfe",
            json!({"code":-32700,"message":"Parse error: the body is not UTF-8"}),
            serde_json::Value::Null,
        ),
        (
            b"[]",
            json!({"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}),
            serde_json::Value::Null,
        ),
        (
            br#"{"id":1,"method":"ping"}"#,
            json!({"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}),
            json!(1),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":7}"#,
            json!({"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}),
            json!(1),
        ),
    ];
    for (body, error, id) in cases {
        let response = server.post_raw(body.to_vec(), &[]).await;
        assert_eq!(response.status(), 400, "{body:?}");
        assert_eq!(content_type(&response), "application/json");
        let answer = json_of(response).await;
        assert_eq!(answer["error"], error, "{body:?}");
        assert_eq!(answer["id"], id, "{body:?}");
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
