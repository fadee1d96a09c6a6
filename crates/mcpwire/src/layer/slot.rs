//! [`Slot`]: where a layered request's way through the stack meets the dispatcher. The bottom
//! of the stack hands the request back through it (the handler borrows the dispatcher's frame, so
//! it cannot run inside the `'static` stack), and the handler's response goes down through it.
//! Generic over the request, so that the request can carry its slot.

use super::response::McpResponse;
use crate::protocol::ErrorObject;
use std::cell::Cell;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context as TaskContext, Poll, Waker};

/// Where a request's way through the stack meets the dispatcher: one per layered request,
/// shared by the dispatcher and the bottom of the stack (which may run on another task, if a
/// layer spawned it). The request goes back through it, and the handler's response comes down.
pub(crate) struct Slot<Q> {
    state: Mutex<SlotState<Q>>,
}

struct SlotState<Q> {
    stage: Stage<Q>,
    /// The dispatcher's task, while it waits for the request or runs the handler.
    dispatcher: Option<Waker>,
    /// The task of the bottom of the stack, while it waits for the response.
    endpoint: Option<Waker>,
    /// The bottom of the stack was last polled from inside the dispatcher's own poll of the
    /// stack (see [`Polling`]).
    endpoint_inside: bool,
}

thread_local! {
    /// The slot whose dispatcher is polling its stack on this thread, by address (0: none).
    static POLLING: Cell<usize> = const { Cell::new(0) };
}

/// Marks, while it lives, that the dispatcher of `slot` polls its stack on this thread: the
/// bottom of the stack polled meanwhile is polled from inside it, and the dispatcher looks at
/// the slot right after, so nobody needs to be woken. Restores the mark it replaced (a handler
/// may run a layered request of its own).
pub(crate) struct Polling(usize);

impl Polling {
    pub(crate) fn enter<Q>(slot: &Arc<Slot<Q>>) -> Self {
        Self(POLLING.replace(address(slot)))
    }
}

impl Drop for Polling {
    fn drop(&mut self) {
        POLLING.set(self.0);
    }
}

fn address<Q>(slot: &Arc<Slot<Q>>) -> usize {
    Arc::as_ptr(slot) as usize
}

/// Whether the dispatcher of `slot` is polling its stack on this thread.
fn inside<Q>(slot: &Arc<Slot<Q>>) -> bool {
    POLLING.get() == address(slot)
}

enum Stage<Q> {
    /// The request is on its way down the stack.
    Down,
    /// The bottom of the stack handed it back; the dispatcher has not taken it yet.
    Handed(Q),
    /// The dispatcher runs the handler.
    Running,
    /// The handler's response, for the bottom of the stack.
    Answered(McpResponse),
    /// The bottom of the stack took the response, or was dropped.
    Closed,
    /// The dispatcher is gone (its request was dropped): no response will come.
    Gone,
}

/// Stores `waker` unless `slot` already holds one that wakes the same task.
fn register(slot: &mut Option<Waker>, waker: &Waker) {
    match slot {
        Some(held) if held.will_wake(waker) => {}
        _ => *slot = Some(waker.clone()),
    }
}

impl<Q> Slot<Q> {
    pub(crate) fn new() -> Self {
        Self {
            state: Mutex::new(SlotState {
                stage: Stage::Down,
                dispatcher: None,
                endpoint: None,
                endpoint_inside: false,
            }),
        }
    }

    /// Makes a used slot new again, for another request (see `service.rs`'s spare slots): only
    /// its one owner can (no lock needed).
    pub(crate) fn reset(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        state.stage = Stage::Down;
        state.dispatcher = None;
        state.endpoint = None;
        state.endpoint_inside = false;
    }

    fn lock(&self) -> MutexGuard<'_, SlotState<Q>> {
        // Nothing panics while the lock is held; a poisoned lock is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The bottom of the stack hands the request back, and waits for the response. The
    /// dispatcher is woken unless this runs inside its poll (it takes the request next).
    pub(crate) fn hand(
        self: &Arc<Self>,
        request: Q,
        cx: &mut TaskContext<'_>,
    ) -> Poll<McpResponse> {
        let inside = inside(self);
        let waker = {
            let mut state = self.lock();
            match state.stage {
                Stage::Down => state.stage = Stage::Handed(request),
                // The dispatcher is gone (not reached otherwise: a request carries its slot
                // once).
                _ => return Poll::Ready(McpResponse::error(ErrorObject::internal())),
            }
            // Inside the dispatcher's poll, nobody needs to wake the bottom of the stack when
            // the response is there: the dispatcher polls the stack right after leaving it
            // (and a bottom of the stack polled elsewhere later registers its waker then).
            if !inside {
                register(&mut state.endpoint, cx.waker());
            }
            state.endpoint_inside = inside;
            state.dispatcher.take()
        };
        if let Some(waker) = waker
            && !inside
        {
            waker.wake();
        }
        Poll::Pending
    }

    /// The bottom of the stack waits for the response.
    pub(crate) fn poll_response(self: &Arc<Self>, cx: &mut TaskContext<'_>) -> Poll<McpResponse> {
        let inside = inside(self);
        let mut state = self.lock();
        match std::mem::replace(&mut state.stage, Stage::Closed) {
            Stage::Answered(response) => Poll::Ready(response),
            Stage::Gone | Stage::Closed | Stage::Down => {
                Poll::Ready(McpResponse::error(ErrorObject::internal()))
            }
            waiting @ (Stage::Handed(_) | Stage::Running) => {
                state.stage = waiting;
                register(&mut state.endpoint, cx.waker());
                state.endpoint_inside = inside;
                Poll::Pending
            }
        }
    }

    /// The bottom of the stack was dropped before it took the response.
    pub(crate) fn abandon(&self) {
        let (waker, request) = {
            let mut state = self.lock();
            let request = match std::mem::replace(&mut state.stage, Stage::Closed) {
                Stage::Handed(request) => Some(request),
                // Closed already, or the dispatcher is gone: nobody to tell.
                Stage::Closed | Stage::Gone => return,
                Stage::Down | Stage::Running | Stage::Answered(_) => None,
            };
            (state.dispatcher.take(), request)
        };
        // Dropped outside the lock (it may hold anything a layer put in its context).
        drop(request);
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// The dispatcher takes the request once it was handed back; until then it is woken when
    /// it is.
    pub(crate) fn take(&self, cx: &mut TaskContext<'_>) -> Option<Q> {
        let mut state = self.lock();
        match std::mem::replace(&mut state.stage, Stage::Running) {
            Stage::Handed(request) => Some(request),
            Stage::Down => {
                state.stage = Stage::Down;
                register(&mut state.dispatcher, cx.waker());
                None
            }
            // The bottom of the stack was dropped before the request was taken: the stack
            // answers by itself.
            other => {
                state.stage = other;
                None
            }
        }
    }

    /// Whether the bottom of the stack was dropped while the handler runs; if not, the
    /// dispatcher is woken when it is.
    pub(crate) fn abandoned(&self, cx: &mut TaskContext<'_>) -> bool {
        let mut state = self.lock();
        if matches!(state.stage, Stage::Closed) {
            return true;
        }
        register(&mut state.dispatcher, cx.waker());
        false
    }

    /// The dispatcher leaves the handler's response for the bottom of the stack. Waking it is
    /// left out when it waits inside the dispatcher's poll of the stack, with the dispatcher's
    /// waker: the dispatcher polls the stack next, with that waker.
    pub(crate) fn answer(&self, response: McpResponse, cx: &mut TaskContext<'_>) {
        let (waker, inside) = {
            let mut state = self.lock();
            if !matches!(state.stage, Stage::Running) {
                // Closed: nobody waits for it.
                return;
            }
            state.stage = Stage::Answered(response);
            (state.endpoint.take(), state.endpoint_inside)
        };
        if let Some(waker) = waker
            && !(inside && waker.will_wake(cx.waker()))
        {
            waker.wake();
        }
    }

    /// The dispatcher is gone: the bottom of the stack, if it waits, answers by itself.
    pub(crate) fn leave(&self) {
        let (waker, stale) = {
            let mut state = self.lock();
            let stale = match std::mem::replace(&mut state.stage, Stage::Gone) {
                Stage::Handed(request) => Some(request),
                Stage::Down | Stage::Running => None,
                // The response is there, or was taken.
                done @ (Stage::Answered(_) | Stage::Closed | Stage::Gone) => {
                    state.stage = done;
                    return;
                }
            };
            (state.endpoint.take(), stale)
        };
        drop(stale);
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}
