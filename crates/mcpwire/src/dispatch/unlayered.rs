//! Requests the server answers before its layers run (`initialize`, and requests refused by
//! authorization, for something unknown, or for malformed parameters): with the `otel` feature
//! and an [`otel::Tracing`](crate::otel::Tracing) layer added server-wide, they are traced here,
//! since no layer saw them.

use super::era::Served;
use super::exchange::Exchange;
use super::reply::Reply;
use crate::otel::Tracing;
use crate::otel::tracing::Unlayered;
use crate::protocol::{Era, ErrorObject, RequestId};
use std::cell::Cell;
use std::future::Future;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

tokio::task_local! {
    /// Whether the request being served has reached the server's layers.
    static REACHED: Cell<bool>;
}

/// Notes that the request being served reached the server's layers.
pub(crate) fn reached_layers() {
    let _ = REACHED.try_with(|reached| reached.set(true));
}

/// What is known of a request when it arrives, for its span should it not reach the layers.
pub(crate) struct Arrival {
    tracing: Tracing,
    id: RequestId,
    method: String,
    protocol_version: Option<Arc<str>>,
    remote: Option<Arc<crate::wire::trace::RemoteTrace>>,
    era: Option<Era>,
    started: (Instant, SystemTime),
}

/// The arrival of request `id` (`method`, classified as `served`), when the server traces.
pub(crate) fn arrival(
    exchange: &Exchange,
    (id, method): (&RequestId, &str),
    served: Option<&Result<Served, ErrorObject>>,
) -> Option<Arrival> {
    let tracing = exchange.core.tracing.as_ref()?;
    let served = served.and_then(|served| served.as_ref().ok());
    Some(Arrival {
        tracing: tracing.clone(),
        id: id.clone(),
        method: method.to_owned(),
        protocol_version: served.map(|served| served.protocol_version.clone()),
        remote: served.and_then(|served| served.remote_trace.clone()),
        era: served.map(|served| served.era),
        started: (Instant::now(), SystemTime::now()),
    })
}

impl Arrival {
    /// Serves the request (`answering`), and traces it when it never reached the layers.
    pub(crate) async fn answer(
        self,
        exchange: &Exchange,
        answering: impl Future<Output = Reply>,
    ) -> Reply {
        let (reply, reached) = REACHED
            .scope(Cell::new(false), async {
                let reply = answering.await;
                (reply, REACHED.with(Cell::get))
            })
            .await;
        if !reached {
            self.record(exchange, &reply);
        }
        reply
    }

    fn record(&self, exchange: &Exchange, reply: &Reply) {
        let headers = exchange.headers.as_deref();
        let session_id = headers
            .filter(|_| self.era == Some(Era::Legacy))
            .and_then(|headers| headers.get("mcp-session-id")?.to_str().ok());
        let remote = self.remote.as_ref().and_then(|remote| remote.context());
        self.tracing.record_unlayered(Unlayered {
            method: &self.method,
            request_id: &self.id,
            protocol_version: self.protocol_version.as_deref(),
            session_id,
            transport: if headers.is_some() { "tcp" } else { "pipe" },
            remote,
            started: self.started,
            error_code: reply.error_code,
        });
    }
}
