//! `mcp-proxy-floor`: the floor of `scripts/gateway-cost` (docs/benchmarks.md, "The gateway").
//! A bare hyper HTTP/1.1 reverse proxy that hands every request's bytes to one backend and the
//! backend's answer back, and does nothing else a gateway does: it does not parse a message, so
//! it routes nothing, renames nothing, checks no token and keeps no session of its own (the
//! backend's `Mcp-Session-Id` passes through both ways, as every other header). What is left is
//! what any gateway in front of a server across a socket must do for a call: read the request,
//! write it to the backend, read the backend's answer, write it back. Its cost per call, over the
//! backend's own, is the least any HTTP gateway can add.
//!
//!     mcp-proxy-floor --http 127.0.0.1:PORT --backend http://127.0.0.1:PORT/mcp
//!
//! Every request is forwarded to the backend's URL (whatever its own path) with its method, its
//! headers (but `Host`, set to the backend's, and the hop-by-hop ones) and its body read whole;
//! the answer comes back the same way. Keep-alive connections to the backend are kept in a
//! plain list and reused, one request at a time each; a connection that fails is dropped and the
//! request answered `502`. The runtime is the bookshop's (`#[tokio::main]`,
//! `TOKIO_WORKER_THREADS` honoured), `TCP_NODELAY` on every socket. Stops on SIGINT.
//!
//! Build: `cargo build --release --bin mcp-proxy-floor`. Not a proxy to deploy (no timeouts, no
//! bound on connections): a benchmark's baseline.

#[path = "../bare_listener.rs"]
mod bare_listener;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use tokio::net::TcpStream;

/// The backend, and the idle connections to it.
struct Backend {
    /// `host:port`, to connect to and for the `Host` header.
    authority: String,
    host: HeaderValue,
    /// The request target sent: the URL's path and query (origin form).
    path: Uri,
    idle: Mutex<Vec<SendRequest<Full<Bytes>>>>,
}

/// Headers that belong to one hop, not passed on (RFC 9110, 7.6.1).
const HOP_BY_HOP: [header::HeaderName; 5] = [
    header::CONNECTION,
    header::HOST,
    header::TRANSFER_ENCODING,
    header::TE,
    header::UPGRADE,
];

fn without_hop_by_hop(headers: &mut HeaderMap) {
    for name in &HOP_BY_HOP {
        headers.remove(name);
    }
}

fn bad_gateway() -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::BAD_GATEWAY;
    response
}

impl Backend {
    fn parse(url: &str) -> Option<Self> {
        let uri: Uri = url.parse().ok()?;
        if uri.scheme_str() != Some("http") {
            return None;
        }
        let authority = uri.authority()?.as_str().to_owned();
        let path = uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .parse()
            .ok()?;
        Some(Self {
            host: HeaderValue::from_str(&authority).ok()?,
            authority,
            path,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// An idle connection, or a new one.
    async fn connection(&self) -> Option<SendRequest<Full<Bytes>>> {
        loop {
            let idle = self.idle.lock().ok()?.pop();
            let Some(mut sender) = idle else { break };
            if sender.ready().await.is_ok() {
                return Some(sender);
            }
        }
        let tcp = TcpStream::connect(&self.authority).await.ok()?;
        let _ = tcp.set_nodelay(true);
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .ok()?;
        tokio::spawn(connection);
        Some(sender)
    }

    async fn forward(&self, request: Request<Incoming>) -> Response<Full<Bytes>> {
        let (mut parts, body) = request.into_parts();
        let Ok(body) = body.collect().await else {
            return bad_gateway();
        };
        without_hop_by_hop(&mut parts.headers);
        parts.headers.insert(header::HOST, self.host.clone());
        parts.uri = self.path.clone();
        let outgoing = Request::from_parts(parts, Full::new(body.to_bytes()));
        let Some(mut sender) = self.connection().await else {
            return bad_gateway();
        };
        let Ok(answer) = sender.send_request(outgoing).await else {
            return bad_gateway();
        };
        let (mut parts, body) = answer.into_parts();
        let Ok(body) = body.collect().await else {
            return bad_gateway();
        };
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(sender);
        }
        without_hop_by_hop(&mut parts.headers);
        Response::from_parts(parts, Full::new(body.to_bytes()))
    }
}

/// Serves one front connection, each request forwarded to `backend`.
async fn serve_front<I>(io: I, backend: Arc<Backend>)
where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = service_fn(move |request| {
        let backend = Arc::clone(&backend);
        async move { Ok::<_, Infallible>(backend.forward(request).await) }
    });
    let _ = http1::Builder::new()
        .serve_connection(TokioIo::new(io), service)
        .await;
}

fn arguments() -> Result<(SocketAddr, Backend), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        || "usage: mcp-proxy-floor --http IP:PORT --backend http://HOST:PORT/PATH".to_owned();
    let (mut addr, mut backend) = (None, None);
    let mut pairs = args.chunks(2);
    for pair in &mut pairs {
        match pair {
            [flag, value] if flag == "--http" => {
                addr = Some(
                    value
                        .parse()
                        .map_err(|_| format!("{value:?} is not IP:PORT"))?,
                );
            }
            [flag, value] if flag == "--backend" => {
                backend = Some(
                    Backend::parse(value)
                        .ok_or_else(|| format!("{value:?} is not an http:// URL"))?,
                );
            }
            _ => return Err(usage()),
        }
    }
    Ok((addr.ok_or_else(usage)?, backend.ok_or_else(usage)?))
}

#[tokio::main]
async fn main() -> ExitCode {
    let (addr, backend) = match arguments() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("mcp-proxy-floor: {message}");
            return ExitCode::from(2);
        }
    };
    let backend = Arc::new(backend);
    bare_listener::serve_until_interrupted("mcp-proxy-floor", addr, |tcp| {
        serve_front(tcp, Arc::clone(&backend))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    #[test]
    fn takes_an_http_backend_only() {
        let backend = Backend::parse("http://127.0.0.1:8080/mcp").unwrap();
        assert_eq!(backend.authority, "127.0.0.1:8080");
        assert_eq!(backend.host, "127.0.0.1:8080");
        assert_eq!(backend.path, "/mcp");
        assert!(backend.path.scheme().is_none());
        assert!(Backend::parse("https://127.0.0.1:8080/mcp").is_none());
        assert!(Backend::parse("127.0.0.1:8080").is_none());
    }

    #[test]
    fn drops_the_headers_of_one_hop_and_keeps_the_rest() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("front:1"));
        headers.insert(header::CONNECTION, HeaderValue::from_static("keep-alive"));
        headers.insert("mcp-session-id", HeaderValue::from_static("abc"));
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        without_hop_by_hop(&mut headers);
        assert!(!headers.contains_key(header::HOST));
        assert!(!headers.contains_key(header::CONNECTION));
        assert_eq!(headers["mcp-session-id"], "abc");
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    }

    /// A call through the proxy floor reaches the floor server behind it and comes back whole.
    #[tokio::test]
    async fn passes_a_call_and_its_answer_through() {
        let backend_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let backend_addr = backend_listener.local_addr().unwrap();
        tokio::spawn(async move {
            loop {
                let (tcp, _) = backend_listener.accept().await.unwrap();
                tokio::spawn(async move {
                    let service = service_fn(|request: Request<Incoming>| async move {
                        let session = request.headers().get("mcp-session-id").cloned();
                        let host = request.headers().get(header::HOST).cloned();
                        let target = HeaderValue::from_str(&request.uri().to_string()).unwrap();
                        let body = request.into_body().collect().await.unwrap().to_bytes();
                        let mut answer = Response::new(Full::new(body));
                        if let Some(session) = session {
                            answer.headers_mut().insert("mcp-session-id", session);
                        }
                        if let Some(host) = host {
                            answer.headers_mut().insert("x-seen-host", host);
                        }
                        answer.headers_mut().insert("x-seen-target", target);
                        Ok::<_, Infallible>(answer)
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(tcp), service)
                        .await;
                });
            }
        });
        let backend = Arc::new(Backend::parse(&format!("http://{backend_addr}/mcp")).unwrap());
        for round in 0..3 {
            let (mut front, front_server) = tokio::io::duplex(64 * 1024);
            tokio::spawn(serve_front(front_server, Arc::clone(&backend)));
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let body = format!(r#"{{"round":{round}}}"#);
            let request = format!(
                "POST /anything HTTP/1.1\r\nhost: front\r\nmcp-session-id: s{round}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            front.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            front.read_to_string(&mut answer).await.unwrap();
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            assert!(
                answer.contains(&format!("mcp-session-id: s{round}")),
                "{answer}"
            );
            assert!(
                answer.contains(&format!("x-seen-host: {backend_addr}")),
                "{answer}"
            );
            assert!(answer.contains("x-seen-target: /mcp\r\n"), "{answer}");
            assert!(answer.ends_with(&body), "{answer}");
        }
        // One connection to the backend served all three calls.
        assert_eq!(backend.idle.lock().unwrap().len(), 1);
    }
}
