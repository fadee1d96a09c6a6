//! OpenTelemetry (feature `otel`) with callers the server does not trust, the default: raw
//! HTTP requests, as an attacker sends them, against a server traced with `otel::Tracing`,
//! exporting with `otel::init` to a real OTLP/HTTP receiver (`otel_support`), under the
//! default sampler (`parentbased_always_on`): what a caller's `traceparent` may and may not
//! decide.
//! A ratio sampler is in `otel_sampling.rs` (its own process: the sampler is process-wide).
//!
//! Each request carries a `traceparent` with a trace id of its own, so that a test finds the
//! server's span by the link to it.

#![cfg(all(feature = "otel", feature = "client", feature = "http"))]

mod http_support;
mod otel_support;

use http_support::{Running, modern_body, modern_headers};
use mcpwire::prelude::*;
use otel_support::{Exporting, Receiver, SERVER, Span, dump, exporting};
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The receiver, and `otel::init` pointed at it (once per process).
fn receiver() -> &'static Receiver {
    static SETUP: OnceLock<Exporting> = OnceLock::new();
    &SETUP.get_or_init(|| exporting("otel-untrusted")).receiver
}

#[derive(Clone, Debug)]
struct Stock {
    copies: u32,
}

#[resolver]
async fn check_stock(title: String) -> Stock {
    Stock {
        copies: if title == "Dune" { 7 } else { 0 },
    }
}

/// Order a book from the shop.
#[tool]
async fn order_book(title: String, #[resolve(check_stock)] stock: Stock) -> String {
    format!("Ordered '{title}' ({} copies).", stock.copies)
}

/// The shop, traced (trusting its callers when `remote_parent`), over HTTP on a free port.
async fn serve(remote_parent: bool) -> Running {
    receiver();
    // Built after `otel::init`: the layer takes the global providers as they are.
    let tracing = mcpwire::otel::Tracing::new().remote_parent(remote_parent);
    let server = McpServer::new("otel-untrusted")
        .tool(order_book)
        .unwrap()
        .layer(tracing);
    http_support::start(server).await
}

/// A fresh caller trace id and span id, as hex.
fn caller_ids() -> (String, String) {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    (
        format!("{nanos:016x}{:016x}", n | (1 << 60)),
        format!("{:016x}", n | (1 << 62)),
    )
}

/// Both eras' ways of sending one request to `server`.
#[derive(Clone, Copy, Debug)]
enum Era {
    Legacy,
    Modern,
}

const ERAS: [Era; 2] = [Era::Legacy, Era::Modern];

/// Sends `method` with `params` (and `id`) to `server` under `era`, with `traceparent` in
/// `_meta`; on 2025-11-25 in `session` (opened by the caller). Returns the response's text.
async fn send(
    server: &Running,
    era: Era,
    session: Option<&str>,
    (id, method, mut params): (Value, &str, Value),
    traceparent: &str,
) -> String {
    match era {
        Era::Modern => {
            let mut body = modern_body(0, method, params);
            body["id"] = id;
            body["params"]["_meta"]["traceparent"] = json!(traceparent);
            let response = server.post_with(&body, modern_headers(&body)).await;
            response.text().await.unwrap()
        }
        Era::Legacy => {
            params["_meta"] = json!({"traceparent": traceparent});
            let body = json!({"jsonrpc":"2.0","id":id,"method":method,"params":params});
            let session = session.expect("a 2025-11-25 session");
            let response = server.legacy(session, &body).await;
            response.text().await.unwrap()
        }
    }
}

/// The session a 2025-11-25 request needs.
async fn session_for(server: &Running, era: Era) -> Option<String> {
    match era {
        Era::Legacy => Some(server.initialize().await),
        Era::Modern => None,
    }
}

/// Waits for the SERVER span named `name` of the request that carried the caller's trace
/// `trace_id`: linking it (or, were the caller trusted, in it).
async fn linked_span(name: &str, trace_id: &str) -> (Span, Vec<Span>) {
    let linked = |s: &Span| {
        s.kind == SERVER && s.name == name && (links_trace(s, trace_id) || s.trace_id == trace_id)
    };
    let spans = receiver()
        .wait_for_spans(WAIT, &format!("{name} linking {trace_id}"), |spans| {
            spans.iter().any(linked)
        })
        .await;
    let span = spans.iter().find(|s| linked(s)).unwrap().clone();
    (span, spans)
}

fn links_trace(span: &Span, trace_id: &str) -> bool {
    span.links.iter().any(|(trace, _)| trace == trace_id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_callers_traceparent_is_a_link_and_its_flags_do_not_decide() {
    let server = serve(false).await;
    for era in ERAS {
        // `00`: before the fix, the server's spans were switched off (never exported); `01`:
        // they were recorded in the caller's trace.
        for flags in ["00", "01"] {
            let session = session_for(&server, era).await;
            let (trace_id, span_id) = caller_ids();
            let traceparent = format!("00-{trace_id}-{span_id}-{flags}");
            let call = (
                json!(1),
                "tools/call",
                json!({"name": "order_book", "arguments": {"title": "Dune"}}),
            );
            let reply = send(&server, era, session.as_deref(), call, &traceparent).await;
            assert!(reply.contains("Ordered 'Dune'"), "{reply}");
            // Refused before the layers (an unknown tool): recorded by the dispatcher, the
            // same way.
            let refused = (
                json!(2),
                "tools/call",
                json!({"name": "no_such_tool", "arguments": {}}),
            );
            send(&server, era, session.as_deref(), refused, &traceparent).await;

            let (span, _) = linked_span("tools/call order_book", &trace_id).await;
            let (refused, spans) = linked_span("tools/call", &trace_id).await;
            let context = format!("[{era:?} flags {flags}]\n{}", dump(&spans));
            for span in [&span, &refused] {
                assert_ne!(span.trace_id, trace_id, "a trace of its own: {context}");
                assert_eq!(span.parent_span_id, "", "a root: {context}");
                assert_eq!(
                    span.links,
                    vec![(trace_id.clone(), span_id.clone())],
                    "the caller's span, linked: {context}"
                );
            }
            // The resolver's span sits in the server's trace, under its span.
            let resolver = spans
                .iter()
                .find(|s| s.name == "resolve check_stock" && s.trace_id == span.trace_id)
                .unwrap_or_else(|| panic!("the resolver span: {context}"));
            assert_eq!(resolver.parent_span_id, span.span_id, "{context}");
            // The resolver's span ended before the request's: had anything been exported
            // under the caller's trace id, it would be here by now.
            assert!(
                receiver().trace(&trace_id).is_empty(),
                "nothing in the caller's trace: {context}"
            );
        }
    }
}
