//! GET: the standalone SSE stream of a 2025-11-25 session, for server messages unrelated to any
//! request (list changes, updates of subscribed resources). It ends with the session.
//!
//! A session has one: a new GET replaces the stream open before, which ends. So a client that
//! reconnects before the server noticed its old connection drop gets its stream at once, and
//! a client cannot pile streams up; several would each carry every notification, where the
//! spec puts each message on exactly one stream.
//!
//! 2026-07-28 has no GET stream (`405`), nor has a request without a session. With
//! `Last-Event-ID`, a GET resumes the request stream that event belongs to instead, bounded the
//! same way (`resumed.rs`): one per request stream, and `max_resumed_streams` (8) per session,
//! one more ending the oldest. An id the
//! server does not know (never issued, or its events no longer kept) opens a fresh standalone
//! stream with nothing replayed: the spec answers a GET with a stream or `405`, and `404` would
//! tell a 2025-11-25 client its session is gone.

use super::caller::Caller;
use super::endpoint::Endpoint;
use super::legacy::session_of;
use super::{resume, sse};
use crate::dispatch::handshake::Handshake;
use crate::server::core::ServerCore;
use axum::extract::{Request, State};
use axum::response::Response;
use futures_util::StreamExt;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

pub(super) async fn handle(State(endpoint): State<Arc<Endpoint>>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let caller = Caller::of(&parts, &endpoint.trusted_proxies);
    let headers = parts.headers;
    let session = match session_of(&endpoint, &headers, &caller).await {
        Ok(session) => session,
        Err(refusal) => return refusal.into_response(None),
    };
    if let Some(last) = headers.get("last-event-id") {
        let resumed = match last.to_str() {
            Ok(last) => resume::resume(&endpoint, &session, last).await,
            Err(_) => None,
        };
        if let Some(resumed) = resumed {
            return resumed;
        }
        tracing::debug!(session = %session.id, "unknown Last-Event-ID; a fresh stream, no replay");
    }
    let ended = session.open_standalone();
    let activity = session.activity();
    let stream = change_lines(endpoint.core.clone(), session.session.clone())
        .take_until(ended.cancelled_owned())
        .map(move |line| {
            let _connected = &activity;
            line
        });
    sse::stream(stream, endpoint.keep_alive)
}

/// The session's change notifications (list changes, updates of subscribed resources).
fn change_lines(
    core: Arc<ServerCore>,
    session: Arc<Handshake>,
) -> impl futures_util::Stream<Item = String> + Send + 'static {
    let changes = core.notifier.subscribe();
    let state = (changes, core, session);
    futures_util::stream::unfold(state, |(mut changes, core, session)| async move {
        loop {
            match changes.recv().await {
                Ok(change) => {
                    if let Some(line) = session.change_line(&change, &core.capabilities) {
                        return Some((line, (changes, core, session)));
                    }
                }
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
        }
    })
}
