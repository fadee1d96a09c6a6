//! Requests the server sends to the client (2025-11-25 sessions only): `elicitation/create`,
//! `sampling/createMessage`, `roots/list`. Each waits for the client's response, routed back by
//! id, with a timeout; dropping the wait (the tool call was cancelled) forgets the request.

use super::observer::{Ending, RequestObserver};
use super::outbound::Outbound;
use crate::protocol::cancelled::CancelledParams;
use crate::protocol::jsonrpc::{
    ErrorObject, RequestId, ResponseIn, notification_line, request_line,
};
use crate::protocol::methods::CANCELLED;
use serde::Serialize;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// Why a request to the client got no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum ClientRequestError {
    /// The client answered with a JSON-RPC error.
    #[error("the client answered {0}")]
    Rejected(ErrorObject),
    /// The client did not answer in time.
    #[error("the client did not answer within {0:?}")]
    TimedOut(Duration),
    /// The connection to the client is gone.
    #[error("the client is gone")]
    Disconnected,
    /// The request is served under 2026-07-28, where servers send no requests (questions
    /// travel as `input_required` results instead).
    #[error("a 2026-07-28 request cannot send requests to the client")]
    NoBackChannel,
}

/// 32 random bits drawn once per process, in the ids of the server's requests: the copies of a
/// session on several replicas never ask under the same id, so an answer relayed to every
/// replica completes one request.
fn process_tag() -> &'static str {
    static TAG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TAG.get_or_init(|| {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).expect("the operating system's random source works");
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    })
}

/// Whether `id` has the form of the server's requests (`s-{tag}-{n}`): an answer another
/// replica of the fleet may be waiting for. No replica issued any other id. (This process's
/// own tag is not excluded: several servers of one process may form a fleet.)
#[cfg(feature = "http")]
pub(crate) fn issued_elsewhere(id: &RequestId) -> bool {
    let RequestId::String(id) = id else {
        return false;
    };
    let mut parts = id.splitn(3, '-');
    let (Some("s"), Some(tag), Some(n)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    tag.len() == 8
        && tag.bytes().all(|b| b.is_ascii_hexdigit())
        && (1..=19).contains(&n.len())
        && n.bytes().all(|b| b.is_ascii_digit())
}

type Answer = Result<Box<RawValue>, ErrorObject>;
type Pending = HashMap<RequestId, oneshot::Sender<Answer>>;

/// The server's outstanding requests to one client session.
#[derive(Debug, Default)]
pub struct ClientRequests {
    next_id: AtomicI64,
    pending: Mutex<Pending>,
}

/// Removes a pending entry when its waiter goes away. A request still pending then was given
/// up on (timed out, or the tool call that asked was cancelled or failed): the client is told
/// with `notifications/cancelled`, so it can close the question it is showing.
struct Forget<'a> {
    requests: &'a ClientRequests,
    outbound: &'a Outbound,
    id: RequestId,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        if self.requests.lock().remove(&self.id).is_some() {
            let params = CancelledParams {
                request_id: Some(self.id.clone()),
                reason: Some("the server no longer needs the answer".to_owned()),
            };
            self.outbound
                .send_soon(notification_line(CANCELLED, &params));
        }
    }
}

impl ClientRequests {
    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `method` with `params` on `outbound` and waits up to `timeout` for the answer.
    pub async fn send<P: Serialize>(
        &self,
        outbound: &Outbound,
        method: &str,
        params: &P,
        timeout: Duration,
    ) -> Result<Box<RawValue>, ClientRequestError> {
        let id = RequestId::String(format!(
            "s-{}-{}",
            process_tag(),
            self.next_id.fetch_add(1, Ordering::Relaxed)
        ));
        let (answer, answered) = oneshot::channel();
        self.lock().insert(id.clone(), answer);
        let _forget = Forget {
            requests: self,
            outbound,
            id: id.clone(),
        };
        if !outbound.send(request_line(&id, method, params)).await {
            return Err(ClientRequestError::Disconnected);
        }
        match tokio::time::timeout(timeout, answered).await {
            Ok(Ok(Ok(result))) => Ok(result),
            Ok(Ok(Err(error))) => Err(ClientRequestError::Rejected(error)),
            Ok(Err(_)) => Err(ClientRequestError::Disconnected),
            Err(_) => Err(ClientRequestError::TimedOut(timeout)),
        }
    }

    /// [`send`](Self::send), watched by `observer`: it may add entries to the request's
    /// `params._meta` (a trace context) and hears how the request ended (never the client's
    /// message: the client chose it, and it may quote answers).
    pub(crate) async fn send_observed<P: Serialize>(
        &self,
        outbound: &Outbound,
        method: &str,
        params: &P,
        timeout: Duration,
        observer: &dyn RequestObserver,
    ) -> Result<Box<RawValue>, ClientRequestError> {
        let mut meta = serde_json::Map::new();
        let Some(observed) = observer.client_request(method, &mut meta) else {
            return self.send(outbound, method, params, timeout).await;
        };
        let mut params = serde_json::to_value(params).unwrap_or(serde_json::Value::Null);
        if let (false, Some(object)) = (meta.is_empty(), params.as_object_mut()) {
            let entry = object
                .entry("_meta")
                .or_insert_with(|| serde_json::Value::Object(Default::default()));
            if let Some(existing) = entry.as_object_mut() {
                existing.extend(meta);
            }
        }
        let answer = self.send(outbound, method, &params, timeout).await;
        observed.end(match &answer {
            Ok(_) => Ending::Done,
            Err(ClientRequestError::Rejected(error)) => Ending::Failed {
                kind: "rejected",
                code: Some(error.code),
            },
            Err(ClientRequestError::TimedOut(_)) => Ending::Failed {
                kind: "timeout",
                code: None,
            },
            Err(_) => Ending::Failed {
                kind: "disconnected",
                code: None,
            },
        });
        answer
    }

    /// Routes a client's response to the request waiting for it. Returns `false` for an id
    /// nothing waits for (unknown, answered, or given up on).
    pub fn complete(&self, response: ResponseIn) -> bool {
        match self.lock().remove(&response.id) {
            Some(waiter) => waiter.send(response.outcome).is_ok(),
            None => false,
        }
    }

    /// As [`complete`](ClientRequests::complete), but gives the response back when nothing
    /// here waits for it (another replica may).
    #[cfg(feature = "http")]
    pub(crate) fn deliver(&self, response: ResponseIn) -> Option<ResponseIn> {
        match self.lock().remove(&response.id) {
            Some(waiter) => {
                let _ = waiter.send(response.outcome);
                None
            }
            None => Some(response),
        }
    }

    /// Fails every outstanding request: the client is gone.
    pub fn disconnect(&self) {
        self.lock().clear();
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    #[test]
    fn only_ids_of_the_servers_own_form_may_be_anothers() {
        let id = |s: &str| RequestId::String(s.to_owned());
        assert!(issued_elsewhere(&id("s-0badc0de-0")));
        assert!(issued_elsewhere(&id(&format!("s-{}-41", process_tag()))));
        for made_up in [
            "s-0badc0de-",
            "s-0badc0de-x1",
            "s-0badc0d-1",
            "s-0badc0dex-1",
            "t-0badc0de-1",
            "s-0badc0de-1-2",
            "s-0badc0de-12345678901234567890",
            "anything",
        ] {
            assert!(!issued_elsewhere(&id(made_up)), "{made_up}");
        }
        assert!(!issued_elsewhere(&RequestId::Number(7)));
    }
}
