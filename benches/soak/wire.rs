//! Raw Streamable HTTP with hyper: loopback connections, the headers of both revisions, and the
//! answers (a JSON body, or an SSE stream read event by event, so a stream can be dropped in the
//! middle).

use crate::tally::Failure;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{self, HeaderName, HeaderValue};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

/// How long any one answer (or event) may take before the request counts as lost. Far above
/// the server's own timeouts, so only a real loss hits it.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a stream may go on after its answer.
pub const FINISH_TIMEOUT: Duration = Duration::from_secs(2);
pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// Where the server is: a loopback socket address and the endpoint's path.
pub struct Target {
    addr: SocketAddr,
    host: HeaderValue,
    uri: hyper::Uri,
}

impl Target {
    /// Parses `http://IP:PORT/PATH`; anything but a loopback address is refused.
    pub fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or("the URL must start with http://")?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let addr: SocketAddr = authority
            .replace("localhost", "127.0.0.1")
            .parse()
            .map_err(|_| format!("{authority:?} is not IP:PORT"))?;
        let loopback = match addr.ip() {
            IpAddr::V4(ip) => ip.is_loopback(),
            IpAddr::V6(ip) => ip.is_loopback(),
        };
        if !loopback {
            return Err(format!("{addr} is not a loopback address; refusing"));
        }
        Ok(Self {
            addr,
            host: HeaderValue::from_str(authority).map_err(|_| "bad host")?,
            uri: (if path.is_empty() { "/" } else { path })
                .parse()
                .map_err(|_| "bad path")?,
        })
    }
}

/// How a message announces itself.
pub enum Headers<'a> {
    /// `initialize`: no session yet, no revision header.
    None,
    /// A 2026-07-28 request: `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`.
    Modern { method: &'static str, name: &'a str },
    /// A message of a 2025-11-25 session.
    Session(&'a HeaderValue),
}

/// One keep-alive HTTP/1.1 connection. Dropping it closes the socket at once (its driver task
/// is aborted): that is how a client vanishes.
pub struct Conn {
    sender: SendRequest<Full<Bytes>>,
    driver: JoinHandle<()>,
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.driver.abort();
    }
}

impl Conn {
    pub async fn open(target: &Target) -> Result<Self, String> {
        let stream = TcpStream::connect(target.addr)
            .await
            .map_err(|e| format!("connect {}: {e}", target.addr))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("handshake: {e}"))?;
        let driver = tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(Self { sender, driver })
    }

    /// Whether the server closed the connection (it cannot carry another request).
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed() || self.driver.is_finished()
    }

    /// Sends one request and waits for the response head. A failure here means the request got
    /// no answer: [`Failure::Lost`].
    pub async fn send(
        &mut self,
        target: &Target,
        method: hyper::Method,
        headers: Headers<'_>,
        extra: &[(&'static str, &str)],
        body: String,
    ) -> Result<hyper::Response<Incoming>, Failure> {
        let mut request = hyper::Request::new(Full::new(Bytes::from(body)));
        *request.method_mut() = method;
        *request.uri_mut() = target.uri.clone();
        let map = request.headers_mut();
        map.insert(header::HOST, target.host.clone());
        map.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        map.insert(
            header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        let version = HeaderName::from_static("mcp-protocol-version");
        match headers {
            Headers::None => {}
            Headers::Modern { method, name } => {
                map.insert(version, HeaderValue::from_static(MODERN));
                map.insert("mcp-method", HeaderValue::from_static(method));
                let name = HeaderValue::from_str(name).map_err(|_| lost("bad Mcp-Name"))?;
                map.insert("mcp-name", name);
            }
            Headers::Session(session) => {
                map.insert(version, HeaderValue::from_static(LEGACY));
                map.insert("mcp-session-id", session.clone());
            }
        }
        for (name, value) in extra {
            let value = HeaderValue::from_str(value).map_err(|_| lost("bad header"))?;
            map.insert(*name, value);
        }
        let sent = async {
            self.sender.ready().await?;
            self.sender.send_request(request).await
        };
        match tokio::time::timeout(ANSWER_TIMEOUT, sent).await {
            Ok(Ok(response)) => Ok(response),
            Ok(Err(error)) => Err(lost(format!("request: {error}"))),
            Err(_) => Err(lost("no response head in time")),
        }
    }
}

fn lost(why: impl Into<String>) -> Failure {
    Failure::Lost(why.into())
}

/// Whether `response` is an event stream.
pub fn is_stream(response: &hyper::Response<Incoming>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"))
}

/// The whole body (within [`ANSWER_TIMEOUT`]).
pub async fn body_of(response: hyper::Response<Incoming>) -> Result<Bytes, Failure> {
    match tokio::time::timeout(ANSWER_TIMEOUT, response.into_body().collect()).await {
        Ok(Ok(body)) => Ok(body.to_bytes()),
        Ok(Err(error)) => Err(lost(format!("body: {error}"))),
        Err(_) => Err(lost("no complete body in time")),
    }
}

/// One server-sent event: its id (if any) and its data.
pub struct Event {
    pub id: Option<String>,
    pub data: String,
}

/// Reads an event stream one event at a time.
pub struct Events {
    body: Incoming,
    buffer: Vec<u8>,
    /// The id of the last event read: where a resumed stream starts.
    pub last_id: Option<String>,
}

impl Events {
    pub fn new(response: hyper::Response<Incoming>) -> Self {
        Self {
            body: response.into_body(),
            buffer: Vec::new(),
            last_id: None,
        }
    }

    /// The next event that carries data; `None` when the stream ended.
    pub async fn next(&mut self) -> Result<Option<Event>, Failure> {
        loop {
            if let Some(end) = find(&self.buffer, b"\n\n") {
                let block: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let event = parse_event(&String::from_utf8_lossy(&block));
                if event.id.is_some() {
                    self.last_id.clone_from(&event.id);
                }
                if !event.data.is_empty() {
                    return Ok(Some(event));
                }
                continue;
            }
            let frame = match tokio::time::timeout(ANSWER_TIMEOUT, self.body.frame()).await {
                Ok(Some(Ok(frame))) => frame,
                Ok(Some(Err(error))) => return Err(lost(format!("stream: {error}"))),
                Ok(None) => return Ok(None),
                Err(_) => return Err(lost("no event in time")),
            };
            if let Ok(data) = frame.into_data() {
                self.buffer.extend_from_slice(&data);
            }
        }
    }

    /// Reads the rest of a stream whose answer has arrived (it ends right after), so that its
    /// connection can carry the next request: hyper closes a connection whose response body was
    /// dropped unread. `false` when the stream did not end cleanly within [`FINISH_TIMEOUT`].
    pub async fn finish(mut self) -> bool {
        let rest = async {
            while self.next().await?.is_some() {}
            Ok::<_, Failure>(())
        };
        matches!(tokio::time::timeout(FINISH_TIMEOUT, rest).await, Ok(Ok(())))
    }

    /// The next JSON-RPC message of the stream; a stream that ends first lost the request.
    pub async fn message(&mut self) -> Result<Value, Failure> {
        let event = self
            .next()
            .await?
            .ok_or_else(|| lost("the stream ended before the answer"))?;
        serde_json::from_str(&event.data)
            .map_err(|_| Failure::Wrong(format!("an event that is not JSON: {}", event.data)))
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// One event block (its lines, without the blank line): `id:` and the joined `data:` lines;
/// comments and other fields are skipped.
fn parse_event(block: &str) -> Event {
    let mut id = None;
    let mut data: Vec<&str> = Vec::new();
    for line in block.lines() {
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "id" => id = Some(value.to_owned()),
            "data" => data.push(value),
            _ => {}
        }
    }
    Event {
        id,
        data: data.join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_event_blocks() {
        let priming = parse_event("id: 3-0\nretry: 1000\ndata: \n");
        assert_eq!(priming.id.as_deref(), Some("3-0"));
        assert!(priming.data.is_empty());
        let message = parse_event("event: message\nid: 3-1\ndata: {\"id\":1}\n");
        assert_eq!(message.data, "{\"id\":1}");
        assert!(parse_event(":\n").data.is_empty());
    }

    #[test]
    fn only_loopback_targets() {
        assert!(Target::parse("http://127.0.0.1:8000/mcp").is_ok());
        assert!(Target::parse("http://[::1]:8000/mcp").is_ok());
        assert!(Target::parse("http://10.0.0.1:8000/mcp").is_err());
        assert!(Target::parse("https://127.0.0.1:8000/mcp").is_err());
    }
}
