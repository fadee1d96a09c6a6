//! The requests a client has in flight on one connection (stdio) or session (HTTP), by id: so
//! `notifications/cancelled` stops the right one, a second request reusing the id of a running
//! one is refused (rather than taking over its id, losing its answer), and a client cannot run
//! more than the server's limit at once.

use crate::protocol::jsonrpc::{ErrorObject, RequestId, code};
use crate::wire::fast_map::FastMap;
use std::collections::hash_map::Entry;
use std::sync::{Mutex, MutexGuard};

/// The running requests of one client, each with the handle that stops it ([`FastMap`]: each
/// request is entered and removed).
#[derive(Default)]
pub(crate) struct InFlight {
    tasks: Mutex<FastMap<RequestId, Stopper>>,
}

/// What stops a running request: the task it runs on (stdio), or the future it runs as inside
/// its response (an HTTP session's).
pub(crate) enum Stopper {
    /// A task of its own.
    Task(tokio::task::AbortHandle),
    /// A future made abortable.
    Future(futures_util::future::AbortHandle),
}

impl Stopper {
    fn stop(&self) {
        match self {
            Stopper::Task(task) => task.abort(),
            Stopper::Future(future) => future.abort(),
        }
    }
}

impl From<tokio::task::AbortHandle> for Stopper {
    fn from(task: tokio::task::AbortHandle) -> Self {
        Stopper::Task(task)
    }
}

impl From<futures_util::future::AbortHandle> for Stopper {
    fn from(future: futures_util::future::AbortHandle) -> Self {
        Stopper::Future(future)
    }
}

/// Why a request was not started.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// A request with the same id is still running.
    Duplicate,
    /// The client already has `limit` requests running.
    Busy {
        /// The limit the client reached.
        limit: usize,
    },
}

impl Refused {
    /// The JSON-RPC error the refused request is answered with.
    pub(crate) fn error(&self, id: &RequestId) -> ErrorObject {
        match self {
            Refused::Duplicate => ErrorObject::new(
                code::INVALID_REQUEST,
                format!("Invalid Request: a request with id {id} is already in flight"),
            ),
            Refused::Busy { limit } => ErrorObject::new(
                code::SERVER_BUSY,
                format!("Server busy: {limit} requests in flight; retry later"),
            ),
        }
    }
}

impl InFlight {
    fn lock(&self) -> MutexGuard<'_, FastMap<RequestId, Stopper>> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a request with `spawn` and remembers what stops it under `id`, unless `id` is
    /// already running or `limit` requests are. A task is spawned while the table is locked, so
    /// it cannot finish before it is remembered.
    pub(crate) fn start(
        &self,
        id: RequestId,
        limit: usize,
        spawn: impl FnOnce() -> Stopper,
    ) -> Result<(), Refused> {
        let mut tasks = self.lock();
        if tasks.len() >= limit && !tasks.contains_key(&id) {
            return Err(Refused::Busy { limit });
        }
        match tasks.entry(id) {
            Entry::Occupied(_) => Err(Refused::Duplicate),
            Entry::Vacant(slot) => {
                slot.insert(spawn());
                Ok(())
            }
        }
    }

    /// Forgets a finished request; `false` when it was cancelled meanwhile (its response must
    /// not be sent).
    pub(crate) fn finish(&self, id: &RequestId) -> bool {
        self.lock().remove(id).is_some()
    }

    /// Stops a running request; `false` when none runs under `id`.
    pub(crate) fn cancel(&self, id: &RequestId) -> bool {
        let task = self.lock().remove(id);
        task.map(|task| task.stop()).is_some()
    }

    /// Stops every running request (the session ended).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn cancel_all(&self) {
        for (_, task) in self.lock().drain() {
            task.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parked() -> Stopper {
        tokio::spawn(std::future::pending::<()>())
            .abort_handle()
            .into()
    }

    #[tokio::test]
    async fn refuses_a_running_id_and_requests_over_the_limit() {
        let in_flight = InFlight::default();
        let one = RequestId::Number(1);
        assert_eq!(in_flight.start(one.clone(), 2, parked), Ok(()));
        assert_eq!(
            in_flight.start(one.clone(), 2, || unreachable!()),
            Err(Refused::Duplicate)
        );
        assert_eq!(in_flight.start(RequestId::Number(2), 2, parked), Ok(()));
        assert_eq!(
            in_flight.start(RequestId::Number(3), 2, || unreachable!()),
            Err(Refused::Busy { limit: 2 })
        );
        assert_eq!(
            in_flight.start(one.clone(), 2, || unreachable!()),
            Err(Refused::Duplicate),
            "a duplicate at the limit is named a duplicate"
        );
        assert!(in_flight.cancel(&one));
        assert!(
            !in_flight.finish(&one),
            "a cancelled request sends no answer"
        );
        assert_eq!(in_flight.start(RequestId::Number(3), 2, parked), Ok(()));
        in_flight.cancel_all();
        assert!(!in_flight.cancel(&RequestId::Number(2)));
        assert_eq!(in_flight.start(RequestId::Number(4), 2, parked), Ok(()));
    }
}
