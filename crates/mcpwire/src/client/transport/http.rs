//! The Streamable HTTP transport: every message is a POST to one endpoint, answered with JSON or
//! an event stream. On 2025-11-25 it keeps the `Mcp-Session-Id`, opens the GET stream for the
//! server's own messages (connecting returns once the server has answered it), and reports a
//! lost session (`404`) as `ClientError::SessionExpired`, for the session above to reopen. On
//! 2026-07-28 it sends the headers the client computed and never opens the GET stream; closing a
//! request's stream cancels it. With OAuth, it asks `auth` for the bearer token and hands it
//! the `401`/`403` challenges.
//!
//! What the server sends is bounded by the client's `max_message_bytes`: a JSON body, an
//! event (and a line) of an event stream. Past it the response is dropped (its connection
//! closes) and the request fails with [`ClientError::TooLarge`]; a GET stream that does so is
//! not reopened.

use super::answer::Answer;
use super::direct::{Direct, plain, redirects};
use super::refusal::{self, Refusal};
use super::{BoxFuture, Inbox, InboxSender, Kind, Outgoing, Sent, StreamGuard, Transport};
use super::{body, sse};
#[cfg(feature = "auth")]
use crate::client::auth::OAuth;
use crate::client::error::ClientError;
use crate::client::headers::{MCP_METHOD, MCP_NAME};
use crate::protocol::Era;
use crate::wire::http_error::described;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use std::sync::Mutex;

const SESSION_ID: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";

/// A Streamable HTTP endpoint.
pub(crate) struct Http {
    client: reqwest::Client,
    url: String,
    /// `url`, parsed once (`None`: not a plain URL; each request then goes through reqwest's
    /// request builder, which refuses it or adds its credentials).
    parsed: Option<reqwest::Url>,
    /// A plain `http://` endpoint that no proxy takes: its POSTs sent on hyper's connections
    /// directly, without reqwest's layers ([`direct`](super::direct)); until it redirects once,
    /// when every POST goes through reqwest, which follows redirections.
    direct: Option<Direct>,
    redirected: std::sync::atomic::AtomicBool,
    extra: HeaderMap,
    /// What every POST carries: `extra`, then `Content-Type` and `Accept`; built once.
    post_headers: HeaderMap,
    session: Mutex<Option<String>>,
    version: Mutex<Option<String>>,
    get_stream: Mutex<Option<StreamGuard>>,
    inbox: InboxSender,
    /// The most bytes of one message (a JSON body, an event).
    max_message_bytes: usize,
    #[cfg(feature = "auth")]
    oauth: Option<OAuth>,
}

/// How many times one request runs the authorization flow before giving up.
#[cfg(feature = "auth")]
const MAX_AUTHORIZATIONS: u32 = 3;

impl Http {
    async fn post(&self, mut message: Outgoing) -> Result<Sent, ClientError> {
        // Sent again as is when the OAuth flow ran: shared, not copied.
        let body = bytes::Bytes::from(std::mem::take(&mut message.body));
        let request = body.clone();
        if let Some(version) = &message.protocol_version {
            *self.version.lock().expect("version lock") = Some(version.clone());
        }
        let session = self.session.lock().expect("session lock").clone();
        let response = self
            .send_authorized(&message, &body, session.as_deref())
            .await?;
        let status = response.status();
        // Only an accepted message opens a session: the Python SDK 1.x sends a fresh session id
        // with its `400` to a request outside one, and forgets it at once.
        if status.is_success()
            && let Some(id) = response
                .headers()
                .get(SESSION_ID)
                .and_then(|v| v.to_str().ok())
        {
            *self.session.lock().expect("session lock") = Some(id.to_owned());
        }
        if status.as_u16() == 404 && session.is_some() {
            return Err(ClientError::SessionExpired);
        }
        let event_stream = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if status.is_success() && event_stream {
            let resume = (message.kind == Kind::Request).then(|| self.resumer(session));
            let inbox = self.inbox.clone();
            let parser = sse::Parser::new(self.max_message_bytes);
            let task = tokio::spawn(follow(response, parser, resume, inbox, message.call));
            return Ok(Sent::Stream(StreamGuard(task)));
        }
        if status.is_success() && message.kind != Kind::Request {
            // What answers a notification or a response carries nothing for the client: the
            // body is not read (nor waited for).
            return Ok(Sent::Nothing);
        }
        let body = body::read(response, self.max_message_bytes).await?;
        if status.is_success() {
            if body.trim().is_empty() {
                return Ok(Sent::Nothing);
            }
            return Ok(Sent::Answer(body.into()));
        }
        if message.kind == Kind::Request {
            // The request's own JSON-RPC error (400 + -32022, 404 + -32601, …) is its answer;
            // anything else fails it now, never leaving it to wait for the timeout.
            return match refusal::read(status.as_u16(), body, &request) {
                Refusal::Answer(answer) => {
                    let _ = self.inbox.send(answer.into()).await;
                    Ok(Sent::Nothing)
                }
                Refusal::Failed { routed, error } => {
                    if let Some(routed) = routed {
                        let _ = self.inbox.send(routed.into()).await;
                    }
                    Err(error)
                }
            };
        }
        Err(ClientError::Http {
            status: status.as_u16(),
            body: refusal::shown(body),
        })
    }

    /// One POST of `message`: directly when the endpoint allows it (a redirection is sent
    /// again through reqwest, which follows it), else through reqwest.
    async fn send_once(
        &self,
        message: &Outgoing,
        body: &bytes::Bytes,
        session: Option<&str>,
        token: Option<&str>,
    ) -> Result<Answer, ClientError> {
        let relaxed = std::sync::atomic::Ordering::Relaxed;
        if let Some(direct) = &self.direct
            && !self.redirected.load(relaxed)
        {
            let headers = self.headers(message, session, token)?;
            let answer = direct.post(headers, body.clone()).await?;
            if !redirects(answer.head.status) {
                return Ok(Answer::Direct(answer));
            }
            self.redirected.store(true, relaxed);
        }
        let headers = self.headers(message, session, token)?;
        let transport = |e: reqwest::Error| ClientError::Transport(described(&e));
        // The URL parsed and the fixed headers built once, not per request.
        let mut request = match &self.parsed {
            Some(url) => reqwest::Request::new(reqwest::Method::POST, url.clone()),
            None => self.client.post(&self.url).build().map_err(transport)?,
        };
        *request.headers_mut() = headers;
        *request.body_mut() = Some(reqwest::Body::from(body.clone()));
        let response = self.client.execute(request).await.map_err(transport)?;
        Ok(Answer::Reqwest(response))
    }

    /// What a POST of `message` carries: the fixed headers, then the message's own, the
    /// session's and the bearer `token`.
    fn headers(
        &self,
        message: &Outgoing,
        session: Option<&str>,
        token: Option<&str>,
    ) -> Result<HeaderMap, ClientError> {
        let mut headers = self.post_headers.clone();
        let value = |name: &str, value: &str| {
            HeaderValue::try_from(value)
                .map_err(|e| ClientError::Transport(format!("header {name}: {e}")))
        };
        if let Some(version) = &message.protocol_version {
            let version = value(PROTOCOL_VERSION, version)?;
            headers.append(HeaderName::from_static(PROTOCOL_VERSION), version);
        }
        if let Some(session) = session {
            let session = value(SESSION_ID, session)?;
            headers.append(HeaderName::from_static(SESSION_ID), session);
        }
        for (name, text) in &message.headers {
            let name = header_name(name)?;
            let text = value(name.as_str(), text)?;
            headers.append(name, text);
        }
        if let Some(token) = token {
            let mut bearer = value("authorization", &format!("Bearer {token}"))?;
            bearer.set_sensitive(true);
            headers.append(reqwest::header::AUTHORIZATION, bearer);
        }
        Ok(headers)
    }

    /// POSTs `message`.
    #[cfg(not(feature = "auth"))]
    async fn send_authorized(
        &self,
        message: &Outgoing,
        body: &bytes::Bytes,
        session: Option<&str>,
    ) -> Result<Answer, ClientError> {
        self.send_once(message, body, session, None).await
    }

    /// POSTs `message` with the bearer token; a `401` or `403` runs the OAuth flow and sends
    /// it again, at most [`MAX_AUTHORIZATIONS`] times.
    #[cfg(feature = "auth")]
    async fn send_authorized(
        &self,
        message: &Outgoing,
        body: &bytes::Bytes,
        session: Option<&str>,
    ) -> Result<Answer, ClientError> {
        let Some(oauth) = &self.oauth else {
            return self.send_once(message, body, session, None).await;
        };
        let mut authorizations = 0;
        loop {
            let token = oauth.bearer(&self.url)?;
            let response = self
                .send_once(message, body, session, token.as_deref())
                .await?;
            let status = response.status().as_u16();
            if !matches!(status, 401 | 403) {
                return Ok(response);
            }
            if authorizations == MAX_AUTHORIZATIONS {
                let attempts = crate::client::auth::AuthError::TooManyAttempts(MAX_AUTHORIZATIONS);
                return Err(attempts.into());
            }
            authorizations += 1;
            let challenge = response
                .headers()
                .get(reqwest::header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            drop(response);
            let used = token.as_deref();
            oauth
                .answer(&self.url, status, challenge.as_deref(), used)
                .await?;
        }
    }

    /// What resuming a request's stream needs (2025-11-25).
    fn resumer(&self, session: Option<String>) -> Resumer {
        Resumer {
            client: self.client.clone(),
            url: self.url.clone(),
            extra: self.extra_with_token(),
            session,
            version: self.version.lock().expect("version lock").clone(),
        }
    }

    /// The extra headers, with the current bearer token when the client does OAuth.
    fn extra_with_token(&self) -> HeaderMap {
        #[cfg_attr(not(feature = "auth"), allow(unused_mut))]
        let mut extra = self.extra.clone();
        #[cfg(feature = "auth")]
        if let Some(Ok(Some(token))) = self.oauth.as_ref().map(|o| o.bearer(&self.url))
            && let Ok(value) = HeaderValue::try_from(format!("Bearer {token}"))
        {
            extra.insert(reqwest::header::AUTHORIZATION, value);
        }
        extra
    }

    /// The GET stream of a 2025-11-25 session; a server that does not offer one (400, 404, 405)
    /// is fine. When the server ends it, it is reopened after the `retry:` delay (resuming with
    /// `Last-Event-ID` when its events had ids), until it has ended three times in a row without
    /// a message, or has sent an event over `max_message_bytes` (then it is closed for good).
    ///
    /// `opened` is told once the server has answered the first GET (or it failed).
    fn open_get_stream(&self, opened: tokio::sync::oneshot::Sender<()>) {
        let resume = self.resumer(self.session.lock().expect("session lock").clone());
        let inbox = self.inbox.clone();
        let mut parser = sse::Parser::new(self.max_message_bytes);
        let task = tokio::spawn(async move {
            let mut quiet = 0;
            let mut opened = Some(opened);
            while quiet < MAX_QUIET_REOPENS {
                let sent = resume.get(parser.last_id.as_deref()).send().await;
                if let Some(opened) = opened.take() {
                    let _ = opened.send(());
                }
                let Ok(response) = sent else {
                    return Ok(false);
                };
                let event_stream = response
                    .headers()
                    .get(CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v.starts_with("text/event-stream"));
                if !response.status().is_success() || !event_stream {
                    return Ok(false);
                }
                let ended = sse::forward(response.bytes_stream(), &mut parser, &inbox, None).await;
                if let Some(sse::TooLarge(limit)) = ended.too_large {
                    return Err(ClientError::TooLarge { limit });
                }
                quiet = if ended.messages == 0 { quiet + 1 } else { 0 };
                let delay = parser.retry.unwrap_or(DEFAULT_RETRY_MS);
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
            }
            Ok(false)
        });
        *self.get_stream.lock().expect("get stream lock") = Some(StreamGuard(task));
    }
}

/// How long connecting waits for the server to answer the 2025-11-25 GET stream.
const GET_STREAM_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
/// How many times one request's stream is resumed.
const MAX_RESUMPTIONS: u32 = 5;
/// How many times in a row the GET stream is reopened after ending without a message.
const MAX_QUIET_REOPENS: u32 = 3;
/// The delay before resuming when the server set none.
const DEFAULT_RETRY_MS: u64 = 1000;

/// Resumes a request's event stream with `GET` + `Last-Event-ID` (2025-11-25).
struct Resumer {
    client: reqwest::Client,
    url: String,
    extra: HeaderMap,
    session: Option<String>,
    version: Option<String>,
}

/// Forwards a request's event stream; when it ends before the answer and its events had ids
/// (a resumable stream on 2025-11-25), waits the server's `retry:` delay and resumes with a
/// GET carrying `Last-Event-ID`, where the answer may then arrive. An event over the limit
/// ends it with [`ClientError::TooLarge`], never resumed.
async fn follow(
    response: Answer,
    mut parser: sse::Parser,
    resume: Option<Resumer>,
    inbox: InboxSender,
    during: Option<i64>,
) -> Result<bool, ClientError> {
    let refused = |ended: &sse::Ended| match ended.too_large {
        Some(sse::TooLarge(limit)) => Err(ClientError::TooLarge { limit }),
        None => Ok(()),
    };
    let mut ended = sse::forward(response.chunks(), &mut parser, &inbox, during).await;
    refused(&ended)?;
    let Some(resume) = resume else {
        return Ok(ended.answered);
    };
    for _ in 0..MAX_RESUMPTIONS {
        let Some(last_id) = parser.last_id.clone() else {
            return Ok(ended.answered);
        };
        if ended.answered {
            return Ok(true);
        }
        let delay = parser.retry.unwrap_or(DEFAULT_RETRY_MS);
        tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
        let request = resume.get(Some(&last_id));
        let Ok(response) = request.send().await else {
            continue;
        };
        if !response.status().is_success() {
            return Ok(false);
        }
        ended = sse::forward(response.bytes_stream(), &mut parser, &inbox, during).await;
        refused(&ended)?;
    }
    Ok(ended.answered)
}

impl Resumer {
    /// A GET for an event stream, resuming after `last_id` when given.
    fn get(&self, last_id: Option<&str>) -> reqwest::RequestBuilder {
        let mut request = self
            .client
            .get(&self.url)
            .headers(self.extra.clone())
            .header(ACCEPT, "text/event-stream");
        if let Some(last_id) = last_id {
            request = request.header("last-event-id", last_id);
        }
        if let Some(session) = &self.session {
            request = request.header(SESSION_ID, session);
        }
        if let Some(version) = &self.version {
            request = request.header(PROTOCOL_VERSION, version);
        }
        request
    }
}

impl Transport for Http {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Sent, ClientError>> {
        Box::pin(self.post(message))
    }

    fn cancels_by_notification(&self, era: Era) -> bool {
        era == Era::Legacy
    }

    fn session_opened(&self) -> BoxFuture<'_, ()> {
        let (opened, answered) = tokio::sync::oneshot::channel();
        self.open_get_stream(opened);
        Box::pin(async move {
            // A server that never answers the GET does not hold the connection up for long.
            let _ = tokio::time::timeout(GET_STREAM_WAIT, answered).await;
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        self.get_stream.lock().expect("get stream lock").take();
        let session = self.session.lock().expect("session lock").take();
        Box::pin(async move {
            let Some(session) = session else {
                return;
            };
            let mut request = self
                .client
                .delete(&self.url)
                .headers(self.extra_with_token())
                .header(SESSION_ID, session);
            if let Some(version) = self.version.lock().expect("version lock").clone() {
                request = request.header(PROTOCOL_VERSION, version);
            }
            let _ = request.send().await;
        })
    }

    fn forget_session(&self) {
        *self.session.lock().expect("session lock") = None;
        self.get_stream.lock().expect("get stream lock").take();
    }
}

/// Extra headers sent on every HTTP request (e.g. `Authorization`).
///
/// # Examples
///
/// ```no_run
/// use mcpwire::client::{Client, HttpOptions};
///
/// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
/// let options = HttpOptions::new().header("Authorization", "Bearer token")?;
/// let client = Client::builder().connect_http_with("http://127.0.0.1:8000/mcp", options).await?;
/// # drop(client); Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct HttpOptions {
    headers: HeaderMap,
}

impl HttpOptions {
    /// No extra headers.
    ///
    /// # Examples
    ///
    /// ```
    /// let options = mcpwire::client::HttpOptions::new();
    /// # drop(options);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a header to every request.
    ///
    /// # Errors
    ///
    /// When the name or the value is not a valid header.
    ///
    /// # Examples
    ///
    /// ```
    /// let options = mcpwire::client::HttpOptions::new().header("X-MCP-Toolsets", "repos")?;
    /// # drop(options);
    /// # Ok::<(), mcpwire::client::ClientError>(())
    /// ```
    pub fn header(mut self, name: &str, value: &str) -> Result<Self, ClientError> {
        let name = HeaderName::try_from(name)
            .map_err(|e| ClientError::Transport(format!("header {name}: {e}")))?;
        let value = HeaderValue::try_from(value)
            .map_err(|e| ClientError::Transport(format!("header {name}: {e}")))?;
        self.headers.insert(name, value);
        Ok(self)
    }
}

/// The header `name`: the ones every 2026-07-28 POST carries as constants (parsing a name that
/// is not one of HTTP's own allocates it), any other parsed.
fn header_name(name: &str) -> Result<HeaderName, ClientError> {
    const METHOD: HeaderName = HeaderName::from_static("mcp-method");
    const NAME: HeaderName = HeaderName::from_static("mcp-name");
    match name {
        MCP_METHOD => Ok(METHOD),
        MCP_NAME => Ok(NAME),
        _ => HeaderName::try_from(name)
            .map_err(|e| ClientError::Transport(format!("header {name}: {e}"))),
    }
}

/// Connects to `url`; nothing is sent until the first message, and no message of more than
/// `max_message_bytes` is read.
pub(crate) fn start(
    url: &str,
    options: HttpOptions,
    max_message_bytes: usize,
    #[cfg(feature = "auth")] oauth: Option<OAuth>,
) -> Result<(Http, Inbox), ClientError> {
    let client = reqwest::Client::builder()
        .build()
        .map_err(|e| ClientError::Transport(e.to_string()))?;
    let (inbox, incoming) = super::inbox();
    let parsed = reqwest::Url::parse(url).ok().filter(plain);
    let proxies = hyper_util::client::proxy::matcher::Matcher::from_system();
    let direct = parsed.as_ref().and_then(|url| Direct::to(url, &proxies));
    let mut post_headers = options.headers.clone();
    post_headers.append(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let accept = HeaderValue::from_static("application/json, text/event-stream");
    post_headers.append(ACCEPT, accept);
    let transport = Http {
        client,
        url: url.to_owned(),
        parsed,
        direct,
        redirected: Default::default(),
        post_headers,
        extra: options.headers,
        session: Mutex::new(None),
        version: Mutex::new(None),
        get_stream: Mutex::new(None),
        inbox,
        max_message_bytes,
        #[cfg(feature = "auth")]
        oauth,
    };
    Ok((transport, incoming))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_name_is_the_one_parsing_it_gives() {
        for name in ["Mcp-Method", "Mcp-Name", "Mcp-Param-Region", "x-trace"] {
            let parsed = HeaderName::try_from(name).unwrap();
            assert_eq!(header_name(name).unwrap(), parsed, "{name}");
        }
        assert!(header_name("bad name").is_err());
    }
}
