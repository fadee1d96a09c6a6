//! OpenTelemetry (feature `otel`) under a ratio sampler that samples no trace of its own
//! (`parentbased_traceidratio`, ratio 0: the limit of the 1 % an operator sets to keep export
//! cheap): a caller whose `traceparent` says "sampled" must not have the server's spans
//! exported under its trace id, unless the server trusts its callers
//! (`Tracing::remote_parent(true)`, the parent-based behaviour). Raw HTTP requests against a
//! real server, exporting with `otel::init` to a real OTLP/HTTP receiver (`support::otel`).
//!
//! Its own process: the sampler is the process-wide provider's, read from
//! `OTEL_TRACES_SAMPLER` when `otel::init` builds it.

#![cfg(all(feature = "otel", feature = "client", feature = "http"))]

#[path = "../support/mod.rs"]
mod support;

use mcpwire::prelude::*;
use serde_json::json;
use std::sync::OnceLock;
use std::time::Duration;
use support::http::{Running, modern_body, modern_headers};
use support::otel::{Exporting, Receiver, SERVER, dump, exporting};

const WAIT: Duration = Duration::from_secs(20);

/// The receiver, and `otel::init` pointed at it with the ratio sampler (once per process).
fn receiver() -> &'static Receiver {
    static SETUP: OnceLock<Exporting> = OnceLock::new();
    &SETUP
        .get_or_init(|| {
            // SAFETY: once per process, before any test goes past this `OnceLock` (they all
            // wait on it); nothing else in the process writes the environment.
            unsafe {
                std::env::set_var("OTEL_TRACES_SAMPLER", "parentbased_traceidratio");
                std::env::set_var("OTEL_TRACES_SAMPLER_ARG", "0");
            }
            exporting("otel-sampling")
        })
        .receiver
}

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A calculator, traced (trusting its callers when `remote_parent`), over HTTP on a free port.
async fn serve(remote_parent: bool) -> Running {
    receiver();
    // Built after `otel::init`: the layer takes the global providers as they are.
    let tracing = mcpwire::otel::Tracing::new().remote_parent(remote_parent);
    let server = McpServer::new("otel-sampling")
        .tool(add)
        .unwrap()
        .outer_layer(tracing);
    support::http::start(server).await
}

/// Calls `add` on `server` (2026-07-28) with `traceparent` in `_meta`; waits for the answer.
async fn call(server: &Running, traceparent: &str) {
    let mut body = modern_body(
        1,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 2, "b": 3}}),
    );
    body["params"]["_meta"]["traceparent"] = json!(traceparent);
    let reply = server.post_with(&body, modern_headers(&body)).await;
    let text = reply.text().await.unwrap();
    assert!(text.contains(r#""text":"5""#), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sampled_caller_does_not_choose_the_trace_unless_trusted() {
    let untrusting = serve(false).await;
    let trusting = serve(true).await;
    let attacker = "4bf92f3577b34da6a3ce929d0e0e4736";
    let trusted = "5c0a03f4688c45eb8b1e0c3a2d7f9e11";
    let unsampled = "6d1b14058a9d56fc9c2f1d4b3e80af22";

    // The attacker's "sampled" flag: before the fix the server's span was exported under the
    // attacker's trace id whatever the ratio; now the server's own sampler (ratio 0) decides.
    call(&untrusting, &format!("00-{attacker}-00f067aa0ba902b7-01")).await;
    // The operator who trusts its callers: the caller's decision is followed both ways.
    call(&trusting, &format!("00-{unsampled}-00f067aa0ba902b7-00")).await;
    call(&trusting, &format!("00-{trusted}-00f067aa0ba902b7-01")).await;

    let spans = receiver()
        .wait_for_spans(WAIT, "the trusted caller's trace", |spans| {
            spans.iter().any(|s| s.trace_id == trusted)
        })
        .await;
    let context = dump(&spans);
    let server_span = spans
        .iter()
        .find(|s| s.trace_id == trusted && s.kind == SERVER)
        .unwrap_or_else(|| panic!("the trusting server's span: {context}"));
    assert_eq!(server_span.name, "tools/call add", "{context}");
    assert_eq!(
        server_span.parent_span_id, "00f067aa0ba902b7",
        "a child of the caller's span: {context}"
    );
    assert!(server_span.links.is_empty(), "{context}");
    // The spans of the two earlier calls ended before the trusted one was sent, and the batch
    // processor exports in order: had they been sampled, they would be here by now.
    for trace_id in [attacker, unsampled] {
        assert!(
            spans
                .iter()
                .all(|s| s.trace_id != trace_id && s.links.iter().all(|(t, _)| t != trace_id)),
            "nothing exported for {trace_id}: {context}"
        );
    }
}
