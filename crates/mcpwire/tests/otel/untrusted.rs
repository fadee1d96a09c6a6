//! OpenTelemetry (feature `otel`) with callers the server does not trust, the default: raw
//! HTTP requests, as an attacker sends them, against a server traced with `otel::Tracing`,
//! exporting with `otel::init` to a real OTLP/HTTP receiver (`support::otel`), under the
//! default sampler (`parentbased_always_on`). What a caller's `traceparent` may and may not
//! decide, and which of the values it sends reach the collector, and how (bounded, hashed).
//! A ratio sampler is in `crates/mcpwire/tests/otel/sampling.rs` (its own process: the sampler is process-wide).
//!
//! Each request carries a `traceparent` with a trace id of its own, so that a test finds the
//! server's span by the link to it.

#![cfg(all(feature = "otel", feature = "client", feature = "http"))]

#[path = "../support/mod.rs"]
mod support;

use mcpwire::client::{Client, EraChoice};
use mcpwire::otel::ClientTracing;
use mcpwire::prelude::*;
use mcpwire::protocol::ErrorObject;
use opentelemetry::context::FutureExt as _;
use opentelemetry::trace::{TraceContextExt, Tracer};
use opentelemetry::{Context as OtelContext, global};
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use support::http::{LEGACY, Running, modern_body, modern_headers};
use support::otel::{CLIENT, Exporting, Receiver, SERVER, Span, dump, exporting};

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

/// Looks up a card; its failure quotes the card number, as careless handlers do.
#[tool]
async fn lookup_card(card: String) -> Result<String, ToolError> {
    Err(ToolError::protocol(ErrorObject::new(
        -32602,
        format!("no account for card {card}"),
    )))
}

/// A note, called by our own client only.
#[tool]
async fn note(text: String) -> String {
    text
}

/// A shelf of books, by path.
#[resource(uri = "shop://shelf/{path}", mime_type = "text/plain")]
async fn shelf(path: String) -> String {
    format!("{} bytes of path", path.len())
}

/// The shop, traced (trusting its callers when `remote_parent`), over HTTP on a free port.
async fn serve(remote_parent: bool) -> Running {
    receiver();
    // Built after `otel::init`: the layer takes the global providers as they are.
    let tracing = mcpwire::otel::Tracing::new().remote_parent(remote_parent);
    let server = McpServer::new("otel-untrusted")
        .tool(order_book)
        .unwrap()
        .tool(lookup_card)
        .unwrap()
        .tool(note)
        .unwrap()
        .resource(shelf)
        .unwrap()
        .outer_layer(tracing);
    support::http::start(server).await
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

/// The `tracestate` every raw request sends: the caller's vendors' data, never exported.
const TRACESTATE: &str = "callervendor=private-tenant-7341";

/// Sends `method` with `params` (and `id`) to `server` under `era`, with `traceparent` (and
/// [`TRACESTATE`]) in `_meta`; on 2025-11-25 in `session` (opened by the caller). Returns the response's text.
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
            body["params"]["_meta"]["tracestate"] = json!(TRACESTATE);
            let response = server.post_with(&body, modern_headers(&body)).await;
            response.text().await.unwrap()
        }
        Era::Legacy => {
            params["_meta"] = json!({"traceparent": traceparent, "tracestate": TRACESTATE});
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

/// The start of `text`, for failure messages.
fn head(text: &str) -> String {
    text.chars().take(300).collect()
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
            assert!(
                !receiver().exported_contains("private-tenant-7341"),
                "the caller's tracestate exported: {context}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_megabyte_request_id_and_a_long_uri_are_cut() {
    let server = serve(false).await;
    // Distinct from anything else a span carries: "id-0000001-id-0000002-…".
    let long_id: String = (0..100_000).map(|n| format!("id-{n:07}-")).collect();
    assert!(long_id.len() >= 1 << 20);
    let long_path: String = (0..1_000).map(|n| format!("p{n:05}")).collect();
    for era in ERAS {
        let session = session_for(&server, era).await;
        let (trace_id, span_id) = caller_ids();
        let traceparent = format!("00-{trace_id}-{span_id}-01");
        let call = (
            json!(long_id),
            "tools/call",
            json!({"name": "order_book", "arguments": {"title": "Dune"}}),
        );
        let reply = send(&server, era, session.as_deref(), call, &traceparent).await;
        assert!(reply.contains("Ordered 'Dune'"), "{}", head(&reply));
        let read = (
            json!(3),
            "resources/read",
            json!({"uri": format!("shop://shelf/{long_path}")}),
        );
        let reply = send(&server, era, session.as_deref(), read, &traceparent).await;
        assert!(reply.contains("bytes of path"), "{}", head(&reply));

        let (call, _) = linked_span("tools/call order_book", &trace_id).await;
        let (read, _) = linked_span("resources/read", &trace_id).await;
        let id = call.attr("jsonrpc.request.id").expect("the request id");
        assert!(id.len() <= 128, "{era:?}: {} bytes", id.len());
        assert!(id.contains("id-0000000-"), "{era:?}: the id's start: {id}");
        let uri = read.attr("mcp.resource.uri").expect("the URI");
        assert!(uri.len() <= 1024, "{era:?}: {} bytes", uri.len());
        assert!(uri.starts_with("shop://shelf/p00000"), "{era:?}: {uri}");
        // Not exported in full anywhere (before the fix, twice per request).
        assert!(
            !receiver().exported_contains(&long_id[..4096]),
            "{era:?}: the id exported"
        );
        assert!(
            !receiver().exported_contains(&long_path[..4096]),
            "{era:?}: the URI exported"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_error_quoting_an_argument_leaves_a_fixed_status() {
    let server = serve(false).await;
    for era in ERAS {
        let session = session_for(&server, era).await;
        let card = format!("4111-SECRET-{era:?}-1234");
        let (trace_id, span_id) = caller_ids();
        let traceparent = format!("00-{trace_id}-{span_id}-01");
        let call = (
            json!(1),
            "tools/call",
            json!({"name": "lookup_card", "arguments": {"card": card}}),
        );
        let reply = send(&server, era, session.as_deref(), call, &traceparent).await;
        // The client gets the handler's message; the collector does not.
        assert!(reply.contains(&card), "{reply}");
        let (span, spans) = linked_span("tools/call lookup_card", &trace_id).await;
        let context = format!("[{era:?}]\n{}", dump(&spans));
        assert_eq!(span.status, 2, "{context}");
        assert_eq!(span.status_message, "JSON-RPC error -32602", "{context}");
        assert_eq!(span.attr("error.type"), Some("-32602"), "{context}");
        assert!(
            !receiver().exported_contains(&card),
            "the argument exported: {context}"
        );

        // Our client's CLIENT span of the same error: the server's message is not its status.
        let client = Client::builder()
            .hook(ClientTracing::new())
            .era(match era {
                Era::Legacy => EraChoice::Legacy,
                Era::Modern => EraChoice::Modern,
            })
            .connect_http(&server.url)
            .await
            .unwrap();
        let card = format!("5500-SECRET-{era:?}-9876");
        let (trace_id, answer) = traced(&format!("lookup {era:?}"), async {
            client
                .request(
                    "tools/call",
                    json!({"name": "lookup_card", "arguments": {"card": card}}),
                )
                .await
        })
        .await;
        assert!(format!("{answer:?}").contains(&card), "{answer:?}");
        let spans = receiver()
            .wait_for_spans(WAIT, "our client's span", |spans| {
                spans
                    .iter()
                    .any(|s| s.trace_id == trace_id && s.kind == CLIENT)
            })
            .await;
        let context = format!("[{era:?}]\n{}", dump(&spans));
        let ours = spans
            .iter()
            .find(|s| s.trace_id == trace_id && s.kind == CLIENT)
            .unwrap();
        assert_eq!(ours.status, 2, "{context}");
        assert_eq!(ours.status_message, "JSON-RPC error -32602", "{context}");
        assert!(
            !receiver().exported_contains(&card),
            "the argument exported: {context}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_id_is_exported_only_as_its_hash() {
    let server = serve(false).await;
    let mut hashes = Vec::new();
    for _ in 0..2 {
        let session = server.initialize().await;
        let (trace_id, span_id) = caller_ids();
        let traceparent = format!("00-{trace_id}-{span_id}-01");
        for (id, name) in [(1, "order_book"), (2, "no_such_tool")] {
            let call = (
                json!(id),
                "tools/call",
                json!({"name": name, "arguments": {"title": "Dune"}}),
            );
            send(&server, Era::Legacy, Some(&session), call, &traceparent).await;
        }
        let (layered, _) = linked_span("tools/call order_book", &trace_id).await;
        let (refused, spans) = linked_span("tools/call", &trace_id).await;
        let context = format!("session {session}\n{}", dump(&spans));
        assert_eq!(
            layered.attr("mcp.protocol.version"),
            Some(LEGACY),
            "{context}"
        );
        let hash = layered.attr("mcp.session.id").expect("mcp.session.id");
        assert_eq!(hash.len(), 32, "{context}");
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{context}");
        assert_ne!(hash, session, "{context}");
        // One session, one hash, also for a request refused before the layers.
        assert_eq!(refused.attr("mcp.session.id"), Some(hash), "{context}");
        assert!(
            !receiver().exported_contains(&session),
            "the session id exported: {context}"
        );
        hashes.push(hash.to_owned());
    }
    assert_ne!(hashes[0], hashes[1], "two sessions, two hashes");
}

/// Runs `call` inside a fresh root span named `name`; returns that trace's id.
async fn traced<F: Future>(name: &str, call: F) -> (String, F::Output) {
    let tracer = global::tracer("otel-untrusted-test");
    let span = tracer.start(name.to_owned());
    let cx = OtelContext::current_with_span(span);
    let output = call.with_context(cx.clone()).await;
    cx.span().end();
    (cx.span().span_context().trace_id().to_string(), output)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_can_keep_its_trace_context_from_a_server() {
    // A server that trusts its callers: any context it received would make its span a child
    // of the client's.
    let server = serve(true).await;
    for (era, text) in [(EraChoice::Legacy, "legacy"), (EraChoice::Modern, "modern")] {
        let mut found = Vec::new();
        for propagate in [true, false] {
            let text = format!("{text} {propagate}");
            let (trace_id, ()) = traced(&format!("note {text}"), async {
                let client = Client::builder()
                    .era(era)
                    .hook(ClientTracing::new().propagate_trace_context(propagate))
                    .connect_http(&server.url)
                    .await
                    .unwrap();
                let noted = client.call_tool("note", json!({"text": text})).await;
                assert!(noted.is_ok(), "{noted:?}");
            })
            .await;
            found.push((propagate, trace_id));
        }
        // Our own CLIENT spans, both made; the server's two SERVER spans.
        let spans = receiver()
            .wait_for_spans(WAIT, &format!("{era:?} notes"), |spans| {
                found.iter().all(|(_, trace_id)| {
                    spans.iter().any(|s| {
                        &s.trace_id == trace_id && s.kind == CLIENT && s.name == "tools/call note"
                    })
                })
            })
            .await;
        let client_span = |trace_id: &str| {
            spans
                .iter()
                .find(|s| s.trace_id == trace_id && s.kind == CLIENT && s.name == "tools/call note")
                .unwrap()
                .clone()
        };
        let (_, propagated) = &found[0];
        let (_, kept) = &found[1];
        let propagated = client_span(propagated);
        let kept = client_span(kept);
        let server_span_of = |client: &Span| {
            spans
                .iter()
                .find(|s| s.kind == SERVER && s.parent_span_id == client.span_id)
                .cloned()
        };
        let context = format!("[{era:?}]\n{}", dump(&spans));
        // Propagated: the server continues the client's trace.
        let continued = server_span_of(&propagated)
            .unwrap_or_else(|| panic!("the server continues the trace: {context}"));
        assert_eq!(continued.trace_id, propagated.trace_id, "{context}");
        // Kept: the server saw no traceparent; its span (the last one of this server's note
        // calls) is a root of its own trace, without a link.
        assert!(server_span_of(&kept).is_none(), "{context}");
        let own = receiver()
            .wait_for_spans(WAIT, "the server's span of the kept call", |spans| {
                spans.iter().any(|s| {
                    s.kind == SERVER
                        && s.name == "tools/call note"
                        && s.parent_span_id.is_empty()
                        && s.start >= kept.start
                        && s.end <= kept.end
                })
            })
            .await;
        let own = own
            .iter()
            .find(|s| {
                s.kind == SERVER
                    && s.name == "tools/call note"
                    && s.parent_span_id.is_empty()
                    && s.start >= kept.start
                    && s.end <= kept.end
            })
            .unwrap();
        assert_ne!(own.trace_id, kept.trace_id, "{context}");
        assert!(own.links.is_empty(), "no context, no link: {context}");
    }
}
