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

/// How many times [`record`] ran: a request refused for its `Host` or `Origin` must never run
/// it.
static RECORDED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Records that it ran.
#[tool]
async fn record() -> i64 {
    RECORDED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    1
}

/// A body of one of the shapes a POST can carry, each answered its own way when the hosts are
/// allowed: a call on either revision, a session's first request, a notification, a client's
/// response, and the bodies refused before they are read as a message.
#[derive(Clone, Copy, Debug)]
enum Shape {
    ModernCall,
    SessionCall,
    UnknownSessionCall,
    Initialize,
    Notification,
    Response,
    Garbage,
    NotUtf8,
    Oversized,
    Batch,
    Empty,
}

/// The value a case sets its `Host` or `Origin` header to (`Unset`: the client's own `Host`,
/// the server's address; no `Origin`).
#[derive(Clone, Copy, Debug)]
enum Named {
    Unset,
    Allowed,
    AllowedUppercase,
    Foreign,
    LookalikeSuffix,
    NullOrigin,
}

impl Shape {
    const ALL: [Shape; 11] = [
        Shape::ModernCall,
        Shape::SessionCall,
        Shape::UnknownSessionCall,
        Shape::Initialize,
        Shape::Notification,
        Shape::Response,
        Shape::Garbage,
        Shape::NotUtf8,
        Shape::Oversized,
        Shape::Batch,
        Shape::Empty,
    ];
}

impl Named {
    const ALL: [Named; 6] = [
        Named::Unset,
        Named::Allowed,
        Named::AllowedUppercase,
        Named::Foreign,
        Named::LookalikeSuffix,
        Named::NullOrigin,
    ];

    fn host(self, port: &str) -> Option<String> {
        match self {
            Named::Unset => None,
            Named::Allowed => Some(format!("127.0.0.1:{port}")),
            Named::AllowedUppercase => Some(format!("LOCALHOST:{port}")),
            Named::Foreign => Some("attacker.example".to_owned()),
            Named::LookalikeSuffix => Some("localhost.attacker.example".to_owned()),
            Named::NullOrigin => Some("null".to_owned()),
        }
    }

    fn origin(self) -> Option<String> {
        match self {
            Named::Unset => None,
            Named::Allowed => Some("http://localhost:6274".to_owned()),
            Named::AllowedUppercase => Some("http://LOCALHOST".to_owned()),
            Named::Foreign => Some("https://attacker.example".to_owned()),
            Named::LookalikeSuffix => Some("http://localhost.attacker.example".to_owned()),
            Named::NullOrigin => Some("null".to_owned()),
        }
    }

    fn allowed(self) -> bool {
        matches!(
            self,
            Named::Unset | Named::Allowed | Named::AllowedUppercase
        )
    }
}

/// The servers every case goes to, in front of the same kind of server: `HttpServer::serve`
/// (its front takes a POST straight to the endpoint) and `into_router` served by axum; each
/// with an open session.
struct Hosts {
    runtime: tokio::runtime::Runtime,
    servers: Vec<(Running, String)>,
}

fn hosts() -> &'static Hosts {
    static HOSTS: std::sync::OnceLock<Hosts> = std::sync::OnceLock::new();
    HOSTS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let servers = runtime.block_on(async {
            let made = || {
                McpServer::new("hosts")
                    .tool(record)
                    .unwrap()
                    .http()
                    .max_body_bytes(1024)
            };
            let front = start_http(made()).await;
            let router = start_router(made().into_router().await.unwrap()).await;
            let mut servers = Vec::new();
            for server in [front, router] {
                let session = server.initialize().await;
                servers.push((server, session));
            }
            servers
        });
        Hosts { runtime, servers }
    })
}

/// Sends `shape` with `host` and `origin` to `server`: the status and the JSON-RPC error's
/// message, if any.
async fn send_shaped(
    (server, session): &(Running, String),
    shape: Shape,
    host: Named,
    origin: Named,
) -> (u16, Option<String>) {
    let call = json!({"name": "record", "arguments": {}});
    let port = server
        .url
        .split(':')
        .nth(2)
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let mut headers: Vec<(String, String)> = Vec::new();
    let body: Vec<u8> = match shape {
        Shape::ModernCall => {
            let body = modern_body(1, "tools/call", call);
            for (name, value) in &modern_headers(&body) {
                headers.push((name.to_string(), value.to_str().unwrap().to_owned()));
            }
            body.to_string().into_bytes()
        }
        Shape::SessionCall | Shape::UnknownSessionCall => {
            let id = match shape {
                Shape::SessionCall => session.clone(),
                _ => "no-such-session".to_owned(),
            };
            headers.push(("mcp-session-id".to_owned(), id));
            headers.push(("mcp-protocol-version".to_owned(), LEGACY.to_owned()));
            legacy_call(1, "record", json!({})).to_string().into_bytes()
        }
        Shape::Initialize => initialize_body().to_string().into_bytes(),
        Shape::Notification => {
            headers.push(("mcp-session-id".to_owned(), session.clone()));
            headers.push(("mcp-protocol-version".to_owned(), LEGACY.to_owned()));
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#
                .to_vec()
        }
        Shape::Response => br#"{"jsonrpc":"2.0","id":"s-1","result":{}}"#.to_vec(),
        Shape::Garbage => b"{nope".to_vec(),
        Shape::NotUtf8 => b"\xff\xfe".to_vec(),
        Shape::Oversized => modern_body(1, "tools/call", json!({"pad": "x".repeat(2048)}))
            .to_string()
            .into_bytes(),
        Shape::Batch => format!("[{}]", legacy_call(1, "record", json!({}))).into_bytes(),
        Shape::Empty => Vec::new(),
    };
    if let Some(value) = host.host(port) {
        headers.push(("host".to_owned(), value));
    }
    if let Some(value) = origin.origin() {
        headers.push(("origin".to_owned(), value));
    }
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let (status, answer) = status_and_message(server.post_raw(body, &headers).await).await;
    let message = answer["error"]["message"].as_str().map(str::to_owned);
    (status, message)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 256, failure_persistence: None, ..proptest::prelude::ProptestConfig::default()
    })]

    /// Whatever the body, a foreign `Host` or `Origin` is refused with `403` before anything
    /// the body asks for runs (`Host` named when both are foreign), on the front and on the
    /// router alike; allowed ones are never refused so.
    #[test]
    fn a_foreign_host_or_origin_is_refused_whatever_the_body(
        shape in proptest::sample::select(&Shape::ALL[..]),
        host in proptest::sample::select(&Named::ALL[..]),
        origin in proptest::sample::select(&Named::ALL[..]),
        through_router in proptest::bool::ANY,
    ) {
        let world = hosts();
        let server = &world.servers[usize::from(through_router)];
        let before = RECORDED.load(std::sync::atomic::Ordering::SeqCst);
        let (status, message) = world.runtime.block_on(send_shaped(server, shape, host, origin));
        let ran = RECORDED.load(std::sync::atomic::Ordering::SeqCst) - before;
        let refused = if !host.allowed() {
            Some("Forbidden: Host not allowed")
        } else if !origin.allowed() {
            Some("Forbidden: Origin not allowed")
        } else {
            None
        };
        match refused {
            Some(why) => {
                proptest::prop_assert_eq!(status, 403, "{:?}", (shape, host, origin));
                proptest::prop_assert_eq!(message.as_deref(), Some(why));
                proptest::prop_assert_eq!(ran, 0, "a refused request ran the tool");
            }
            None => {
                proptest::prop_assert_ne!(status, 403, "{:?}: {:?}", (shape, host, origin), message);
                let runs = matches!(shape, Shape::ModernCall | Shape::SessionCall);
                proptest::prop_assert_eq!(ran, usize::from(runs), "{:?}: {:?}", (shape, host, origin), message);
            }
        }
    }
}
