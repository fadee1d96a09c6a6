//! `mcp-floor`: the floor of `scripts/layer-cost` (docs/benchmarks.md, "The floor"). A bare
//! hyper HTTP/1.1 server that answers `mcp-load`'s requests for the `add` tool with the same
//! bytes the `bookshop` answers, and does nothing else an MCP server does: no router, no
//! Host/Origin check, no sessions kept, no schema, no middleware. What is left is what any
//! server answering the same request over the same connection must do: accept it, read the
//! request, parse the JSON-RPC message, add two numbers and write the answer. The ratio of our
//! server's cost per call to this one's is what the MCP machinery costs.
//!
//!     mcp-floor --http 127.0.0.1:PORT
//!
//! Serves `POST /mcp` (any path): `initialize` (with an `Mcp-Session-Id`), notifications (202),
//! and `tools/call` of `add`, answered in the 2026-07-28 form when the request says
//! `MCP-Protocol-Version: 2026-07-28` and in the 2025-11-25 form otherwise; anything else gets a
//! JSON-RPC error. The runtime is the bookshop's (`#[tokio::main]`, `TOKIO_WORKER_THREADS`
//! honoured), and every accepted socket gets `TCP_NODELAY`, as ours. Stops on SIGINT.
//!
//! With `MCP_FLOOR_CHECKED=1` it is the checked floor (`checked.rs`): the same, plus the checks
//! the protocol asks of a server before it answers (`Host`/`Origin`; on 2026-07-28 the mirrored
//! headers and the revision and capabilities in `_meta`; on 2025-11-25 the session looked up).
//!
//! Build: `cargo build --release --bin mcp-floor`. Not a server to deploy: a benchmark's baseline.

#[path = "../bare_listener.rs"]
mod bare_listener;
mod checked;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

/// The parts of a request the floor reads, borrowed from the body.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow)]
    name: Option<&'a str>,
    arguments: Option<Arguments>,
}

#[derive(Deserialize)]
struct Arguments {
    a: i64,
    b: i64,
}

/// The bookshop's `initialize` result for 2025-11-25 clients, byte for byte.
const INITIALIZE_RESULT: &str = r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{"subscribe":true},"logging":{},"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true},"io.modelcontextprotocol/ui":{}}},"serverInfo":{"name":"Bookshop","version":"0.1.0"},"instructions":"A bookshop: reserve and order books, look up stock."}"#;

/// The 2026-07-28 answer's fields after `structuredContent`, as the bookshop writes them.
const MODERN_TAIL: &str = r#","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"0.1.0"}}"#;

static SESSIONS: AtomicU64 = AtomicU64::new(1);

fn json(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn error(id: &str, code: i32, message: &str) -> Response<Full<Bytes>> {
    json(
        StatusCode::OK,
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"{message}"}}}}"#),
    )
}

/// The answer to one POSTed JSON-RPC message.
fn answer(body: &[u8], modern: bool) -> Response<Full<Bytes>> {
    let Ok(message) = serde_json::from_slice::<Message>(body) else {
        return error("null", -32700, "parse error");
    };
    let Some(id) = message.id.map(RawValue::get) else {
        let mut accepted = Response::new(Full::new(Bytes::new()));
        *accepted.status_mut() = StatusCode::ACCEPTED;
        return accepted;
    };
    match (message.method, message.params) {
        ("initialize", _) => {
            let mut response = json(
                StatusCode::OK,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{INITIALIZE_RESULT}}}"#),
            );
            let session = format!("{:032x}", SESSIONS.fetch_add(1, Ordering::Relaxed));
            if let Ok(value) = HeaderValue::from_str(&session) {
                response.headers_mut().insert("mcp-session-id", value);
            }
            response
        }
        (
            "tools/call",
            Some(Params {
                name: Some("add"),
                arguments: Some(Arguments { a, b }),
            }),
        ) => added(id, a, b, modern),
        _ => error(id, -32601, "the floor answers initialize and add only"),
    }
}

/// The answer to `add` of `a` and `b` under `id`, in the 2026-07-28 form when `modern`, as the
/// bookshop writes it. Inlined, as it was written in place before the checked floor shared it.
#[inline(always)]
fn added(id: &str, a: i64, b: i64, modern: bool) -> Response<Full<Bytes>> {
    let sum = a.wrapping_add(b);
    let tail = if modern { MODERN_TAIL } else { "" };
    json(
        StatusCode::OK,
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{sum}"}}],"structuredContent":{{"result":{sum}}}{tail}}}}}"#
        ),
    )
}

async fn serve(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let modern = request
        .headers()
        .get("mcp-protocol-version")
        .is_some_and(|v| v.as_bytes() == b"2026-07-28");
    let body = match request.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => return Ok(error("null", -32700, "unreadable body")),
    };
    Ok(answer(&body, modern))
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let addr: SocketAddr = match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => match addr.parse() {
            Ok(addr) => addr,
            Err(_) => {
                eprintln!("mcp-floor: {addr:?} is not IP:PORT");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("usage: mcp-floor --http IP:PORT");
            return ExitCode::from(2);
        }
    };
    if std::env::var_os("MCP_FLOOR_CHECKED").is_some_and(|v| v == "1") {
        return bare_listener::serve_until_interrupted("mcp-floor", addr, |tcp| async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(tcp), service_fn(checked::serve))
                .await;
        })
        .await;
    }
    bare_listener::serve_until_interrupted("mcp-floor", addr, |tcp| async move {
        let _ = http1::Builder::new()
            .serve_connection(TokioIo::new(tcp), service_fn(serve))
            .await;
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn text(response: Response<Full<Bytes>>) -> String {
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn answers_add_as_the_bookshop_does_on_both_revisions() {
        let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#;
        assert_eq!(
            text(answer(call, true)).await,
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"0.1.0"}}}}"#
        );
        assert_eq!(
            text(answer(call, false)).await,
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5}}}"#
        );
    }

    #[tokio::test]
    async fn opens_sessions_accepts_notifications_and_refuses_the_rest() {
        let init = answer(
            br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
            false,
        );
        assert!(init.headers().contains_key("mcp-session-id"));
        assert!(
            text(init)
                .await
                .contains(r#""protocolVersion":"2025-11-25""#)
        );
        let note = answer(
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            false,
        );
        assert_eq!(note.status(), StatusCode::ACCEPTED);
        let other = answer(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, true);
        assert!(text(other).await.contains("-32601"));
        assert!(text(answer(b"{", true)).await.contains("-32700"));
    }
}
