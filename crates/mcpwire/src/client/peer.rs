//! The connection core, for every transport: request ids, the table of calls waiting for
//! answers, the reader that routes what the server sends (responses, progress, log messages,
//! notifications, and on 2025-11-25 the server's own requests), timeouts that progress extends, and
//! cancellation when a call's future is dropped. One request here is one message: a lost
//! session is the caller's to reopen (`session`).

use super::envelope::{self, NotificationMessage};
use super::error::ClientError;
use super::handlers::Handlers;
use super::headers;
use super::hook::{Hooks, Stage};
use super::notifications::ServerNotification;
use super::options::{CallOptions, LogCallback, ProgressCallback};
use super::question::{QuestionAnswerer, ServerQuestion};
use super::request_meta::{FixedEntries, OutgoingMeta, fixed_entries};
use super::transport::{Inbox, Kind, Outgoing, Received, Sent, Transport};
use crate::protocol::cancelled::CancelledParams;
use crate::protocol::jsonrpc::{Incoming, error_line, result_line};
use crate::protocol::methods::{
    CANCELLED, DISCOVER, INITIALIZE, MESSAGE, PING, PROGRESS, TOOLS_CALL,
};
use crate::protocol::progress::ProgressParams;
use crate::protocol::{
    Era, ErrorObject, Implementation, LoggingLevel, LoggingMessageParams, RequestId,
};
use crate::wire::fast_map::FastMap;
use crate::wire::header_params::HeaderParam;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, oneshot};
use tokio::time::Instant;

/// Settings fixed when the client is built.
#[derive(Clone)]
pub(crate) struct Settings {
    pub(crate) info: Implementation,
    pub(crate) timeout: Duration,
    pub(crate) max_rounds: u32,
    pub(crate) max_pages: usize,
    /// The hooks around each request (`hook.rs`).
    pub(crate) hooks: Hooks,
}

/// The era and revision requests are sent under.
#[derive(Clone, Debug)]
pub(crate) struct Mode {
    pub(crate) era: Era,
    /// `None` before `initialize` has answered.
    pub(crate) version: Option<String>,
}

type Reply = Result<Box<RawValue>, ErrorObject>;

struct Pending {
    reply: oneshot::Sender<Reply>,
    progress: Arc<Progress>,
    /// The call's own answerer of the server's questions, when it has one.
    questions: Option<QuestionAnswerer>,
    /// The call's own callback of the server's log messages, when it has one.
    log: Option<LogCallback>,
}

/// A call's progress: the callback, and whether progress arrived since the timer last looked.
struct Progress {
    callback: Option<ProgressCallback>,
    bumped: AtomicBool,
}

/// One connection to one server.
pub(crate) struct Peer {
    transport: Box<dyn Transport>,
    pending: Mutex<FastMap<i64, Pending>>,
    next_id: AtomicI64,
    events: broadcast::Sender<ServerNotification>,
    pub(crate) handlers: Handlers,
    pub(crate) settings: Settings,
    mode: RwLock<Mode>,
    /// The mirrored arguments of each listed tool (2026-07-28 HTTP headers).
    pub(crate) tool_headers: Mutex<FastMap<String, Vec<HeaderParam>>>,
    /// The log level last asked for: 2026-07-28, the per-request one; 2025-11-25, the session's
    /// once the server accepted `logging/setLevel`.
    pub(crate) log_level: Mutex<Option<LoggingLevel>>,
    /// Held while the session's level is changed (2025-11-25), so that two changes reach the
    /// server in the order their callers decided them.
    pub(crate) level_change: tokio::sync::Mutex<()>,
    /// The server's requests being answered (2025-11-25), to stop on its `notifications/cancelled`.
    answering: Mutex<HashMap<RequestId, tokio::task::AbortHandle>>,
    /// Set once the server's messages ended: every call fails at once from then on.
    closed: AtomicBool,
    /// `settings.info` as JSON (2026-07-28 `_meta`), serialized once.
    client_info: Value,
    /// The 2026-07-28 `_meta` entries every request carries, written once per revision.
    fixed_meta: FixedEntries,
}

impl Peer {
    /// A peer on `transport`, reading `inbox` on a task of its own.
    pub(crate) fn start(
        transport: Box<dyn Transport>,
        inbox: Inbox,
        handlers: Handlers,
        settings: Settings,
        mode: Mode,
    ) -> Arc<Peer> {
        let (events, _) = broadcast::channel(256);
        let client_info = serde_json::to_value(&settings.info).unwrap_or_else(|_| json!({}));
        let peer = Arc::new(Peer {
            client_info,
            fixed_meta: FixedEntries::default(),
            transport,
            pending: Mutex::default(),
            next_id: AtomicI64::new(0),
            events,
            handlers,
            settings,
            mode: RwLock::new(mode),
            tool_headers: Mutex::default(),
            log_level: Mutex::new(None),
            level_change: tokio::sync::Mutex::new(()),
            closed: AtomicBool::new(false),
            answering: Mutex::new(HashMap::new()),
        });
        tokio::spawn(read_loop(Arc::downgrade(&peer), inbox));
        peer
    }

    pub(crate) fn mode(&self) -> Mode {
        self.mode.read().expect("mode lock").clone()
    }

    pub(crate) fn set_mode(&self, mode: Mode) {
        *self.mode.write().expect("mode lock") = mode;
    }

    pub(crate) fn transport(&self) -> &dyn Transport {
        &*self.transport
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<ServerNotification> {
        self.events.subscribe()
    }

    /// Sends one request and waits for its result. `request_state` (2026-07-28) goes in the
    /// params exactly as the server sent it. Inside the hooks, when there are any
    /// (`Stage::Request`).
    pub(crate) async fn request(
        self: &Arc<Self>,
        method: &str,
        params: Map<String, Value>,
        request_state: Option<&RawValue>,
        options: &CallOptions,
    ) -> Result<Box<RawValue>, ClientError> {
        let hooks = &self.settings.hooks;
        if hooks.is_empty() {
            return self
                .request_once(method, params, request_state, options)
                .await;
        }
        let version = self.mode().version;
        hooks
            .run(
                Stage::Request,
                method,
                version.as_deref(),
                params,
                move |params| Box::pin(self.request_once(method, params, request_state, options)),
            )
            .await
    }

    async fn request_once(
        self: &Arc<Self>,
        method: &str,
        params: Map<String, Value>,
        request_state: Option<&RawValue>,
        options: &CallOptions,
    ) -> Result<Box<RawValue>, ClientError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mode = self.mode();
        let token = (options.progress.is_some() || method == TOOLS_CALL).then_some(id);
        let (params, meta) = self.with_meta(&mode, method, params, token, options);
        let headers = match mode.era {
            Era::Modern => {
                let mirrored = match (method, params.get("name").and_then(Value::as_str)) {
                    (TOOLS_CALL, Some(tool)) => self
                        .tool_headers
                        .lock()
                        .expect("tool headers lock")
                        .get(tool)
                        .cloned()
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                headers::modern(method, &params, &mirrored)
            }
            Era::Legacy => Vec::new(),
        };
        let body = envelope::request(id, method, &params, &meta, request_state);
        let progress = Arc::new(Progress {
            callback: options.progress.clone(),
            bumped: AtomicBool::new(false),
        });
        let (reply, answer) = oneshot::channel();
        self.pending.lock().expect("pending lock").insert(
            id,
            Pending {
                reply,
                progress: progress.clone(),
                questions: options.questions.clone(),
                log: options.log.clone(),
            },
        );
        if self.closed.load(Ordering::Acquire) {
            self.forget(id);
            return Err(ClientError::Closed(self.transport.closed_detail()));
        }
        // `initialize` is never cancelled (2025-11-25), nor the `Auto` probe (a 2025-11-25
        // server would take the cancellation for a message outside a session); their entries
        // are still dropped.
        let notify = !matches!(method, INITIALIZE | DISCOVER);
        let mut guard = CancelOnDrop {
            peer: self.clone(),
            id,
            era: mode.era,
            armed: true,
            notify,
        };
        let timeout = options.timeout.unwrap_or(self.settings.timeout);
        let started = Instant::now();
        let ceiling = options.max_total.map(|max| started + max);
        let mut deadline = started + timeout;
        if let Some(ceiling) = ceiling {
            deadline = deadline.min(ceiling);
        }
        let outgoing = Outgoing {
            body,
            kind: Kind::Request,
            protocol_version: mode.version.clone(),
            headers,
            call: Some(id),
        };
        tokio::pin!(answer);
        // The answer may come while the message is still being sent: over HTTP, in the refusal
        // of another request that names this one.
        let sent = tokio::select! {
            sent = tokio::time::timeout_at(deadline, self.transport.send(outgoing)) => sent,
            reply = &mut answer => {
                guard.armed = false;
                return self.answered(reply);
            }
        };
        let mut stream = match sent {
            Err(_) => return Err(ClientError::Timeout(timeout)),
            Ok(Err(error)) => {
                guard.armed = false;
                self.forget(id);
                return Err(error);
            }
            Ok(Ok(Sent::Stream(stream))) => Some(stream),
            // The answer came back whole (a JSON body): routed here, not by the inbox's reader.
            Ok(Ok(Sent::Answer(received))) => {
                self.dispatch(received);
                None
            }
            Ok(Ok(Sent::Nothing)) => None,
        };
        let mut streaming = stream.is_some();
        let outcome = loop {
            tokio::select! {
                reply = &mut answer => break reply,
                // The answer's stream ended without it (and could not be resumed): the request
                // is lost; say so now rather than at the timeout.
                answered = async { stream.as_mut().expect("a stream").ended().await }, if streaming => {
                    streaming = false;
                    let lost = match answered {
                        Ok(true) => continue,
                        Ok(false) => ClientError::Transport(
                            "the server's event stream ended before the answer".into(),
                        ),
                        // Refused (an event over `max_message_bytes`): the stream is closed.
                        Err(error) => error,
                    };
                    guard.armed = false;
                    self.forget(id);
                    return Err(lost);
                }
                () = tokio::time::sleep_until(deadline) => {
                    let at_ceiling = ceiling.is_some_and(|c| deadline >= c);
                    if progress.bumped.swap(false, Ordering::Relaxed) && !at_ceiling {
                        deadline = Instant::now() + timeout;
                        if let Some(ceiling) = ceiling {
                            deadline = deadline.min(ceiling);
                        }
                        continue;
                    }
                    return Err(ClientError::Timeout(match at_ceiling {
                        true => options.max_total.unwrap_or(timeout),
                        false => timeout,
                    }));
                }
            }
        };
        guard.armed = false;
        drop(stream);
        self.answered(outcome)
    }

    /// What a call's reply (or its dropped reply channel: the connection closed) means.
    fn answered(
        &self,
        reply: Result<Reply, oneshot::error::RecvError>,
    ) -> Result<Box<RawValue>, ClientError> {
        match reply {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(error)) => Err(ClientError::Rpc(error)),
            Err(_) => Err(ClientError::Closed(self.transport.closed_detail())),
        }
    }

    /// `params` without their `_meta`, and the `_meta` to send: on 2026-07-28 the revision,
    /// capabilities and log level (the call's own, when its options set them, else the
    /// client's), client info; on both the progress token; each replacing an entry of the same
    /// name in the params' own `_meta`.
    fn with_meta(
        &self,
        mode: &Mode,
        method: &str,
        mut params: Map<String, Value>,
        progress_token: Option<i64>,
        options: &CallOptions,
    ) -> (Map<String, Value>, OutgoingMeta) {
        let own = match params.remove("_meta") {
            Some(Value::Object(meta)) => meta,
            _ => Map::new(),
        };
        let mut meta = OutgoingMeta {
            own,
            ..OutgoingMeta::default()
        };
        if mode.era == Era::Modern {
            let version = mode.version.as_deref().unwrap_or_default();
            let entries = |capabilities: Result<Value, serde_json::Error>| {
                let capabilities = capabilities.unwrap_or_else(|_| json!({}));
                fixed_entries(version, &capabilities, &self.client_info)
            };
            meta.fixed = Some(match &options.capabilities {
                Some(own) => self
                    .fixed_meta
                    .declared(version, own, || entries(serde_json::to_value(own))),
                None => self.fixed_meta.of(version, || {
                    entries(serde_json::to_value(self.handlers.capabilities()))
                }),
            });
            meta.log_level = options
                .log_level
                .or(*self.log_level.lock().expect("log level lock"));
        }
        if method != INITIALIZE {
            meta.progress_token = progress_token;
        }
        (params, meta)
    }

    /// Sends a notification, waiting at most the client's timeout for the transport (an HTTP
    /// server that never answers the POST cannot hold the caller).
    pub(crate) async fn notify(
        &self,
        method: &str,
        params: &impl Serialize,
    ) -> Result<(), ClientError> {
        let mode = self.mode();
        let body = serde_json::to_string(&NotificationMessage::new(method, params))?;
        let headers = match mode.era {
            Era::Modern => headers::modern(method, &Map::new(), &[]),
            Era::Legacy => Vec::new(),
        };
        let outgoing = Outgoing {
            body,
            kind: Kind::Notification,
            protocol_version: mode.version,
            headers,
            call: None,
        };
        let timeout = self.settings.timeout;
        match tokio::time::timeout(timeout, self.transport.send(outgoing)).await {
            Ok(sent) => sent.map(drop),
            Err(_) => Err(ClientError::Timeout(timeout)),
        }
    }

    fn forget(&self, id: i64) {
        self.pending.lock().expect("pending lock").remove(&id);
    }

    /// Routes one message from the server.
    fn dispatch(self: &Arc<Self>, received: Received) {
        let Received { text, during } = received;
        match Incoming::parse(&text) {
            Ok(Incoming::Response(response)) => {
                let RequestId::Number(id) = response.id else {
                    return;
                };
                let pending = self.pending.lock().expect("pending lock").remove(&id);
                if let Some(pending) = pending {
                    let _ = pending.reply.send(response.outcome);
                }
            }
            Ok(Incoming::Notification(note)) => {
                let params: Value = note
                    .params
                    .and_then(|raw| serde_json::from_str(raw.get()).ok())
                    .unwrap_or_else(|| json!({}));
                if note.method == PROGRESS {
                    self.progress(params);
                    return;
                }
                if note.method == MESSAGE && self.log(&params, during) {
                    return;
                }
                if note.method == CANCELLED
                    && let Some(id) = params
                        .get("requestId")
                        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
                    && let Some(task) = self.answering.lock().expect("answering lock").remove(&id)
                {
                    task.abort();
                }
                let _ = self.events.send(ServerNotification {
                    method: note.method,
                    params,
                });
            }
            Ok(Incoming::Request(request)) => {
                let peer = self.clone();
                let id = request.id.clone();
                let answerer = self.answerer_of(during);
                // Registered before the task can finish, so its own removal never races.
                let mut answering = self.answering.lock().expect("answering lock");
                let task = tokio::spawn(async move {
                    let params = request
                        .params
                        .and_then(|raw| serde_json::from_str(raw.get()).ok());
                    let line = match &*request.method {
                        PING => result_line(&request.id, "{}"),
                        method => match answer(&peer.handlers, answerer, method, params).await {
                            Ok(result) => result_line(&request.id, &result.to_string()),
                            Err(error) => error_line(Some(&request.id), &error),
                        },
                    };
                    let answered = peer
                        .answering
                        .lock()
                        .expect("answering lock")
                        .remove(&request.id);
                    if answered.is_none() {
                        return; // the server cancelled it meanwhile
                    }
                    let outgoing = Outgoing {
                        body: line,
                        kind: Kind::Response,
                        protocol_version: peer.mode().version,
                        headers: Vec::new(),
                        call: None,
                    };
                    let sending = peer.transport.send(outgoing);
                    let _ = tokio::time::timeout(peer.settings.timeout, sending).await;
                });
                answering.insert(id, task.abort_handle());
            }
            Err(_) => {}
        }
    }

    /// The own answerer of the call a server's request that came during call `during` belongs
    /// to, if it has one (see [`Peer::own_of`]).
    fn answerer_of(&self, during: Option<i64>) -> Option<QuestionAnswerer> {
        self.own_of(during, |p| p.questions.as_ref())
    }

    /// What `pick` finds of the call a message of the server's that names no call (a
    /// 2025-11-25 request, a log message) belongs to: the call on whose stream it came
    /// (`during`, HTTP), or else the one call in flight for which `pick` finds something; with
    /// several such calls it cannot be told whose it is (`None`).
    fn own_of<T: Clone>(
        &self,
        during: Option<i64>,
        pick: impl Fn(&Pending) -> Option<&T>,
    ) -> Option<T> {
        let pending = self.pending.lock().expect("pending lock");
        if let Some(call) = during {
            return pending.get(&call).and_then(|p| pick(p).cloned());
        }
        let mut own = pending.values().filter_map(pick);
        match (own.next(), own.next()) {
            (Some(only), None) => Some(only.clone()),
            _ => None,
        }
    }

    /// Hands a log message (`params`) that came during call `during` to its call's own
    /// callback; `false` when it belongs to no call with one (it then goes to the
    /// notifications).
    fn log(&self, params: &Value, during: Option<i64>) -> bool {
        let Some(callback) = self.own_of(during, |p| p.log.as_ref()) else {
            return false;
        };
        let Ok(message) = LoggingMessageParams::deserialize(params) else {
            return false;
        };
        callback(message);
        true
    }

    fn progress(&self, params: Value) {
        let Ok(params) = serde_json::from_value::<ProgressParams>(params) else {
            return;
        };
        let crate::protocol::progress::ProgressToken::Number(id) = params.progress_token else {
            return;
        };
        let progress = self
            .pending
            .lock()
            .expect("pending lock")
            .get(&id)
            .map(|p| p.progress.clone());
        if let Some(progress) = progress {
            progress.bumped.store(true, Ordering::Relaxed);
            if let Some(callback) = &progress.callback {
                callback(params);
            }
        }
    }

    /// The connection ended: every waiting call fails.
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.pending.lock().expect("pending lock").clear();
    }
}

/// Answers one request of the server's: with the call's own answerer when it was tied to one,
/// with the client's handlers otherwise.
async fn answer(
    handlers: &Handlers,
    answerer: Option<QuestionAnswerer>,
    method: &str,
    params: Option<Value>,
) -> Result<Value, ErrorObject> {
    match answerer {
        Some(answerer) => {
            let params = params.unwrap_or_else(|| json!({}));
            let method = method.to_owned();
            answerer(ServerQuestion { method, params }).await
        }
        None => handlers.answer(method, params).await,
    }
}

/// Reads the server's messages until the transport closes or the client is gone.
async fn read_loop(peer: Weak<Peer>, mut inbox: Inbox) {
    while let Some(received) = inbox.recv().await {
        let Some(peer) = peer.upgrade() else {
            return;
        };
        peer.dispatch(received);
    }
    if let Some(peer) = peer.upgrade() {
        peer.close();
    }
}

/// Cancels a request whose future is dropped before its answer: the entry is removed, and the
/// server told with `notifications/cancelled` where that is how cancelling works.
struct CancelOnDrop {
    peer: Arc<Peer>,
    id: i64,
    era: Era,
    armed: bool,
    /// Whether to tell the server (never for `initialize`).
    notify: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        self.peer.forget(self.id);
        if !self.notify || !self.peer.transport.cancels_by_notification(self.era) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        let id = self.id;
        runtime.spawn(async move {
            let params = CancelledParams {
                request_id: Some(RequestId::Number(id)),
                reason: Some("cancelled by the client".into()),
            };
            let _ = peer.notify(CANCELLED, &params).await;
        });
    }
}
