//! Resumable 2025-11-25 request streams. When a session request's answer becomes a stream, a
//! relay task owns it: it stores every event (with its id) and hands it to whoever listens, so
//! the handler goes on when the client's connection drops (a disconnect is not a cancellation on
//! a session), and a client that reconnects with `GET` and `Last-Event-ID` gets what it missed,
//! then the rest live.
//!
//! The relay never waits for the client: a client that reads too slowly (its queue of
//! `max_queued_messages` events is full) loses its live stream, not the events, and resumes.
//!
//! Resumed GETs are bounded per session (`resumed.rs`): one per request stream, and
//! `max_resumed_streams` in all; a new one ends the one it replaces.

use super::answer_body::{self, Answer};
use super::endpoint::Endpoint;
use super::events::EventStore;
use super::http_session::{Activity, HttpSession};
use super::reply::{self, Decision, Working};
use super::response_work::Work;
use super::sse;
use crate::context::{CLOSE_STREAM, LazyLines};
use crate::protocol::Era;
use crate::protocol::jsonrpc::RequestId;
use axum::response::Response;
use futures_util::StreamExt;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

/// How long a client should wait before reconnecting to a stream the server closed.
const RETRY: Duration = Duration::from_secs(1);

/// Answers a session request: JSON when the handler finishes before sending anything, else a
/// resumable event stream. `activity` (the client's connection) lasts as long as the response.
pub(super) async fn answer<F: Working>(
    endpoint: &Endpoint,
    session: Arc<HttpSession>,
    activity: Activity,
    request_id: RequestId,
    work: Work<F>,
    lines: LazyLines,
) -> Answer {
    let (queue, work, lines) = match reply::decide(work, lines).await {
        Decision::Json(reply) => {
            return reply::finished(Era::Legacy, reply);
        }
        Decision::Stream { queue, work, lines } => (queue, work, lines),
    };
    let stream_id = session.next_stream();
    let (listener, mut events) = mpsc::channel(endpoint.core.limits.max_queued_messages);
    session.relays.lock().insert(stream_id, Some(listener));
    let store = endpoint.events.clone();
    // Only a stream needs the request's id as JSON (a JSON answer never does).
    let request_id = serde_json::to_string(&request_id).expect("ids serialize");
    store.begin(&session.id, stream_id, &request_id).await;
    // An empty first event gives the client an id to resume from before anything else arrives.
    let priming = store.priming_id(stream_id);
    tokio::spawn(relay(session, store, stream_id, queue, work, lines));
    let events = futures_util::stream::poll_fn(move |cx| {
        let _connected = &activity;
        events.poll_recv(cx)
    });
    let stream = sse::stream_with_ids(Some((priming, RETRY)), events, endpoint.keep_alive);
    answer_body::of(stream)
}

/// Stores and forwards every event of one stream until the handler finished.
async fn relay<F: Working>(
    session: Arc<HttpSession>,
    store: Arc<dyn EventStore>,
    stream: u64,
    mut queue: VecDeque<String>,
    mut work: Option<Work<F>>,
    mut lines: LazyLines,
) {
    let mut ended = false;
    loop {
        let line = if let Some(line) = queue.pop_front() {
            line
        } else if let Some(running) = work.as_mut() {
            tokio::select! {
                biased;
                Some(line) = lines.recv() => line,
                finished = running => {
                    work = None;
                    while let Some(line) = lines.try_recv() {
                        queue.push_back(line);
                    }
                    let finished: Option<_> = finished.into();
                    queue.extend(finished.map(|reply| reply.line));
                    continue;
                }
            }
        } else {
            break;
        };
        // The handler's answer comes last, once it finished.
        let last = work.is_none() && queue.is_empty();
        if line == CLOSE_STREAM {
            // The handler asked to end the client's stream; it resumes with Last-Event-ID.
            session.relays.lock().insert(stream, None);
            if last {
                store.end(&session.id, stream).await;
                ended = true;
            }
            continue;
        }
        let appended = if last {
            ended = true;
            store.append_last(&session.id, stream, &line).await
        } else {
            store.append(&session.id, stream, &line).await
        };
        let id = appended.unwrap_or_default();
        let mut relays = session.relays.lock();
        if let Some(Some(listener)) = relays.get(&stream) {
            match listener.try_send((id, line)) {
                Ok(()) => {}
                Err(TrySendError::Full(_)) => {
                    tracing::debug!(session = %session.id, stream, "the client reads too slowly; its stream ends, and it can resume");
                    relays.insert(stream, None);
                }
                Err(TrySendError::Closed(_)) => {
                    relays.insert(stream, None);
                }
            }
        }
    }
    session.relays.lock().remove(&stream);
    if !ended {
        // It stopped without an answer (cancelled): followers must not wait for one.
        store.end(&session.id, stream).await;
    }
}

/// `GET` with `Last-Event-ID`: the missed events of that stream, then the rest live (when it is
/// still running, here or, with a shared store, on another replica); `None` when the id is
/// unknown.
pub(super) async fn resume(
    endpoint: &Endpoint,
    session: &Arc<HttpSession>,
    last_event_id: &str,
) -> Option<Response> {
    let store = &endpoint.events;
    let (stream, mut missed) = store.after(&session.id, last_event_id).await?;
    let (listener, live) = mpsc::channel(endpoint.core.limits.max_queued_messages);
    let running_here = {
        let mut relays = session.relays.lock();
        let running = relays.contains_key(&stream);
        if running {
            relays.insert(stream, Some(listener));
        }
        running
    };
    let activity = session.activity();
    let live: futures_util::stream::BoxStream<'static, (String, String)> = if running_here {
        // Events stored between the replay and the listener's arrival: read them again, and
        // skip their live copies.
        let since = missed.last().map_or(last_event_id, |(id, _)| id.as_str());
        if let Some((_, more)) = store.after(&session.id, since).await {
            missed.extend(more);
        }
        let replayed: std::collections::HashSet<String> =
            missed.iter().map(|(id, _)| id.clone()).collect();
        let mut live = live;
        futures_util::stream::poll_fn(move |cx| live.poll_recv(cx))
            .filter(move |(id, _)| std::future::ready(!replayed.contains(id)))
            .boxed()
    } else {
        let since = missed.last().map_or(last_event_id, |(id, _)| id.as_str());
        match store.follow(&session.id, stream, since) {
            Some(remote) => remote,
            None => futures_util::stream::empty().boxed(),
        }
    };
    let opened = session
        .resumed
        .open(stream, endpoint.max_resumed_streams, &session.closed);
    let ended = opened.ended.clone().cancelled_owned();
    let open = Open {
        session: session.clone(),
        number: opened.number,
    };
    let live = live.map(move |event| {
        let _connected = (&activity, &open);
        event
    });
    let events = futures_util::stream::iter(missed)
        .chain(live)
        .take_until(ended);
    Some(sse::stream_with_ids(None, events, endpoint.keep_alive))
}

/// Holds a resumed GET's place among the session's; gives it back when the GET ends.
struct Open {
    session: Arc<HttpSession>,
    number: u64,
}

impl Drop for Open {
    fn drop(&mut self) {
        self.session.resumed.close(self.number);
    }
}
