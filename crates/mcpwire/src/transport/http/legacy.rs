//! The 2025-11-25 side: `initialize` opens a session and names it in `Mcp-Session-Id`; later
//! messages must carry that header (missing: `400`; unknown, ended, expired, or opened by
//! another principal: `404`).
//!
//! A request runs inside its answer, tracked by its session, so `notifications/cancelled` stops
//! it and a dropped stream does not (the work is then handed to a task of its own to finish,
//! [`Work::runs_to_end`], and does not keep the session from idling out: only the client's
//! connection does); its notifications and its requests to the client travel on its own response
//! stream. The client's responses and notifications are accepted with `202`.

use super::answer_body::{self, Answer};
use super::caller::Caller;
use super::endpoint::Endpoint;
use super::fleet::Message;
use super::headers::{McpHeaders, SESSION_ID};
use super::http_session::HttpSession;
use super::response_work::{Work, boxed};
use super::session_change::SessionChange;
use super::sessions::{Full, Lookup};
use super::{answer_relay, reply, resume};
use crate::context::Outbound;
use crate::dispatch::connection::notify;
use crate::dispatch::era::{SessionMeta, by_session, malformed_meta};
use crate::dispatch::exchange::{Exchange, Sink};
use crate::dispatch::preread::Preread;
use crate::dispatch::router::{respond, respond_served};
use crate::dispatch::tool_call::{self, Prepared};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::{Notification, Request, RequestId, ResponseIn, code};
use crate::protocol::version::LEGACY_VERSIONS;
use axum::response::Response;
use futures_util::FutureExt;
use futures_util::future::{AbortHandle, Abortable, Either};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use std::future::{Future, Ready, ready};
use std::sync::Arc;

/// `initialize`: opens a session; its id is echoed only when the handshake succeeds.
pub(super) async fn initialize(
    endpoint: &Arc<Endpoint>,
    request: Request,
    headers: HeaderMap,
    caller: &Caller,
) -> Response {
    let session = match endpoint.sessions.create(caller).await {
        Ok(session) => session,
        Err(Full) => {
            let error = ErrorObject::new(code::INTERNAL_ERROR, "Server busy: too many sessions");
            return reply::error(StatusCode::SERVICE_UNAVAILABLE, Some(&request.id), &error);
        }
    };
    // `initialize` sends nothing but its answer: nobody reads this sink.
    let exchange = Arc::new(Exchange {
        core: endpoint.core.clone(),
        session: session.session.clone(),
        sink: Sink::Given(Outbound::nowhere()),
        headers: Some(headers),
        principal: caller.principal.clone(),
        subject: caller.subject.clone(),
        grant: caller.grant.clone(),
        mismatch: None,
    });
    let id = request.id.clone();
    let answer = respond(&exchange, request).await;
    if answer.error_code.is_some() {
        endpoint.sessions.end_here(&session.id);
        return reply::json(StatusCode::OK, answer.line);
    }
    // What the session keeps of the handshake is held for its life (and, shared, in its record).
    let kept = serde_json::to_string(&session.session.state()).map_or(usize::MAX, |s| s.len());
    let limit = endpoint.sessions.max_handshake_bytes();
    if kept > limit {
        endpoint.sessions.end_here(&session.id);
        let message = format!(
            "Invalid params: the client's capabilities and clientInfo take {kept} bytes; \
             this server keeps at most {limit}"
        );
        let error = ErrorObject::new(code::INVALID_PARAMS, message)
            .with_data(serde_json::json!({"size": kept, "limit": limit}));
        return reply::error(StatusCode::OK, Some(&id), &error);
    }
    if let Err(error) = endpoint.sessions.share(&session).await {
        tracing::warn!(%error, "a new session could not be shared with the fleet; refused");
        endpoint.sessions.end_here(&session.id);
        return Refusal::Unavailable.into_response(Some(&id));
    }
    let mut response = reply::json(StatusCode::OK, answer.line);
    let id = HeaderValue::from_str(&session.id).expect("session ids are visible ASCII");
    response.headers_mut().insert(SESSION_ID, id);
    response
}

/// A request of an open session, with what the endpoint read of its `_meta` (`None`: malformed,
/// refused where the request is classified), of its parameters (`preread`), of the mirrored
/// headers it chose to send (a disagreement with the body, refused when the request is served),
/// and of the session its headers name (`named`).
///
/// Its future holds the session's lookup, then only what [`start`] returns: every POST's
/// future is boxed whole, and an `async fn` would keep its arguments beside the futures it
/// waits for.
#[allow(
    clippy::manual_async_fn,
    reason = "an `async fn` keeps the arguments it uses after an await twice in its future \
              (rust-lang/rust#62958: 770 bytes against 386 for two arrays of 256 and 128); an \
              `async` block keeps them once"
)]
pub(super) fn request<'a>(
    endpoint: &'a Arc<Endpoint>,
    request: Request,
    headers: HeaderMap,
    caller: &'a Caller,
    read: (Option<SessionMeta>, Preread, Option<ErrorObject>),
    named: SessionNamed,
) -> impl Future<Output = Answer> + Send + 'a {
    async move {
        match lookup(endpoint, &named, caller).await {
            Ok(session) => start(endpoint, session, request, headers, caller, read).await,
            Err(refusal) => answer_body::of(refusal.into_response(Some(&request.id))),
        }
    }
}

/// Starts `request` on `session` (its handler run inside its answer, [`Work::runs_to_end`]), and
/// returns the one future to wait for: its answer, or a refusal at once.
fn start<'a>(
    endpoint: &'a Arc<Endpoint>,
    session: Arc<HttpSession>,
    request: Request,
    headers: HeaderMap,
    caller: &Caller,
    (meta, preread, mismatch): (Option<SessionMeta>, Preread, Option<ErrorObject>),
) -> Either<Ready<Answer>, impl Future<Output = Answer> + Send + 'a> {
    let activity = session.activity();
    // A change other replicas' copies of the session must see.
    let change = session
        .shared
        .then(|| SessionChange::of_request(&request.method, request.params.as_deref()))
        .flatten();
    // Mirrored headers are optional here, but one that disagrees with the body (`mismatch`, as
    // the caller checked them) is refused after the scope decision, which the body alone drives.
    let exchange = Arc::new(Exchange {
        core: endpoint.core.clone(),
        session: session.session.clone(),
        sink: Sink::own(endpoint.core.limits.max_queued_messages, true),
        headers: Some(headers),
        principal: caller.principal.clone(),
        subject: caller.subject.clone(),
        grant: caller.grant.clone(),
        mismatch,
    });
    let lines = exchange.lines();
    // Classified here: the work then holds what the request is served as.
    let served = meta.map(|meta| by_session(meta, &exchange.session));
    let id = request.id.clone();
    let saver = change.map(|change| (endpoint.clone(), session.clone(), change));
    let limit = endpoint.core.limits.max_requests_in_flight;
    // Remembered before it can run, so `notifications/cancelled` finds it from the start.
    let (stopper, registration) = AbortHandle::new_pair();
    let started = session
        .session
        .track_with(id.clone(), limit, || stopper.into());
    if let Err(refused) = started {
        let refusal = reply::error(StatusCode::OK, Some(&id), &refused.error(&id));
        return Either::Left(ready(answer_body::of(refusal)));
    }
    let finished = id.clone();
    // A tool call is one `Unpin` future, held as it is; it changes nothing other replicas see.
    let (request, served, preread) = match served {
        Some(served) if saver.is_none() => {
            match tool_call::prepare(&exchange, request, served, preread) {
                Prepared::Call(call) => {
                    let handshake = Arc::clone(&exchange.session);
                    // A request cancelled meanwhile sends no answer.
                    let work = Abortable::new(call, registration)
                        .map(move |answered| answered.ok().filter(|_| handshake.finish(&finished)));
                    let work = Work::runs_to_end(work);
                    let answer = resume::answer(endpoint, session, activity, id, work, lines);
                    return Either::Right(Either::Left(answer));
                }
                Prepared::ForRouter(request, served, preread) => (request, Some(served), preread),
            }
        }
        served => (request, served, preread),
    };
    let handler = async move {
        // A malformed `_meta` (`None`, as the POST read it) is refused where the request is
        // classified, from that one reading.
        let served = served.ok_or_else(malformed_meta);
        let reply = respond_served(&exchange, request, served, preread).await;
        if let Some((endpoint, session, change)) = saver
            && reply.error_code.is_none()
        {
            endpoint.sessions.change(&session, change).await;
        }
        // A request cancelled meanwhile sends no answer.
        exchange.session.finish(&finished).then_some(reply)
    };
    let work = Abortable::new(handler, registration).map(|answered| answered.ok().flatten());
    let work = Work::runs_to_end(boxed(work));
    let answer = resume::answer(endpoint, session, activity, id, work, lines);
    Either::Right(Either::Right(answer))
}

/// A notification: `notifications/cancelled` stops the request it names. Without a session (a
/// 2026-07-28 client) it is accepted and ignored.
pub(super) async fn notification(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    caller: &Caller,
    notification: Notification,
) -> Response {
    let named = SessionNamed::in_headers(headers);
    if !named.names_session() {
        return reply::empty(StatusCode::ACCEPTED);
    }
    match lookup(endpoint, &named, caller).await {
        Ok(session) => {
            if let Some(elsewhere) = notify(&session.session, notification)
                && session.shared
            {
                // Not running here: perhaps on the replica that received the request.
                let message = Message::Cancelled {
                    session: session.id.to_string(),
                    request: serde_json::to_value(&elsewhere).expect("ids serialize"),
                };
                endpoint.fleet.send(message).await;
            }
            reply::empty(StatusCode::ACCEPTED)
        }
        Err(refusal) => refusal.into_response(None),
    }
}

/// The client's answer to one of the server's requests.
pub(super) async fn response(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    caller: &Caller,
    response: ResponseIn,
) -> Response {
    let named = SessionNamed::in_headers(headers);
    match lookup(endpoint, &named, caller).await {
        Ok(session) => {
            let id = response.id.clone();
            match session.session.client_requests().deliver(response) {
                None => {}
                // The question may have been asked by another replica: pass the answer on.
                Some(unclaimed) if session.shared => {
                    return answer_relay::relay(endpoint, &session.id, unclaimed).await;
                }
                Some(_) => tracing::debug!(%id, "response to an unknown server request; ignored"),
            }
            reply::empty(StatusCode::ACCEPTED)
        }
        Err(refusal) => refusal.into_response(None),
    }
}

/// Why a message names no usable session.
pub(super) enum Refusal {
    /// `MCP-Protocol-Version` names a revision that has no sessions: `400`.
    UnsupportedVersion,
    /// No `Mcp-Session-Id`: `400` on POST, `405` on GET and DELETE.
    Missing,
    /// An unknown, ended or expired session, or another principal's: `404`.
    Unknown,
    /// A GET or DELETE from a 2026-07-28 client: `405`.
    NotAllowed,
    /// The shared session store cannot tell whether the session lives: `503`, try again.
    Unavailable,
}

impl Refusal {
    /// The response telling the client, answering request `id` when there is one.
    pub(super) fn into_response(self, id: Option<&RequestId>) -> Response {
        let (status, message) = match self {
            Refusal::UnsupportedVersion => (
                StatusCode::BAD_REQUEST,
                "Bad Request: unsupported MCP-Protocol-Version",
            ),
            Refusal::Missing => (
                StatusCode::BAD_REQUEST,
                "Bad Request: missing Mcp-Session-Id header",
            ),
            Refusal::Unknown => (StatusCode::NOT_FOUND, "Session not found: initialize again"),
            Refusal::Unavailable => {
                let error = ErrorObject::new(
                    code::INTERNAL_ERROR,
                    "Service unavailable: sessions cannot be reached now; try again shortly",
                );
                let mut response = reply::error(StatusCode::SERVICE_UNAVAILABLE, id, &error);
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                return response;
            }
            Refusal::NotAllowed => {
                let mut response = reply::empty(StatusCode::METHOD_NOT_ALLOWED);
                response
                    .headers_mut()
                    .insert(header::ALLOW, HeaderValue::from_static("POST"));
                return response;
            }
        };
        reply::error(
            status,
            id,
            &ErrorObject::new(code::INVALID_REQUEST, message),
        )
    }
}

/// What a message's headers say of its session, as one pass over them read it
/// ([`McpHeaders`]): the `Mcp-Session-Id` it names, and the revision `MCP-Protocol-Version`
/// announces. Kept apart from the headers, so that the session is looked up after they moved on
/// with the request.
pub(super) struct SessionNamed {
    /// `Mcp-Session-Id`, as sent (its first value).
    id: Option<HeaderValue>,
    /// What `MCP-Protocol-Version` announces.
    announced: Announced,
}

/// The revision a message's `MCP-Protocol-Version` announces, as sessions see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Announced {
    /// No `MCP-Protocol-Version`.
    Nothing,
    /// A revision that has sessions.
    Sessions,
    /// Another revision (2026-07-28, or one unknown), or a value that is not text.
    Other,
}

impl SessionNamed {
    /// What the MCP headers `mcp` say of the session.
    pub(super) fn of(mcp: &McpHeaders<'_>) -> Self {
        // Compared as bytes: the revisions' names are ASCII, so a value equals one as text
        // exactly when it does as bytes (and one that is not text equals none).
        let announced = match mcp.version.map(HeaderValue::as_bytes) {
            None => Announced::Nothing,
            Some(version) if LEGACY_VERSIONS.iter().any(|v| v.as_bytes() == version) => {
                Announced::Sessions
            }
            Some(_) => Announced::Other,
        };
        SessionNamed {
            id: mcp.session_id.cloned(),
            announced,
        }
    }

    /// What `headers` say of the session, for a message whose MCP headers were not read yet.
    pub(super) fn in_headers(headers: &HeaderMap) -> Self {
        Self::of(&McpHeaders::of(headers))
    }

    /// Whether the message carries an `Mcp-Session-Id`.
    pub(super) fn names_session(&self) -> bool {
        self.id.is_some()
    }

    /// Whether `MCP-Protocol-Version` announces a revision that has sessions.
    pub(super) fn announces_sessions(&self) -> bool {
        self.announced == Announced::Sessions
    }

    /// The id to look up, or why there is none to: the revision announced has no sessions, no
    /// id was sent, or it is not text (no session has such an id).
    fn id(&self) -> Result<&str, Refusal> {
        if self.announced == Announced::Other {
            return Err(Refusal::UnsupportedVersion);
        }
        let id = self.id.as_ref().ok_or(Refusal::Missing)?;
        id.to_str().map_err(|_| Refusal::Unknown)
    }
}

/// The session a message names (`named`), when `caller` may use it.
async fn lookup(
    endpoint: &Endpoint,
    named: &SessionNamed,
    caller: &Caller,
) -> Result<Arc<HttpSession>, Refusal> {
    match endpoint.sessions.get(named.id()?, caller).await {
        Lookup::Found(session) => Ok(session),
        Lookup::Unknown => Err(Refusal::Unknown),
        Lookup::Unavailable => Err(Refusal::Unavailable),
    }
}

/// The session a GET or DELETE names. Without a session, or from a 2026-07-28 client, there is
/// nothing to stream or end.
pub(super) async fn session_of(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    caller: &Caller,
) -> Result<Arc<HttpSession>, Refusal> {
    let named = SessionNamed::in_headers(headers);
    if named.announced == Announced::Other || !named.names_session() {
        return Err(Refusal::NotAllowed);
    }
    lookup(endpoint, &named, caller).await
}

#[cfg(test)]
mod tests {
    use super::super::headers::PROTOCOL_VERSION as VERSION;
    use super::*;
    use http::HeaderName;

    /// What `SessionNamed` makes of headers with these (name, value) pairs, in order.
    fn named(pairs: &[(HeaderName, &[u8])]) -> Result<String, &'static str> {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(name, HeaderValue::from_bytes(value).unwrap());
        }
        let named = SessionNamed::in_headers(&headers);
        match named.id() {
            Ok(id) => Ok(id.to_owned()),
            Err(Refusal::UnsupportedVersion) => Err("unsupported version"),
            Err(Refusal::Missing) => Err("missing"),
            Err(Refusal::Unknown) => Err("unknown"),
            Err(Refusal::NotAllowed | Refusal::Unavailable) => Err("other"),
        }
    }

    #[test]
    fn a_session_is_named_by_its_first_id_on_a_revision_that_has_sessions() {
        assert_eq!(named(&[(SESSION_ID, b"abc")]), Ok("abc".into()));
        for version in ["2025-11-25", "2025-06-18", "2025-03-26"] {
            let pairs = [(VERSION, version.as_bytes()), (SESSION_ID, b"abc")];
            assert_eq!(named(&pairs), Ok("abc".into()), "{version}");
        }
        let repeated = [(SESSION_ID, &b"first"[..]), (SESSION_ID, b"second")];
        assert_eq!(named(&repeated), Ok("first".into()));
    }

    #[test]
    fn another_revision_no_id_or_an_id_that_is_not_text_names_no_session() {
        for version in [&b"2026-07-28"[..], b"2025-11-25 ", b"\xff2025-11-25", b""] {
            let pairs = [(VERSION, version), (SESSION_ID, b"abc")];
            assert_eq!(named(&pairs), Err("unsupported version"), "{version:?}");
        }
        assert_eq!(named(&[(VERSION, b"2025-11-25")]), Err("missing"));
        assert_eq!(named(&[(SESSION_ID, b"caf\xc3\xa9")]), Err("unknown"));
    }
}
