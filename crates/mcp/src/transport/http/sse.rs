//! Server-sent events: each JSON-RPC line is one `message` event. Responses carry
//! `X-Accel-Buffering: no` (so proxies pass events at once) and a `:` comment every
//! `keep_alive` (so idle streams survive proxies, and a gone client is noticed).

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::{Stream, StreamExt};
use http::HeaderValue;
use std::convert::Infallible;
use std::time::Duration;

/// A `text/event-stream` response carrying `lines`.
pub(super) fn stream<S>(lines: S, keep_alive: Duration) -> Response
where
    S: Stream<Item = String> + Send + 'static,
{
    let events =
        lines.map(|line| Ok::<_, Infallible>(Event::default().event("message").data(line)));
    unbuffered(
        Sse::new(events)
            .keep_alive(KeepAlive::new().interval(keep_alive))
            .into_response(),
    )
}

/// Tells proxies to pass events on at once.
fn unbuffered(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// A `text/event-stream` of `(id, line)` events, after an optional empty priming event with the
/// given id, so the client can resume with `Last-Event-ID`.
pub(super) fn stream_with_ids(
    priming: Option<String>,
    mut events: tokio::sync::mpsc::UnboundedReceiver<(String, String)>,
    keep_alive: Duration,
) -> Response {
    let priming = futures_util::stream::iter(priming.map(|id| Event::default().id(id).data("")));
    let events = futures_util::stream::poll_fn(move |cx| events.poll_recv(cx))
        .map(|(id, line)| Event::default().event("message").id(id).data(line));
    let events = priming.chain(events).map(Ok::<_, Infallible>);
    unbuffered(
        Sse::new(events)
            .keep_alive(KeepAlive::new().interval(keep_alive))
            .into_response(),
    )
}
