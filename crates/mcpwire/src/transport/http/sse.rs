//! Server-sent events: each JSON-RPC line is one `message` event. Responses carry
//! `X-Accel-Buffering: no` (so proxies pass events at once) and a `:` comment every
//! `keep_alive` (so idle streams survive proxies, and a gone client is noticed).

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
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

/// A `text/event-stream` of `(id, line)` events, after an optional priming event (an id, a
/// reconnection delay and empty data) so the client can resume with `Last-Event-ID`.
///
/// Written by hand rather than with axum's `Event`, which cannot express the priming event's
/// empty `data:` field (without it, the event is not dispatched to the client's listeners).
pub(super) fn stream_with_ids<S>(
    priming: Option<(String, Duration)>,
    events: S,
    keep_alive: Duration,
) -> Response
where
    S: Stream<Item = (String, String)> + Send + 'static,
{
    let priming = futures_util::stream::iter(priming.map(|(id, retry)| {
        Bytes::from(format!(
            "id: {id}\nretry: {}\ndata: \n\n",
            retry.as_millis()
        ))
    }));
    // An event the store could not keep has no id: the client cannot resume from it.
    let events = events.map(|(id, line)| match id.as_str() {
        "" => Bytes::from(format!("event: message\ndata: {line}\n\n")),
        id => Bytes::from(format!("event: message\nid: {id}\ndata: {line}\n\n")),
    });
    let body = priming
        .chain(events)
        .map(Some)
        .chain(futures_util::stream::iter([None]));
    let pings = futures_util::stream::unfold((), move |()| async move {
        tokio::time::sleep(keep_alive).await;
        Some((Some(Bytes::from_static(b":\n\n")), ()))
    });
    let body = futures_util::stream::select(body, pings)
        .take_while(|chunk| std::future::ready(chunk.is_some()))
        .filter_map(std::future::ready)
        .map(Ok::<_, Infallible>);
    let response = Response::builder()
        .header(http::header::CONTENT_TYPE, "text/event-stream")
        .header(http::header::CACHE_CONTROL, "no-cache")
        .body(axum::body::Body::from_stream(body))
        .expect("a valid response");
    unbuffered(response)
}
