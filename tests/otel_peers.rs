//! OpenTelemetry across SDKs we did not write, over Streamable HTTP on both revisions, every side
//! exporting over OTLP/HTTP to a real OTLP receiver in this test (axum, decoding protobuf with
//! `opentelemetry-proto`):
//!
//! - the official Python SDK's client (mcp 2.3.0, its OpenTelemetry instrumentation on through
//!   `tests/peers/otel_run.py`) calls the `order_book` example (which exports when
//!   `OTEL_EXPORTER_OTLP_ENDPOINT` is set): the example does not trust its callers (the
//!   default `otel::Tracing`), so its SERVER span starts a trace of its own that links
//!   Python's CLIENT span (the W3C context Python sent, read back), with our resolver spans
//!   under it, `check_stock` once and `estimate_delivery` after it;
//! - our client calls the Python SDK's server (benches/peers/python/server.py, instrumented the
//!   same way): its SERVER span continues our CLIENT span's trace.
//!
//! Needs `scripts/setup-peers` (`MCP_PEER_PYTHON_OTEL`, the venv of
//! `tests/peers/requirements-otel.txt`).

mod common;
#[path = "../crates/mcpwire/tests/support/otel.rs"]
mod otel_support;

use common::{
    HttpExample, example_bin, free_port, peer_python_server, run_with_deadline, workspace_root,
};
use mcpwire::client::{Client, EraChoice};
use mcpwire::otel::ClientTracing;
use otel_support::{CLIENT, Exporting, INTERNAL, SERVER, Span, dump, exporting, one};
use serde_json::json;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// The receiver and our own export to it (for our client), once per process.
fn setup() -> &'static Exporting {
    static SETUP: OnceLock<Exporting> = OnceLock::new();
    SETUP.get_or_init(|| exporting("mcpwire-test-client"))
}

/// The Python interpreter of the venv with the OpenTelemetry SDK (`MCP_PEER_PYTHON_OTEL`).
fn peer_python_otel() -> PathBuf {
    let path = match std::env::var_os("MCP_PEER_PYTHON_OTEL") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => workspace_root().join("target/peers/venv-otel/bin/python"),
    };
    assert!(
        path.exists(),
        "peer MCP_PEER_PYTHON_OTEL not found at {}: run scripts/setup-peers",
        path.display()
    );
    path
}

/// `otel_run.py SERVICE SCRIPT`, exporting to the receiver.
fn python_with_otel(service: &str, script: PathBuf) -> Command {
    let mut command = Command::new(peer_python_otel());
    command
        .arg(workspace_root().join("tests/peers/otel_run.py"))
        .arg(service)
        .arg(script)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &setup().receiver.url);
    command
}

fn wait_for(what: &str, ready: impl Fn(&[Span]) -> bool) -> Vec<Span> {
    let receiver = &setup().receiver;
    setup()
        .runtime
        .block_on(receiver.wait_for_spans(WAIT, what, ready))
}

fn find(spans: &[Span], f: impl Fn(&Span) -> bool) -> Option<&Span> {
    spans.iter().find(|s| f(s))
}

fn in_trace(spans: &[Span], trace_id: &str) -> Vec<Span> {
    spans
        .iter()
        .filter(|s| s.trace_id == trace_id)
        .cloned()
        .collect()
}

fn python_client_calls_order_book(mode: &str, version: &str) {
    let setup = setup();
    let service = format!("order-book-{version}");
    let mut command = Command::new(example_bin("order_book"));
    command
        .args(["--http", "127.0.0.1:0"])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &setup.receiver.url)
        .env("OTEL_BSP_SCHEDULE_DELAY", "50")
        .env("OTEL_SERVICE_NAME", &service);
    let server = HttpExample::spawn(command, "the order_book example");

    let client_service = format!("python-client-{version}");
    let mut python = python_with_otel(
        &client_service,
        workspace_root().join("tests/peers/client.py"),
    );
    python.args([
        "--mode",
        mode,
        "--http",
        &server.url,
        "call",
        "order_book",
        r#"{"title":"Dune"}"#,
    ]);
    let run = run_with_deadline(python, WAIT);
    assert!(
        run.status.success() && run.stdout.contains("Ordered 'Dune'"),
        "client.py: {}\n{}\n{}",
        run.status,
        run.stdout,
        run.stderr
    );

    let is_python_call = |s: &Span| {
        s.service == client_service
            && s.kind == CLIENT
            && s.attr("mcp.method.name") == Some("tools/call")
    };
    // Our SERVER span of Python's call: the one linking Python's CLIENT span.
    let serves = |s: &Span, call: &Span| {
        s.service == service
            && s.kind == SERVER
            && s.name == "tools/call order_book"
            && s.links
                .contains(&(call.trace_id.clone(), call.span_id.clone()))
    };
    let spans = wait_for(&format!("the {version} traces"), |spans| {
        find(spans, is_python_call).is_some_and(|call| {
            find(spans, |s| serves(s, call)).is_some_and(|server_span| {
                in_trace(spans, &server_span.trace_id)
                    .iter()
                    .any(|s| s.name == "resolve estimate_delivery")
            })
        })
    });
    let python_span = find(&spans, is_python_call).unwrap();
    let server_span = find(&spans, |s| serves(s, python_span)).unwrap();
    let trace = in_trace(&spans, &server_span.trace_id);
    let context = format!(
        "[{version}]\nPython's: {python_span:?}\n{}\nserver stderr:\n{}",
        dump(&trace),
        server.stderr()
    );
    // A trace of the server's own, not the caller's: a root, linking Python's span.
    assert_ne!(server_span.trace_id, python_span.trace_id, "{context}");
    assert_eq!(server_span.parent_span_id, "", "{context}");
    assert_eq!(server_span.scope, "mcpwire", "{context}");
    assert_eq!(
        server_span.attr("mcp.protocol.version"),
        Some(version),
        "{context}"
    );
    assert_eq!(
        server_span.attr("gen_ai.tool.name"),
        Some("order_book"),
        "{context}"
    );
    let check = one(&trace, "resolve check_stock");
    let estimate = one(&trace, "resolve estimate_delivery");
    for resolver in [check, estimate] {
        assert_eq!(resolver.parent_span_id, server_span.span_id, "{context}");
        assert_eq!(resolver.kind, INTERNAL, "{context}");
        assert_eq!(resolver.service, service, "{context}");
    }
    assert!(estimate.start >= check.end, "{context}");
    assert!(
        trace
            .iter()
            .all(|s| s.attributes.values().all(|v| !v.contains("Dune"))),
        "no argument value recorded: {context}"
    );
}

#[test]
fn python_client_to_our_order_book_is_linked_on_2025_11_25() {
    python_client_calls_order_book("legacy", "2025-11-25");
}

#[test]
fn python_client_to_our_order_book_is_linked_on_2026_07_28() {
    python_client_calls_order_book("2026-07-28", "2026-07-28");
}

fn our_client_calls_the_python_server(era: EraChoice, version: &str) {
    setup();
    let service = format!("python-server-{version}");
    let mut command = python_with_otel(&service, peer_python_server());
    command.args(["--http", &format!("127.0.0.1:{}", free_port())]);
    let server = HttpExample::spawn(command, "the Python SDK's server");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = Client::builder()
            .hook(ClientTracing::new())
            .era(era)
            .connect_http(&server.url)
            .await
            .unwrap();
        let result = client
            .call_tool("order_book", json!({"title": "Dune"}))
            .await
            .unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
    });
    let is_our_call = |s: &Span| {
        s.service == "mcpwire-test-client"
            && s.kind == CLIENT
            && s.name == "tools/call order_book"
            && s.attr("mcp.protocol.version") == Some(version)
    };
    let spans = wait_for(
        &format!("our {version} call and the Python server's span"),
        |spans| {
            find(spans, is_our_call).is_some_and(|call| {
                in_trace(spans, &call.trace_id)
                    .iter()
                    .any(|s| s.service == service && s.kind == SERVER)
            })
        },
    );
    let ours = find(&spans, is_our_call).unwrap();
    let trace = in_trace(&spans, &ours.trace_id);
    let context = format!("[{version}]\n{}", dump(&trace));
    let theirs = trace
        .iter()
        .find(|s| s.service == service && s.kind == SERVER)
        .unwrap();
    assert_eq!(theirs.parent_span_id, ours.span_id, "{context}");
    assert_eq!(
        theirs.attr("mcp.method.name"),
        Some("tools/call"),
        "{context}"
    );
    assert_eq!(
        theirs.attr("gen_ai.tool.name"),
        Some("order_book"),
        "{context}"
    );
    drop(server);
}

#[test]
fn our_client_to_the_python_server_is_one_trace_on_2025_11_25() {
    our_client_calls_the_python_server(EraChoice::Legacy, "2025-11-25");
}

#[test]
fn our_client_to_the_python_server_is_one_trace_on_2026_07_28() {
    our_client_calls_the_python_server(EraChoice::Modern, "2026-07-28");
}
