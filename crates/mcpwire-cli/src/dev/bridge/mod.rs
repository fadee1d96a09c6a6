//! `dev --http ADDR`: a stdio server served as Streamable HTTP at `http://ADDR/mcp`, both eras.
//!
//! - 2026-07-28 requests (their `_meta` names the protocol version) are stateless: they go to
//!   one shared server process; an `input_required` result is a result like any other and
//!   passes through.
//! - A 2025-11-25 `initialize` starts a server process of its own for that session
//!   (`Mcp-Session-Id`); the session's requests, notifications and responses go to it, and
//!   what the server asks the client while it answers a request (elicitation, sampling, roots)
//!   reaches the client on that request's event stream. DELETE ends the session.
//! - An answer with nothing before it is `application/json`; one preceded by notifications or
//!   questions is `text/event-stream`. A caller that goes away cancels its request.
//! - Only loopback `Host`s and `Origin`s are served (DNS rebinding); with `--allow-remote`,
//!   any `Host`, and an `Origin` that is loopback or the `Host` itself. Sessions are capped;
//!   their ids are 128 bits from the OS random source.
//!
//! Restarting (the sources changed) stops every server process; sessions end with them
//! (`404`, so clients start a new one), and the shared one starts again.

mod link;
mod sessions;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures_util::stream;
use link::{Events, Link};
use serde_json::{Map, Value, json};
use sessions::Sessions;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;

const SESSION_ID: &str = "mcp-session-id";

/// The bridge's state: the server command, the shared 2026-07-28 process, the sessions.
pub struct Bridge {
    command: Vec<String>,
    modern: tokio::sync::Mutex<Option<Arc<Link>>>,
    sessions: Mutex<Sessions<Arc<Link>>>,
    /// `--allow-remote`: other machines' `Host`s are served too.
    remote: bool,
}

impl Bridge {
    /// A bridge to `command`, not yet serving; `remote`: for other machines too.
    pub fn new(command: Vec<String>, remote: bool) -> Arc<Bridge> {
        Arc::new(Bridge {
            command,
            modern: Default::default(),
            sessions: Mutex::default(),
            remote,
        })
    }

    /// Serves on `listener` until the future is dropped.
    pub async fn serve(self: Arc<Self>, listener: TcpListener) -> std::io::Result<()> {
        let app = Router::new()
            .route("/mcp", post(on_post).get(not_offered).delete(on_delete))
            .with_state(self);
        axum::serve(listener, app).await
    }

    /// Starts the shared process now (so that a build error shows at once).
    pub async fn warm_up(&self) {
        if let Err(error) = self.modern_link().await {
            eprintln!("dev: cannot start the server: {error}");
        }
    }

    /// Stops every server process (the sources changed); the shared one starts again.
    pub async fn restart(&self) {
        self.stop().await;
        self.warm_up().await;
    }

    /// Stops every server process.
    pub async fn stop(&self) {
        let sessions = self.sessions.lock().expect("sessions lock").drain();
        for link in sessions {
            link.stop().await;
        }
        if let Some(link) = self.modern.lock().await.take() {
            link.stop().await;
        }
    }

    async fn modern_link(&self) -> std::io::Result<Arc<Link>> {
        let mut modern = self.modern.lock().await;
        match modern.as_ref() {
            Some(link) if link.alive() => Ok(link.clone()),
            _ => {
                let link = Link::start(&self.command)?;
                *modern = Some(link.clone());
                Ok(link)
            }
        }
    }
}

async fn not_offered() -> StatusCode {
    StatusCode::METHOD_NOT_ALLOWED
}

async fn on_delete(State(bridge): State<Arc<Bridge>>, headers: HeaderMap) -> StatusCode {
    if let Err(status) = allowed_caller(&headers, bridge.remote) {
        return status;
    }
    let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
        return StatusCode::BAD_REQUEST;
    };
    let link = bridge.sessions.lock().expect("sessions lock").remove(id);
    match link {
        Some(link) => {
            link.stop().await;
            StatusCode::OK
        }
        None => StatusCode::NOT_FOUND,
    }
}

async fn on_post(State(bridge): State<Arc<Bridge>>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(status) = allowed_caller(&headers, bridge.remote) {
        return status.into_response();
    }
    let message = match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(message)) => message,
        _ => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                -32700,
                "Parse error: one JSON-RPC message per POST",
            );
        }
    };
    let id = message.get("id").cloned();
    let is_request = message.contains_key("method") && id.is_some();
    let streams = accepts_event_stream(&headers);
    let modern = message
        .get("params")
        .and_then(|p| p.pointer("/_meta/io.modelcontextprotocol~1protocolVersion"))
        .is_some();
    if is_request && modern {
        return match bridge.modern_link().await {
            Ok(link) => answer(link, message, streams, None).await,
            Err(error) => rpc_error(
                StatusCode::BAD_GATEWAY,
                id.unwrap_or_default(),
                -32603,
                &format!("cannot start the server: {error}"),
            ),
        };
    }
    let session = headers
        .get(SESSION_ID)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let method = message.get("method").and_then(Value::as_str);
    if method == Some("initialize") && session.is_none() {
        let session = match new_session_id() {
            Ok(session) => session,
            Err(error) => {
                return rpc_error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    id.unwrap_or_default(),
                    -32603,
                    &format!("cannot make a session id: {error}"),
                );
            }
        };
        let link = match Link::start(&bridge.command) {
            Ok(link) => link,
            Err(error) => {
                return rpc_error(
                    StatusCode::BAD_GATEWAY,
                    id.unwrap_or_default(),
                    -32603,
                    &format!("cannot start the server: {error}"),
                );
            }
        };
        let evicted = bridge
            .sessions
            .lock()
            .expect("sessions lock")
            .insert(session.clone(), link.clone());
        if let Some(oldest) = evicted {
            oldest.stop().await;
        }
        return answer(link, message, streams, Some(session)).await;
    }
    let Some(session) = session else {
        return rpc_error(
            StatusCode::BAD_REQUEST,
            id.unwrap_or_default(),
            -32600,
            "Bad Request: no session (send initialize first, or a 2026-07-28 request)",
        );
    };
    let link = bridge.sessions.lock().expect("sessions lock").get(&session);
    let Some(link) = link.filter(|link| link.alive()) else {
        bridge
            .sessions
            .lock()
            .expect("sessions lock")
            .remove(&session);
        return rpc_error(
            StatusCode::NOT_FOUND,
            id.unwrap_or_default(),
            -32001,
            "Session not found",
        );
    };
    if is_request {
        return answer(link, message, streams, None).await;
    }
    link.send(message);
    StatusCode::ACCEPTED.into_response()
}

/// Sends a request and answers with what comes back: JSON when the response comes first, else
/// an event stream of everything up to the response.
async fn answer(
    link: Arc<Link>,
    message: Map<String, Value>,
    streams: bool,
    session: Option<String>,
) -> Response {
    let (id, mut events) = link.request(message);
    let mut guard = CancelOnDrop {
        link: Some(link.clone()),
        id,
    };
    let Some(first) = events.recv().await else {
        return StatusCode::BAD_GATEWAY.into_response();
    };
    let mut response = if is_response(&first) {
        guard.disarm();
        json_response(&first)
    } else if streams {
        event_stream(first, events, guard)
    } else {
        json_after(&link, first, events, guard).await
    };
    if let Some(session) = session {
        response.headers_mut().insert(
            SESSION_ID,
            HeaderValue::from_str(&session).expect("a hex id"),
        );
    }
    response
}

/// For a caller that takes no event stream: waits for the response; the server's questions
/// meanwhile cannot reach the caller, and are answered with an error.
async fn json_after(
    link: &Link,
    mut event: Value,
    mut events: Events,
    mut guard: CancelOnDrop,
) -> Response {
    while !is_response(&event) {
        if let Some(question) = event.get("id").filter(|_| event.get("method").is_some()) {
            let refusal = json!({"jsonrpc": "2.0", "id": question,
                "error": {"code": -32603, "message": "the HTTP client does not accept an event stream"}});
            link.send(refusal.as_object().cloned().unwrap_or_default());
        }
        match events.recv().await {
            Some(next) => event = next,
            None => return StatusCode::BAD_GATEWAY.into_response(),
        }
    }
    guard.disarm();
    json_response(&event)
}

fn event_stream(first: Value, events: Events, guard: CancelOnDrop) -> Response {
    let state = (Some(first), events, guard, false);
    let body = stream::unfold(state, |(next, mut events, mut guard, done)| async move {
        if done {
            return None;
        }
        let event = match next {
            Some(event) => event,
            None => events.recv().await?,
        };
        let finished = is_response(&event);
        if finished {
            guard.disarm();
        }
        let frame = Bytes::from(format!("event: message\ndata: {event}\n\n"));
        Some((
            Ok::<_, std::convert::Infallible>(frame),
            (None, events, guard, finished),
        ))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(body))
        .expect("a valid response")
}

/// Cancels the request on the server if the caller goes away before its response.
struct CancelOnDrop {
    link: Option<Arc<Link>>,
    id: i64,
}

impl CancelOnDrop {
    /// The response arrived: nothing to cancel.
    fn disarm(&mut self) {
        self.link = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(link) = self.link.take() {
            link.cancel(self.id);
        }
    }
}

fn is_response(message: &Value) -> bool {
    message.get("method").is_none()
}

fn json_response(message: &Value) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        message.to_string(),
    )
        .into_response()
}

fn rpc_error(status: StatusCode, id: Value, code: i32, message: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn accepts_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/event-stream"))
}

/// Only loopback names may reach a dev server (a web page elsewhere could otherwise call it
/// through DNS rebinding). With `remote` (`--allow-remote`), any `Host`; an `Origin` must
/// still be loopback or the `Host` itself (a page of another site is refused).
fn allowed_caller(headers: &HeaderMap, remote: bool) -> Result<(), StatusCode> {
    let host_of = |authority: &str| -> String {
        match authority.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or(""),
            None => authority.split(':').next().unwrap_or(""),
        }
        .to_ascii_lowercase()
    };
    let loopback = |authority: &str| {
        matches!(
            host_of(authority).as_str(),
            "localhost" | "127.0.0.1" | "::1"
        )
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !remote && !loopback(host) {
        return Err(StatusCode::FORBIDDEN);
    }
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        let authority = origin.split("://").nth(1).unwrap_or("");
        let same_host = remote && !host.is_empty() && authority.eq_ignore_ascii_case(host);
        if !loopback(authority) && !same_host {
            return Err(StatusCode::FORBIDDEN);
        }
    }
    Ok(())
}

/// A session id: 128 bits from the OS random source, in hex.
fn new_session_id() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_and_origins_are_served() {
        let with = |host: &str, origin: Option<&str>| caller(host, origin, false);
        assert_eq!(with("127.0.0.1:8000", None), Ok(()));
        assert_eq!(
            with("localhost:8000", Some("http://localhost:6274")),
            Ok(())
        );
        assert_eq!(with("[::1]:8000", None), Ok(()));
        assert_eq!(with("evil.example:8000", None), Err(StatusCode::FORBIDDEN));
        assert_eq!(
            with("127.0.0.1:8000", Some("https://evil.example")),
            Err(StatusCode::FORBIDDEN)
        );
    }

    fn caller(host: &str, origin: Option<&str>, remote: bool) -> Result<(), StatusCode> {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, origin.parse().unwrap());
        }
        allowed_caller(&headers, remote)
    }

    #[test]
    fn allow_remote_serves_any_host_but_no_other_sites_pages() {
        let with = |host: &str, origin: Option<&str>| caller(host, origin, true);
        assert_eq!(with("192.168.1.20:8000", None), Ok(()));
        assert_eq!(
            with("192.168.1.20:8000", Some("http://192.168.1.20:8000")),
            Ok(())
        );
        assert_eq!(with("devbox:8000", Some("http://localhost:6274")), Ok(()));
        assert_eq!(
            with("192.168.1.20:8000", Some("https://evil.example")),
            Err(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn session_ids_are_128_random_bits() {
        let ids: std::collections::HashSet<String> =
            (0..1000).map(|_| new_session_id().unwrap()).collect();
        assert_eq!(ids.len(), 1000);
        assert!(
            ids.iter()
                .all(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        );
        // Not a counter or a hash of one: the ids share no fixed prefix.
        let first_bytes: std::collections::HashSet<&str> = ids.iter().map(|id| &id[..2]).collect();
        assert!(first_bytes.len() > 100, "{}", first_bytes.len());
    }
}
