//! One client connection over a message-per-line transport (stdio, in-memory): reads messages,
//! serves requests concurrently, honours cancellation, and shuts down cleanly at end of input.

use super::exchange::{Exchange, Sink};
use super::handshake::Handshake;
use super::router::handle;
use crate::context::Outbound;
use crate::protocol::cancelled::CancelledParams;
use crate::protocol::jsonrpc::{ErrorObject, Incoming, Notification, RequestId, code, error_line};
use crate::protocol::methods::CANCELLED;
use crate::server::core::ServerCore;
use futures_util::{Stream, StreamExt};
use std::sync::Arc;
use tokio::task::JoinSet;

pub(crate) use crate::wire::lines::ReadError;

/// Serves one connection until the input ends, then lets in-flight requests finish (within the
/// shutdown grace) before returning.
pub(crate) async fn serve<S>(core: Arc<ServerCore>, mut input: S, outbound: Outbound)
where
    S: Stream<Item = Result<String, ReadError>> + Unpin,
{
    let exchange = Arc::new(Exchange {
        core: core.clone(),
        session: Arc::new(Handshake::default()),
        sink: Sink::Given(outbound.clone()),
        headers: None,
        principal: None,
        subject: None,
        grant: core.local_grant.clone(),
        mismatch: None,
    });
    let mut tasks = JoinSet::new();
    let forwarding = tokio::spawn(forward_changes(exchange.clone()));
    loop {
        tokio::select! {
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            message = input.next() => match message {
                None => break,
                Some(Err(ReadError::Io(error))) => {
                    tracing::warn!(%error, "reading from the client failed; closing");
                    break;
                }
                Some(Err(ReadError::TooLong)) => {
                    let limit = core.limits.max_message_bytes;
                    let error = ErrorObject::new(
                        code::INVALID_REQUEST,
                        format!("Invalid Request: message longer than {limit} bytes"),
                    );
                    outbound.send(error_line(None, &error)).await;
                }
                Some(Err(ReadError::NotUtf8)) => {
                    let error = ErrorObject::new(
                        code::PARSE_ERROR,
                        "Parse error: the message is not valid UTF-8",
                    );
                    outbound.send(error_line(None, &error)).await;
                }
                Some(Ok(line)) => dispatch(&exchange, &mut tasks, &line).await,
            },
        }
    }
    forwarding.abort();
    exchange.session.close();
    exchange.session.record_end("pipe");
    let grace = core.limits.shutdown_grace;
    let drained = tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} });
    if drained.await.is_err() {
        tracing::warn!(
            ?grace,
            "requests still running after the client left; cancelling them"
        );
        tasks.abort_all();
    }
}

async fn dispatch(exchange: &Arc<Exchange>, tasks: &mut JoinSet<()>, line: &str) {
    if line.trim().is_empty() {
        return;
    }
    match Incoming::parse(line) {
        Err(rejected) => {
            exchange
                .outbound()
                .send(error_line(rejected.id.as_ref(), &rejected.error))
                .await;
        }
        Ok(Incoming::Request(request)) => {
            let id = request.id.clone();
            let task_exchange = exchange.clone();
            // Spawned and tracked under one lock, so the task cannot finish before it is tracked.
            let session = exchange.session.clone();
            let limit = exchange.core.limits.max_requests_in_flight;
            let started = session.track_with(id.clone(), limit, || {
                let id = id.clone();
                // Boxed before it is spawned: the task's cell then holds a pointer, and the
                // request's whole future is not copied into it, nor again when it finishes.
                tasks
                    .spawn(Box::pin(async move {
                        let line = handle(&task_exchange, request).await;
                        if task_exchange.session.finish(&id) {
                            task_exchange.outbound().send(line).await;
                        }
                    }))
                    .into()
            });
            if let Err(refused) = started {
                let error = refused.error(&id);
                exchange
                    .outbound()
                    .send(error_line(Some(&id), &error))
                    .await;
            }
        }
        Ok(Incoming::Notification(notification)) => {
            // One connection: a request not running here is not running.
            let _ = notify(&exchange.session, notification);
        }
        Ok(Incoming::Response(response)) => {
            let id = response.id.clone();
            if !exchange.session.client_requests().complete(response) {
                tracing::debug!(%id, "response to an unknown server request; ignored");
            }
        }
    }
}

/// Sends the session its change notifications (2025-11-25), for as long as the connection lives.
async fn forward_changes(exchange: Arc<Exchange>) {
    let mut changes = exchange.core.notifier.subscribe();
    loop {
        match changes.recv().await {
            Ok(change) => {
                if let Some(line) = exchange
                    .session
                    .change_line(&change, &exchange.core.capabilities)
                {
                    exchange.outbound().send(line).await;
                }
            }
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// Acts on a client notification: `notifications/cancelled` stops the request it names; the
/// others need nothing from the server.
pub(crate) fn notify(session: &Handshake, notification: Notification) -> Option<RequestId> {
    if notification.method != CANCELLED {
        return None;
    }
    let params = notification.params?;
    match serde_json::from_str(params.get()) {
        Ok(CancelledParams {
            request_id: Some(id),
            ..
        }) if !session.cancel(&id) => Some(id),
        _ => None,
    }
}
