//! The server's front and its router answer every request alike.
//!
//! `HttpServer::serve` takes a POST to the MCP path straight to the endpoint (the front), where
//! `into_router` serves every request through axum's router. Both run the same gate, `Host`
//! check and handler, but the front decides from the request line which requests it takes. Two
//! protected servers with the same settings, one served each way, get the same raw HTTP/1.1
//! requests of every shape: method, request target (absolute form, doubled slashes, a trailing
//! slash, case, an encoded letter, a query), `Host` and `Origin`, token (none, valid, forged,
//! missing a scope, another scheme) and body. Each pair of answers must be byte for byte the
//! same, but for the `date` header.

use super::{ISSUER, Key, claims, write_jwks};
use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
use mcpwire::prelude::*;
use proptest::prelude::*;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The resource both servers protect: one audience, one metadata URL, so that their challenges
/// read the same.
const RESOURCE: &str = "http://localhost/mcp";

/// Who is calling.
#[tool]
async fn caller(ctx: Context) -> String {
    ctx.principal()
        .map_or("nobody", |who| who.subject())
        .to_owned()
}

/// The two servers, on one runtime for every case.
struct World {
    runtime: tokio::runtime::Runtime,
    /// Served by `serve_listener` (the front).
    front: SocketAddr,
    /// Served by `into_router` and `axum::serve`.
    router: SocketAddr,
    /// Tokens: valid with the scope every request needs, valid without it, forged.
    valid: String,
    unscoped: String,
    forged: String,
    _jwks: PathBuf,
}

fn protected(jwks: &Path) -> mcpwire::transport::HttpServer {
    let resource = ProtectedResource::new(RESOURCE, ISSUER).scopes_supported(["mcp:tools"]);
    let verifier = JwtVerifier::new(
        ISSUER,
        resource.resource(),
        JwksSource::File(jwks.to_path_buf()),
    );
    let authorization = Authorization::new(verifier, resource).required_scopes(["mcp:tools"]);
    McpServer::new("front")
        .tool(caller)
        .unwrap()
        .http()
        .authorization(authorization)
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let key = Key::new("front");
        let jwks = std::env::temp_dir().join(format!(
            "mcpwire-front-{}-{}.json",
            std::process::id(),
            super::rand_suffix()
        ));
        write_jwks(&jwks, &[&key]);
        let (front, router) = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let front = listener.local_addr().unwrap();
            tokio::spawn(protected(&jwks).serve_listener(listener, std::future::pending()));
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let router = listener.local_addr().unwrap();
            let app = protected(&jwks).into_router().await.unwrap();
            let app = app.into_make_service_with_connect_info::<SocketAddr>();
            tokio::spawn(async move { axum::serve(listener, app).await });
            (front, router)
        });
        let forger = Key::new("front");
        World {
            runtime,
            front,
            router,
            valid: key.sign(&claims(RESOURCE, "alice", "mcp:tools")),
            unscoped: key.sign(&claims(RESOURCE, "bob", "other")),
            forged: forger.sign(&claims(RESOURCE, "mallory", "mcp:tools")),
            _jwks: jwks,
        }
    })
}

#[derive(Clone, Debug)]
enum Target {
    Path(&'static str),
    /// `http://{the server's own authority}{path}`.
    Absolute(&'static str),
}

#[derive(Clone, Debug)]
enum Host {
    Own,
    Named(&'static str),
    Absent,
}

#[derive(Clone, Debug)]
enum Token {
    None,
    Valid,
    Unscoped,
    Forged,
    Basic,
}

#[derive(Clone, Debug)]
struct Shape {
    method: &'static str,
    target: Target,
    host: Host,
    origin: Option<&'static str>,
    token: Token,
    body: &'static str,
    modern_headers: bool,
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const CALL: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"caller","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

fn shapes() -> impl Strategy<Value = Shape> {
    let method = prop::sample::select(vec![
        "POST", "GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD", "post",
    ]);
    let target = prop_oneof![
        prop::sample::select(vec![
            "/mcp",
            "/mcp/",
            "/MCP",
            "//mcp",
            "/mcp?x=1",
            "/%6Dcp",
            "/mcp/../mcp",
            "/other",
            "/.well-known/oauth-protected-resource/mcp",
        ])
        .prop_map(Target::Path),
        prop::sample::select(vec!["/mcp", "/mcp?x=1", "/other"]).prop_map(Target::Absolute),
    ];
    let host = prop_oneof![
        Just(Host::Own),
        Just(Host::Absent),
        prop::sample::select(vec!["evil.example", "localhost:1", "[::1]"]).prop_map(Host::Named),
    ];
    let origin = prop::option::of(prop::sample::select(vec![
        "http://evil.example",
        "http://localhost:3000",
        "null",
    ]));
    let token = prop::sample::select(vec![
        Token::None,
        Token::Valid,
        Token::Unscoped,
        Token::Forged,
        Token::Basic,
    ]);
    let body = prop::sample::select(vec![LIST, CALL, "{", "", "[]"]);
    (method, target, host, origin, token, body, any::<bool>()).prop_map(
        |(method, target, host, origin, token, body, modern_headers)| Shape {
            method,
            target,
            host,
            origin,
            token,
            body,
            modern_headers,
        },
    )
}

/// The raw request of `shape` to the server at `addr`.
fn request(shape: &Shape, addr: SocketAddr, world: &World) -> String {
    let target = match shape.target {
        Target::Path(path) => path.to_owned(),
        Target::Absolute(path) => format!("http://{addr}{path}"),
    };
    let mut head = format!("{} {target} HTTP/1.1\r\n", shape.method);
    match shape.host {
        Host::Own => head.push_str(&format!("host: {addr}\r\n")),
        Host::Named(host) => head.push_str(&format!("host: {host}\r\n")),
        Host::Absent => {}
    }
    if let Some(origin) = shape.origin {
        head.push_str(&format!("origin: {origin}\r\n"));
    }
    let token = match shape.token {
        Token::None => None,
        Token::Valid => Some(format!("Bearer {}", world.valid)),
        Token::Unscoped => Some(format!("Bearer {}", world.unscoped)),
        Token::Forged => Some(format!("Bearer {}", world.forged)),
        Token::Basic => Some("Basic YWxpY2U6c2VjcmV0".to_owned()),
    };
    if let Some(token) = token {
        head.push_str(&format!("authorization: {token}\r\n"));
    }
    if shape.modern_headers {
        let method = if shape.body == CALL {
            "tools/call"
        } else {
            "tools/list"
        };
        head.push_str(&format!(
            "mcp-protocol-version: 2026-07-28\r\nmcp-method: {method}\r\n"
        ));
        if shape.body == CALL {
            head.push_str("mcp-name: caller\r\n");
        }
    }
    head.push_str("content-type: application/json\r\n");
    head.push_str("accept: application/json, text/event-stream\r\n");
    head.push_str("connection: close\r\n");
    head.push_str(&format!("content-length: {}\r\n\r\n", shape.body.len()));
    head + shape.body
}

/// The whole answer to `raw` (the connection closes after it): its status line, its headers
/// but `date` (lowercase, sorted) and its body.
async fn exchange(addr: SocketAddr, raw: &str) -> String {
    let answer = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(raw.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer).await;
        answer
    };
    let answer = tokio::time::timeout(Duration::from_secs(10), answer)
        .await
        .expect("an answer within 10 s");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap_or_default();
    // Header order means nothing in HTTP (the router's `content-length` comes before the
    // `connection` hyper adds, the front's after it): compared sorted.
    let mut headers: Vec<String> = lines
        .map(str::to_ascii_lowercase)
        .filter(|line| !line.starts_with("date:"))
        .collect();
    headers.sort();
    format!("{status}\r\n{}\r\n\r\n{body}", headers.join("\r\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_front_answers_every_request_as_the_router_does(shape in shapes()) {
        let world = world();
        let (front, router) = world.runtime.block_on(async {
            let front = exchange(world.front, &request(&shape, world.front, world)).await;
            let router = exchange(world.router, &request(&shape, world.router, world)).await;
            (front, router)
        });
        prop_assert!(front.starts_with("HTTP/1.1 "), "{:?}: {}", shape, front);
        prop_assert_eq!(&front, &router, "{:?}", shape);
    }
}

/// The cases above reach every outcome that matters: the tool ran for the valid token, and
/// each refusal (`401`, `403` for a scope and for a host, `404`, `405`) was seen.
#[test]
fn the_shapes_reach_the_tool_and_every_refusal() {
    let world = world();
    let answer = |shape: Shape| {
        world
            .runtime
            .block_on(exchange(world.front, &request(&shape, world.front, world)))
    };
    let call = Shape {
        method: "POST",
        target: Target::Path("/mcp"),
        host: Host::Own,
        origin: None,
        token: Token::Valid,
        body: CALL,
        modern_headers: true,
    };
    let ran = answer(call.clone());
    assert!(ran.starts_with("HTTP/1.1 200"), "{ran}");
    assert!(ran.contains("alice"), "{ran}");
    let status = |shape: Shape| answer(shape)[9..12].to_owned();
    let forged = Shape {
        token: Token::Forged,
        ..call.clone()
    };
    assert_eq!(status(forged), "401");
    let unscoped = Shape {
        token: Token::Unscoped,
        ..call.clone()
    };
    assert_eq!(status(unscoped), "403");
    let evil = Shape {
        host: Host::Named("evil.example"),
        ..call.clone()
    };
    assert_eq!(status(evil), "403");
    let elsewhere = Shape {
        target: Target::Path("/other"),
        ..call.clone()
    };
    assert_eq!(status(elsewhere), "404");
    let put = Shape {
        method: "PUT",
        ..call.clone()
    };
    assert_eq!(status(put), "405");
    let absolute = Shape {
        target: Target::Absolute("/mcp"),
        ..call
    };
    assert_eq!(status(absolute), "200");
}
