//! The accept loop: hyper via `axum::serve`, `TCP_NODELAY` on every accepted socket (without
//! it, small SSE writes wait ~40 ms for a delayed ACK), the peer address of every connection in
//! its [`Front`] (so anonymous sessions are counted per network), and graceful shutdown.

use super::front::Front;
use crate::error::Result;
use axum::serve::ListenerExt;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Serves `front` on `listener` until `signal` completes. Then `shutdown` is cancelled (sessions
/// end, their GET streams close), no new connection is accepted, and in-flight requests get
/// `grace` to finish before they are dropped.
pub(super) async fn run(
    listener: TcpListener,
    front: Front,
    shutdown: CancellationToken,
    signal: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> Result<()> {
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
    });
    let trigger = shutdown.clone();
    let stopping = async move {
        signal.await;
        trigger.cancel();
    };
    let serving = axum::serve(listener, front).with_graceful_shutdown(stopping);
    tokio::select! {
        served = serving.into_future() => Ok(served?),
        () = async { shutdown.cancelled().await; tokio::time::sleep(grace).await } => {
            tracing::warn!(?grace, "requests still running after the shutdown grace; dropping them");
            Ok(())
        }
    }
}
