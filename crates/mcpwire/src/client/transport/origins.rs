//! Which of the client's requests a server's request came during. On 2025-11-25 HTTP a server
//! sends the requests it makes while handling one of the client's (an elicitation of a tool
//! call) on that request's event stream, though the request names no call: the stream it came
//! on is recorded here, under the server's request id, for the peer to find the call by. Each
//! record is taken once; at most [`MAX_ORIGINS`] wait at a time (beyond, none is recorded).

use crate::protocol::RequestId;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Mutex;

/// How many records may wait to be taken.
pub(crate) const MAX_ORIGINS: usize = 256;

/// The client's request (its number) each recent server request came during.
#[derive(Debug, Default)]
pub(crate) struct Origins(Mutex<HashMap<RequestId, i64>>);

/// What tells a server's request from a response or a notification.
#[derive(Deserialize)]
struct Probe {
    id: Option<RequestId>,
    method: Option<serde::de::IgnoredAny>,
}

impl Origins {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, i64>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records that `message`, when it is a server's request, came on the stream of the
    /// client's request `call`.
    pub(crate) fn record(&self, message: &str, call: i64) {
        let Ok(Probe {
            id: Some(id),
            method: Some(_),
        }) = serde_json::from_str(message)
        else {
            return;
        };
        let mut origins = self.lock();
        if origins.len() < MAX_ORIGINS {
            origins.insert(id, call);
        }
    }

    /// The client's request the server's request `id` came during, once.
    pub(crate) fn take(&self, id: &RequestId) -> Option<i64> {
        self.lock().remove(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_servers_request_is_recorded_and_each_is_taken_once() {
        let origins = Origins::default();
        let id = RequestId::String("s-1".into());
        origins.record(r#"{"jsonrpc":"2.0","id":"s-1","method":"roots/list"}"#, 7);
        origins.record(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#, 7);
        origins.record(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#, 7);
        assert_eq!(origins.lock().len(), 1);
        assert_eq!(origins.take(&id), Some(7));
        assert_eq!(origins.take(&id), None);
    }

    #[test]
    fn the_records_are_bounded() {
        let origins = Origins::default();
        for n in 0..MAX_ORIGINS + 10 {
            origins.record(&format!(r#"{{"id":{n},"method":"roots/list"}}"#), 1);
        }
        assert_eq!(origins.lock().len(), MAX_ORIGINS);
    }
}
