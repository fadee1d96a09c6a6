//! The accept loop: a socket is accepted when there is room for it ([`super::connections`]:
//! in total, and for its peer's network), gets `TCP_NODELAY` (without it, small SSE writes wait
//! ~40 ms for a delayed ACK) and is served on a task of its own as one HTTP/1.1 connection by
//! hyper, through a service made of the connection's [`FrontConnection`](super::front) (which
//! knows the peer address, so anonymous sessions are counted per network), until it is idle or
//! stalled for its timeout ([`Watched`]); then graceful shutdown.
//!
//! What `axum::serve` does, with two differences that every request used to pay for:
//! - A connection learns that the server stops from a flag it reads on each wake-up
//!   ([`Watched`]), not from a shutdown future polled beside it on every wake-up (a lock and a
//!   waker update each time).
//! - hyper's HTTP/1.1 connection directly, not its version-detecting wrapper: the server speaks
//!   HTTP/1.1 only (axum is built without `http2`), and a client's HTTP/2 preface is refused as
//!   a malformed HTTP/1.1 request (the connection closed without an answer) instead of as an
//!   unsupported version.

use super::activity::{Activity, Counted, Seen};
use super::connections::{Admissions, ConnectionLimits, REFUSAL};
use super::front::Front;
use crate::error::Result;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::HttpService;
use hyper_util::rt::TokioIo;
use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::sync::futures::OwnedNotified;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// How long the loop waits after an accept error other than a connection's own (out of file
/// descriptors, say) before it accepts again.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_secs(1);

/// Serves `front` on `listener`, within `limits`, until `signal` completes. Then `shutdown` is
/// cancelled (sessions end, their GET streams close), no new connection is accepted, every
/// connection is told to close once its request in flight is answered, and those requests get
/// `grace` to finish before they are dropped.
pub(super) async fn run(
    listener: TcpListener,
    (front, limits): (Front, ConnectionLimits),
    shutdown: CancellationToken,
    signal: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> Result<()> {
    let stopping = Arc::new(Stopping::default());
    let connections = TaskTracker::new();
    let serving = async {
        let served = (&front, &limits);
        accept_until(&listener, served, &stopping, &connections, signal).await;
        shutdown.cancel();
        drop(listener);
        stopping.stop();
        connections.close();
        connections.wait().await;
    };
    tokio::select! {
        () = serving => Ok(()),
        () = async { shutdown.cancelled().await; tokio::time::sleep(grace).await } => {
            tracing::warn!(?grace, "requests still running after the shutdown grace; dropping them");
            Ok(())
        }
    }
}

/// Accepts connections on `listener` within `limits` and serves each on a task `connections`
/// tracks, until `signal` completes.
async fn accept_until(
    listener: &TcpListener,
    (front, limits): (&Front, &ConnectionLimits),
    stopping: &Arc<Stopping>,
    connections: &TaskTracker,
    signal: impl Future<Output = ()>,
) {
    let admissions = Admissions::new(limits, front.trusted_proxies());
    let mut signal = pin!(signal);
    loop {
        let room = tokio::select! {
            biased;
            () = &mut signal => return,
            room = admissions.room() => room,
        };
        let accepted = tokio::select! {
            biased;
            () = &mut signal => return,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) if is_connection_error(&error) => continue,
            Err(error) => {
                tracing::error!(%error, "accepting a connection failed; pausing");
                tokio::select! {
                    () = &mut signal => return,
                    () = tokio::time::sleep(ACCEPT_ERROR_PAUSE) => continue,
                }
            }
        };
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let Some(admitted) = admissions.admit(peer.ip(), room) else {
            refuse(&tcp);
            continue;
        };
        let activity = Arc::new(Activity::default());
        let front = front.connection(peer, Arc::clone(&activity));
        let service = hyper::service::service_fn(move |request| front.serve(request));
        let connection = http1::Builder::new().serve_connection(TokioIo::new(tcp), service);
        let timeout = (!admitted.is_proxied()).then_some(limits.header_read_timeout);
        let idle = (activity, timeout);
        let watched = Watched::new(connection, stopping.clone(), idle);
        connections.spawn(async move {
            if let Err(error) = watched.await {
                tracing::trace!(%error, "a connection ended with an error");
            }
            drop(admitted);
        });
    }
}

/// Tells a connection over its peer's bound so, as far as its socket takes it at once, and
/// closes it (when dropped).
fn refuse(tcp: &TcpStream) {
    tracing::debug!("a connection over its peer's bound refused");
    if let Err(error) = tcp.try_write(REFUSAL) {
        tracing::trace!(%error, "could not tell a refused connection why");
    }
}

/// An error of one connection (refused or reset before it was accepted), not of the listener.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Whether the server stops, for its connections to read.
#[derive(Default)]
struct Stopping {
    stopped: AtomicBool,
    /// Wakes every connection when the server stops.
    notify: Arc<Notify>,
}

impl Stopping {
    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }
}

/// The connection `Watched` serves: hyper's, through the connection's front (`S`: the service
/// made of it, whose future hyper keeps in place).
type Connection<S> = http1::Connection<TokioIo<tokio::net::TcpStream>, S>;

pin_project_lite::pin_project! {
    /// A connection, told to close gracefully (once its request in flight is answered) when the
    /// server stops, and closed when it has been idle, or slow to send a request's head, for
    /// its timeout.
    ///
    /// It waits for the stop with a notification made when it starts (so that a stop after
    /// that is never missed), but polls it only when its task's waker is new: on every other
    /// wake-up it reads the stop's flag, and the notification, which holds the task's waker,
    /// wakes it when the server stops.
    ///
    /// Its deadline is one timer for the whole connection, polled (registered) the same way,
    /// and moved on only when it passes: a connection that started a request since (its front
    /// was handed a head), or that has an answer unfinished whose request's body is not
    /// stalled (read to its end, or a frame of it came since), gets another timeout; any other
    /// is closed. A request's head thus has at most twice the timeout, so has a body between
    /// two of its frames, and an idle connection lasts between one and two.
    struct Watched<S: HttpService<Incoming>> {
        #[pin]
        connection: Connection<S>,
        #[pin]
        stop: OwnedNotified,
        stopping: Arc<Stopping>,
        #[pin]
        deadline: tokio::time::Sleep,
        activity: Arc<Activity>,
        // `None`: the connection is not timed out (a trusted proxy's).
        timeout: Option<Duration>,
        // What the connection had done when the deadline was last set.
        seen: Seen,
        // The waker the stop's notification and the deadline hold; `None` before the first
        // poll.
        registered: Option<Waker>,
        // Whether the connection was told to close.
        told: bool,
    }
}

impl<S: HttpService<Incoming>> Watched<S> {
    fn new(
        connection: Connection<S>,
        stopping: Arc<Stopping>,
        (activity, timeout): (Arc<Activity>, Option<Duration>),
    ) -> Self {
        Watched {
            connection,
            stop: stopping.notify.clone().notified_owned(),
            stopping,
            // Without a timeout, a deadline that never passes (tokio's far future).
            deadline: tokio::time::sleep(timeout.unwrap_or(Duration::MAX)),
            activity,
            timeout,
            seen: Seen::default(),
            registered: None,
            told: false,
        }
    }
}

impl<S> Future for Watched<S>
where
    S: HttpService<Incoming, ResBody = Counted>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Output = hyper::Result<()>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        let new_waker = (this.registered.as_ref()).is_none_or(|waker| !waker.will_wake(cx.waker()));
        if new_waker {
            *this.registered = Some(cx.waker().clone());
        }
        if !*this.told {
            let stopped = this.stopping.stopped.load(Ordering::Acquire)
                || (new_waker && this.stop.as_mut().poll(cx).is_ready());
            if stopped {
                *this.told = true;
                this.connection.as_mut().graceful_shutdown();
            }
        }
        if let Some(timeout) = this.timeout
            && this.deadline.is_elapsed()
        {
            let seen = this.activity.read();
            let last = std::mem::replace(this.seen, seen);
            let no_new_request = seen.started == last.started;
            if no_new_request && seen.all_finished {
                tracing::debug!(
                    ?timeout,
                    "a connection idle or slow to send a request head closed"
                );
                return Poll::Ready(Ok(()));
            }
            if no_new_request && seen.reading && seen.frames == last.frames {
                tracing::debug!(?timeout, "a connection whose request body stalled closed");
                return Poll::Ready(Ok(()));
            }
            let next = tokio::time::Instant::now() + *timeout;
            this.deadline.as_mut().reset(next);
            let _ = this.deadline.as_mut().poll(cx);
        } else if new_waker {
            let _ = this.deadline.as_mut().poll(cx);
        }
        this.connection.poll(cx)
    }
}
