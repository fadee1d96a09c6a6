//! One client connection over a message-per-line transport (stdio, in-memory): reads messages,
//! serves requests concurrently, honours cancellation, and shuts down cleanly at end of input.

use super::router::{Exchange, handle};
use super::session::Session;
use crate::context::Outbound;
use crate::protocol::cancelled::CancelledParams;
use crate::protocol::jsonrpc::{ErrorObject, Incoming, Notification, RequestId, code, error_line};
use crate::server::core::ServerCore;
use futures_util::{Stream, StreamExt};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::task::{AbortHandle, JoinSet};

/// A message that could not be read off the transport.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The message was longer than the limit; it was skipped.
    TooLong,
    /// The transport failed; the connection ends.
    Io(std::io::Error),
}

type InFlight = Arc<Mutex<HashMap<RequestId, AbortHandle>>>;

/// Serves one connection until the input ends, then lets in-flight requests finish (within the
/// shutdown grace) before returning.
pub(crate) async fn serve<S>(core: Arc<ServerCore>, mut input: S, outbound: Outbound)
where
    S: Stream<Item = Result<String, ReadError>> + Unpin,
{
    let exchange = Arc::new(Exchange {
        core: core.clone(),
        session: Arc::new(Session::default()),
        outbound: outbound.clone(),
        headers: None,
    });
    let in_flight: InFlight = Arc::default();
    let mut tasks = JoinSet::new();
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
                    outbound.send(error_line(None, &error));
                }
                Some(Ok(line)) => dispatch(&exchange, &in_flight, &mut tasks, &line),
            },
        }
    }
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

fn dispatch(exchange: &Arc<Exchange>, in_flight: &InFlight, tasks: &mut JoinSet<()>, line: &str) {
    if line.trim().is_empty() {
        return;
    }
    match Incoming::parse(line) {
        Err(rejected) => {
            exchange
                .outbound
                .send(error_line(rejected.id.as_ref(), &rejected.error));
        }
        Ok(Incoming::Request(request)) => {
            let id = request.id.clone();
            let exchange = exchange.clone();
            let registry = in_flight.clone();
            let task_id = id.clone();
            let mut guard = in_flight.lock().unwrap_or_else(|e| e.into_inner());
            let handle = tasks.spawn(async move {
                let line = handle(&exchange, request).await;
                let finished = registry
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&task_id);
                if finished.is_some() {
                    exchange.outbound.send(line);
                }
            });
            guard.insert(id, handle);
        }
        Ok(Incoming::Notification(notification)) => notify(in_flight, notification),
        Ok(Incoming::Response(response)) => {
            tracing::debug!(id = %response.id, "response to an unknown server request; ignored");
        }
    }
}

fn notify(in_flight: &InFlight, notification: Notification) {
    if notification.method != "notifications/cancelled" {
        return;
    }
    let Some(params) = notification.params else {
        return;
    };
    let Ok(CancelledParams {
        request_id: Some(id),
        ..
    }) = serde_json::from_str(params.get())
    else {
        return;
    };
    if let Some(task) = in_flight
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id)
    {
        task.abort();
        tracing::debug!(%id, "request cancelled by the client");
    }
}
