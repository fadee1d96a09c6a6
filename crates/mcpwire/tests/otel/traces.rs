//! OpenTelemetry (feature `otel`) end to end: our server (with `otel::Tracing`) and our client
//! talk over real Streamable HTTP on both revisions, both export over OTLP/HTTP
//! (`otel::init`, configured by `OTEL_*` variables) to a real OTLP receiver in this test
//! (`support::otel`: axum, decoding protobuf with `opentelemetry-proto`), and the test reads
//! what arrived: span names, kinds, parents, the conventions' attributes, the resolver graph,
//! the question rounds, and the duration histograms.
//!
//! The server here trusts its callers (`Tracing::remote_parent(true)`): client and server are
//! ours, in one process, and the tests follow one trace through both. What a server does with
//! callers it does not trust (the default) is in `crates/mcpwire/tests/otel/untrusted.rs` and `crates/mcpwire/tests/otel/sampling.rs`.
//!
//! The exporter and the global providers are process-wide: one receiver and one `init` serve
//! every test here, each test telling its spans apart by the trace of a root span it opens.

#![cfg(all(feature = "otel", feature = "client", feature = "http"))]

#[path = "../support/mod.rs"]
mod support;

use mcpwire::client::{Client, EraChoice};
use mcpwire::otel::ClientTracing;
use mcpwire::prelude::*;
use mcpwire::protocol::{ElicitAction, ElicitResult};
use opentelemetry::context::FutureExt as _;
use opentelemetry::trace::{TraceContextExt, Tracer};
use opentelemetry::{Context as OtelContext, global};
use serde_json::json;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use support::otel::{
    CLIENT, Exporting, INTERNAL, Receiver, SERVER, Span, dump, exporting, named, one,
};

const WAIT: Duration = Duration::from_secs(20);
const ERAS: [(EraChoice, &str); 2] = [
    (EraChoice::Legacy, "2025-11-25"),
    (EraChoice::Modern, "2026-07-28"),
];

/// The receiver, and `otel::init` pointed at it (once per process).
fn receiver() -> &'static Receiver {
    static SETUP: OnceLock<Exporting> = OnceLock::new();
    &SETUP.get_or_init(|| exporting("otel-shop")).receiver
}

#[derive(Clone, Debug)]
struct Stock {
    copies: u32,
}

#[derive(Default)]
struct Lookups(AtomicU64);

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Stock {
    ctx.state::<Lookups>().0.fetch_add(1, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(5)).await;
    Stock {
        copies: if title == "Dune" { 7 } else { 0 },
    }
}

#[resolver]
async fn estimate_delivery(#[resolve(check_stock)] stock: Stock) -> String {
    if stock.copies > 0 {
        "tomorrow"
    } else {
        "in 2-3 weeks"
    }
    .to_owned()
}

/// Order a book from the shop.
#[tool]
async fn order_book(
    title: String,
    #[resolve(check_stock)] stock: Stock,
    #[resolve(estimate_delivery)] delivery: String,
) -> String {
    format!(
        "Ordered '{title}' ({} copies); it arrives {delivery}.",
        stock.copies
    )
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Whether to go ahead.
    confirm: bool,
}

#[resolver]
async fn confirm() -> Elicit<Confirm> {
    Elicit::ask("Confirm the order?")
}

/// Orders after asking the user.
#[tool]
async fn confirm_order(title: String, #[resolve(confirm)] answer: Confirm) -> String {
    format!("{title}: {}", answer.confirm)
}

/// Always fails.
#[tool]
async fn broken() -> Result<String, ToolError> {
    Err(ToolError::new("the shelf fell over"))
}

/// Serves the shop, traced, over HTTP on a free port; its MCP URL.
async fn serve() -> String {
    // The layer takes the global providers as they are when it is built: `init` first.
    receiver();
    serve_with(mcpwire::otel::Tracing::new().remote_parent(true)).await
}

/// Serves the shop over HTTP on a free port, with `outer` as its outer tier; its MCP URL.
async fn serve_with(outer: impl mcpwire::layer::McpLayer) -> String {
    receiver();
    let server = McpServer::new("otel-shop")
        .state(Lookups::default())
        .request_state_keys(mcpwire::request_state::KeyRing::new([[7u8; 32]]).unwrap())
        .tool(order_book)
        .unwrap()
        .tool(confirm_order)
        .unwrap()
        .tool(broken)
        .unwrap()
        .outer_layer(outer)
        .on_session_end(mcpwire::otel::record_session_duration);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(
        server
            .http()
            .serve_listener(listener, std::future::pending()),
    );
    url
}

async fn connect(url: &str, era: EraChoice) -> Client {
    Client::builder()
        .hook(ClientTracing::new())
        .era(era)
        .on_form_elicitation(|_question| async {
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"confirm": true}).as_object().cloned(),
            }
        })
        .connect_http(url)
        .await
        .unwrap()
}

/// Runs `call` under a root span of its own named `name`; the trace id.
async fn traced<F: Future>(name: &str, call: F) -> (String, F::Output) {
    let tracer = global::tracer("otel-test");
    let root = tracer.start(name.to_owned());
    let cx = OtelContext::current_with_span(root);
    let output = call.with_context(cx.clone()).await;
    cx.span().end();
    (cx.span().span_context().trace_id().to_string(), output)
}

fn in_trace(spans: &[Span], trace_id: &str) -> Vec<Span> {
    spans
        .iter()
        .filter(|s| s.trace_id == trace_id)
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn order_book_is_one_trace_with_the_resolver_graph_on_both_eras() {
    let url = serve().await;
    for (era, version) in ERAS {
        let client = connect(&url, era).await;
        let (trace_id, result) = traced(&format!("order {version}"), async {
            client
                .call_tool("order_book", json!({"title": "Dune"}))
                .await
        })
        .await;
        assert_ne!(result.unwrap().is_error, Some(true));
        let spans = receiver()
            .wait_for_spans(WAIT, "the order_book trace", |spans| {
                let trace = in_trace(spans, &trace_id);
                named(&trace, "resolve estimate_delivery").len() == 1
                    && named(&trace, &format!("order {version}")).len() == 1
                    && named(&trace, "tools/call order_book").len() == 2
            })
            .await;
        let trace = in_trace(&spans, &trace_id);
        let root = one(&trace, &format!("order {version}"));
        let calls = named(&trace, "tools/call order_book");
        let client_span = calls
            .iter()
            .find(|s| s.kind == CLIENT)
            .expect("a CLIENT span");
        let server_span = calls
            .iter()
            .find(|s| s.kind == SERVER)
            .expect("a SERVER span");
        let context = format!("[{version}]\n{}", dump(&trace));

        // Client → server → resolvers, one trace.
        assert_eq!(client_span.parent_span_id, root.span_id, "{context}");
        assert_eq!(server_span.parent_span_id, client_span.span_id, "{context}");
        assert_eq!(server_span.scope, "mcpwire", "{context}");
        assert_eq!(server_span.service, "otel-shop", "{context}");

        // The graph: check_stock once, estimate_delivery after it, both under the tool call.
        let check = one(&trace, "resolve check_stock");
        let estimate = one(&trace, "resolve estimate_delivery");
        for resolver in [check, estimate] {
            assert_eq!(resolver.parent_span_id, server_span.span_id, "{context}");
            assert_eq!(resolver.kind, INTERNAL, "{context}");
        }
        assert_eq!(check.attr("mcpwire.resolver.name"), Some("check_stock"));
        assert!(
            estimate.start >= check.end,
            "estimate_delivery starts after check_stock ends: {context}"
        );
        assert!(server_span.start <= check.start && estimate.end <= server_span.end);

        // The conventions' attributes.
        for span in [*client_span, *server_span] {
            assert_eq!(
                span.attr("mcp.method.name"),
                Some("tools/call"),
                "{context}"
            );
            assert_eq!(
                span.attr("gen_ai.tool.name"),
                Some("order_book"),
                "{context}"
            );
            assert_eq!(span.attr("gen_ai.operation.name"), Some("execute_tool"));
            assert_eq!(
                span.attr("mcp.protocol.version"),
                Some(version),
                "{context}"
            );
            assert_eq!(span.attr("error.type"), None, "{context}");
        }
        assert_eq!(server_span.attr("network.transport"), Some("tcp"));
        assert!(
            server_span.attr("jsonrpc.request.id").is_some(),
            "{context}"
        );
        match era {
            EraChoice::Legacy => assert!(
                server_span
                    .attr("mcp.session.id")
                    .is_some_and(|id| !id.is_empty()),
                "a session id on 2025-11-25: {context}"
            ),
            _ => assert_eq!(server_span.attr("mcp.session.id"), None, "{context}"),
        }

        // Argument values are not recorded.
        for span in &trace {
            assert!(
                span.attributes
                    .values()
                    .all(|value| !value.contains("Dune")),
                "an argument value in {span:?}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_is_a_child_span_and_the_rounds_stay_in_one_trace() {
    let url = serve().await;

    // 2025-11-25: the server asks in place, as a CLIENT span under the resolver's.
    let client = connect(&url, EraChoice::Legacy).await;
    let (trace_id, result) = traced("confirm legacy", async {
        client
            .call_tool("confirm_order", json!({"title": "Dune"}))
            .await
    })
    .await;
    assert_ne!(result.unwrap().is_error, Some(true));
    let spans = receiver()
        .wait_for_spans(WAIT, "the legacy question", |spans| {
            let trace = in_trace(spans, &trace_id);
            !named(&trace, "elicitation/create").is_empty()
                && named(&trace, "tools/call confirm_order").len() == 2
        })
        .await;
    let trace = in_trace(&spans, &trace_id);
    let context = dump(&trace);
    let server_span = named(&trace, "tools/call confirm_order")
        .into_iter()
        .find(|s| s.kind == SERVER)
        .unwrap();
    let resolver = one(&trace, "resolve confirm");
    let question = one(&trace, "elicitation/create");
    assert_eq!(resolver.parent_span_id, server_span.span_id, "{context}");
    assert_eq!(question.parent_span_id, resolver.span_id, "{context}");
    assert_eq!(question.kind, CLIENT, "{context}");
    assert_eq!(question.attr("mcp.method.name"), Some("elicitation/create"));
    assert!(
        !question
            .attributes
            .values()
            .any(|v| v.contains("Confirm the order")),
        "the question's text is not recorded: {context}"
    );

    // 2026-07-28: two rounds, two SERVER spans, under the one CLIENT span of the call.
    let client = connect(&url, EraChoice::Modern).await;
    let (trace_id, result) = traced("confirm modern", async {
        client
            .call_tool("confirm_order", json!({"title": "Dune"}))
            .await
    })
    .await;
    assert_ne!(result.unwrap().is_error, Some(true));
    let spans = receiver()
        .wait_for_spans(WAIT, "the modern rounds", |spans| {
            named(&in_trace(spans, &trace_id), "tools/call confirm_order").len() == 3
        })
        .await;
    let trace = in_trace(&spans, &trace_id);
    let context = dump(&trace);
    let calls = named(&trace, "tools/call confirm_order");
    let clients: Vec<_> = calls.iter().filter(|s| s.kind == CLIENT).collect();
    let servers: Vec<_> = calls.iter().filter(|s| s.kind == SERVER).collect();
    assert_eq!((clients.len(), servers.len()), (1, 2), "{context}");
    for server in &servers {
        assert_eq!(server.parent_span_id, clients[0].span_id, "{context}");
    }
    let asked = servers
        .iter()
        .find(|s| s.attr("mcpwire.result_type") == Some("input_required"))
        .expect("the first round ends in input_required");
    let round = one(&trace, "input_required");
    assert_eq!(round.parent_span_id, asked.span_id, "{context}");
    assert_eq!(round.attr("mcpwire.input_requests.count"), Some("1"));
    let answered = servers
        .iter()
        .find(|s| s.attr("mcpwire.retried_round") == Some("true"))
        .expect("the second round is a retried one");
    assert_eq!(answered.attr("error.type"), None, "{context}");
    assert!(answered.start >= asked.end, "{context}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_carry_error_type_and_status_code() {
    let url = serve().await;
    for (era, version) in ERAS {
        let client = connect(&url, era).await;
        let (trace_id, _) = traced(&format!("failures {version}"), async {
            let broken = client.call_tool("broken", json!({})).await;
            // A question to a client that declared no elicitation: a JSON-RPC error, from
            // inside the layers (the resolver's).
            let bare = Client::builder()
                .hook(ClientTracing::new())
                .era(era)
                .connect_http(&url)
                .await
                .unwrap();
            let raw = bare
                .request(
                    "tools/call",
                    json!({"name": "confirm_order", "arguments": {"title": "Dune"}}),
                )
                .await;
            (broken, raw)
        })
        .await;
        let spans = receiver()
            .wait_for_spans(WAIT, "the failures", |spans| {
                let trace = in_trace(spans, &trace_id);
                named(&trace, "tools/call broken").len() == 2
                    && named(&trace, "tools/call confirm_order").len() == 2
            })
            .await;
        let trace = in_trace(&spans, &trace_id);
        let context = format!("[{version}]\n{}", dump(&trace));
        for span in named(&trace, "tools/call broken") {
            assert_eq!(span.attr("error.type"), Some("tool_error"), "{context}");
            assert_eq!(span.status, 2, "{context}");
        }
        for span in named(&trace, "tools/call confirm_order") {
            let code = span.attr("error.type").expect("an error.type");
            assert!(code.starts_with("-320"), "a JSON-RPC code: {context}");
            assert_eq!(
                span.attr("rpc.response.status_code"),
                Some(code),
                "{context}"
            );
            assert_eq!(span.status, 2, "{context}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_answered_before_the_layers_are_traced_once_too() {
    let url = serve().await;
    for (era, version) in ERAS {
        let (trace_id, client) = traced(&format!("unlayered {version}"), async {
            let client = connect(&url, era).await;
            // An unknown tool: refused by the dispatcher, before any layer.
            let unknown = client
                .request(
                    "tools/call",
                    json!({"name": "no_such_tool", "arguments": {}}),
                )
                .await;
            assert!(unknown.is_err(), "{unknown:?}");
            // A method the server does not answer: named `_OTHER`, never the client's text.
            let made_up = client.request("made/up-method", json!({})).await;
            assert!(made_up.is_err(), "{made_up:?}");
            let ordered = client
                .call_tool("order_book", json!({"title": "Dune"}))
                .await;
            assert!(ordered.is_ok(), "{ordered:?}");
            client
        })
        .await;
        let spans = receiver()
            .wait_for_spans(WAIT, "the refused call", |spans| {
                let trace = in_trace(spans, &trace_id);
                !named(&trace, "tools/call").is_empty()
                    && !named(&trace, "tools/call order_book").is_empty()
                    && !named(&trace, "_OTHER").is_empty()
            })
            .await;
        let trace = in_trace(&spans, &trace_id);
        let context = format!("[{version}]\n{}", dump(&trace));
        let refused = one(&trace, "tools/call");
        assert_eq!(refused.kind, SERVER, "{context}");
        assert_eq!(
            refused.attr("mcp.method.name"),
            Some("tools/call"),
            "{context}"
        );
        assert_eq!(
            refused.attr("mcp.protocol.version"),
            Some(version),
            "{context}"
        );
        assert_eq!(refused.attr("error.type"), Some("-32602"), "{context}");
        assert_eq!(
            refused.attr("rpc.response.status_code"),
            Some("-32602"),
            "{context}"
        );
        assert_eq!(refused.status, 2, "{context}");
        let other = one(&trace, "_OTHER");
        assert_eq!(other.attr("mcp.method.name"), Some("_OTHER"), "{context}");
        assert_eq!(other.attr("error.type"), Some("-32601"), "{context}");
        assert!(
            trace
                .iter()
                .all(|s| s.kind != SERVER || !s.name.contains("made/up")),
            "{context}"
        );
        // The caller's span is its parent: the client's CLIENT span of the same call.
        let parent = trace
            .iter()
            .find(|s| s.span_id == refused.parent_span_id)
            .expect("the refused span's parent is in the trace");
        assert_eq!(parent.kind, CLIENT, "{context}");
        // A call that reached the layers has one SERVER span, the layer's.
        let served: Vec<_> = trace
            .iter()
            .filter(|s| s.kind == SERVER && s.attr("gen_ai.tool.name") == Some("order_book"))
            .collect();
        assert_eq!(served.len(), 1, "{context}");
        assert_eq!(named(&trace, "tools/call").len(), 1, "{context}");
        drop(client);
    }
    // `initialize` never reaches the layers; it is traced as well.
    let spans = receiver()
        .wait_for_spans(WAIT, "initialize", |spans| {
            spans
                .iter()
                .any(|s| s.name == "initialize" && s.kind == SERVER)
        })
        .await;
    let initialize = spans
        .iter()
        .find(|s| s.name == "initialize" && s.kind == SERVER)
        .unwrap();
    assert_eq!(initialize.attr("error.type"), None, "{initialize:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tracing_composed_with_other_layers_gives_every_request_exactly_one_server_span() {
    use mcpwire::otel::Tracing;
    use tower::limit::ConcurrencyLimitLayer;
    use tower::timeout::TimeoutLayer;
    receiver();
    // Tower's own middleware around and inside it.
    let builder = tower::ServiceBuilder::new()
        .layer(TimeoutLayer::new(Duration::from_secs(30)))
        .layer(Tracing::new().remote_parent(true))
        .layer(ConcurrencyLimitLayer::new(64));
    let tuple = (
        Tracing::new().remote_parent(true),
        TimeoutLayer::new(Duration::from_secs(30)),
    );
    for (how, url) in [
        ("in a ServiceBuilder", serve_with(builder).await),
        ("in a tuple", serve_with(tuple).await),
    ] {
        for (era, version) in ERAS {
            // Connected outside the trace: its handshake is not among the requests counted.
            let client = connect(&url, era).await;
            let (trace_id, ()) = traced(&format!("composed {how} {version}"), async {
                let unknown = client
                    .request("tools/call", json!({"name": "no_such_tool"}))
                    .await;
                assert!(unknown.is_err(), "{unknown:?}");
                let made_up = client.request("made/up-method", json!({})).await;
                assert!(made_up.is_err(), "{made_up:?}");
                let ordered = client
                    .call_tool("order_book", json!({"title": "Dune"}))
                    .await;
                assert!(ordered.is_ok(), "{ordered:?}");
            })
            .await;
            receiver()
                .wait_for_spans(WAIT, "the composed server's spans", |spans| {
                    let trace = in_trace(spans, &trace_id);
                    let server = |name: &str| {
                        (trace.iter())
                            .filter(|s| s.kind == SERVER && s.name == name)
                            .count()
                    };
                    server("tools/call") >= 1
                        && server("_OTHER") >= 1
                        && server("tools/call order_book") >= 1
                })
                .await;
            // Give a second span, were there one, the time to arrive.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let spans = receiver().spans();
            let trace = in_trace(&spans, &trace_id);
            let context = format!("[{how}, {version}]\n{}", dump(&trace));
            let server: Vec<&str> = (trace.iter())
                .filter(|s| s.kind == SERVER)
                .map(|s| s.name.as_str())
                .collect();
            // One per request the client sent: the refused call, the unknown method, the call.
            let mut sorted = server.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                ["_OTHER", "tools/call", "tools/call order_book"],
                "{context}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_duration_histograms_follow_the_conventions() {
    let url = serve().await;
    for (era, _) in ERAS {
        let client = connect(&url, era).await;
        client
            .call_tool("order_book", json!({"title": "Neuromancer"}))
            .await
            .unwrap();
    }
    let buckets = [
        0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
    ];
    for (metric, transport) in [
        ("mcp.server.operation.duration", Some("tcp")),
        ("mcp.client.operation.duration", None),
    ] {
        for version in ["2025-11-25", "2026-07-28"] {
            let points = receiver()
                .wait_for_points(WAIT, metric, |points| {
                    points.iter().any(|p| {
                        p.metric == metric
                            && p.attributes.get("gen_ai.tool.name").map(String::as_str)
                                == Some("order_book")
                            && p.attributes.get("mcp.protocol.version").map(String::as_str)
                                == Some(version)
                    })
                })
                .await;
            let point = points
                .iter()
                .rev()
                .find(|p| {
                    p.metric == metric
                        && p.attributes.get("gen_ai.tool.name").map(String::as_str)
                            == Some("order_book")
                        && p.attributes.get("mcp.protocol.version").map(String::as_str)
                            == Some(version)
                })
                .unwrap();
            assert_eq!(point.unit, "s", "{point:?}");
            assert_eq!(point.scope, "mcpwire", "{point:?}");
            assert_eq!(point.bounds, buckets, "{point:?}");
            assert!(point.count >= 1, "{point:?}");
            let attr = |key: &str| point.attributes.get(key).map(String::as_str);
            assert_eq!(attr("mcp.method.name"), Some("tools/call"), "{point:?}");
            assert_eq!(attr("gen_ai.operation.name"), Some("execute_tool"));
            assert_eq!(attr("network.transport"), transport, "{point:?}");
            // High-cardinality attributes stay on spans.
            assert_eq!(attr("jsonrpc.request.id"), None, "{point:?}");
            assert_eq!(attr("mcp.session.id"), None, "{point:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_layer_makes_no_spans() {
    receiver();
    let server = McpServer::new("untraced")
        .state(Lookups::default())
        .tool(order_book)
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(
        server
            .http()
            .serve_listener(listener, std::future::pending()),
    );
    let client = connect(&url, EraChoice::Modern).await;
    let (trace_id, result) = traced("untraced", async {
        client
            .call_tool("order_book", json!({"title": "Dune"}))
            .await
    })
    .await;
    result.unwrap();
    let spans = receiver()
        .wait_for_spans(WAIT, "the client's span", |spans| {
            let trace = in_trace(spans, &trace_id);
            named(&trace, "untraced").len() == 1
                && named(&trace, "tools/call order_book").len() == 1
        })
        .await;
    // Give a stray server span the time to arrive, then check there is none.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let trace = in_trace(&receiver().spans(), &trace_id);
    assert_eq!(trace.len(), 2, "{}", dump(&trace));
    assert!(trace.iter().all(|s| s.kind != SERVER), "{}", dump(&spans));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_that_ends_records_its_duration() {
    let url = serve().await;
    let client = connect(&url, EraChoice::Legacy).await;
    client
        .call_tool("order_book", json!({"title": "Dune"}))
        .await
        .unwrap();
    // The client ends its session (DELETE): the server records how long it lasted.
    client.close().await;
    let metric = "mcp.server.session.duration";
    let points = receiver()
        .wait_for_points(WAIT, metric, |points| {
            points.iter().any(|p| p.metric == metric)
        })
        .await;
    let point = points.iter().rev().find(|p| p.metric == metric).unwrap();
    assert_eq!(point.unit, "s", "{point:?}");
    assert!(point.count >= 1, "{point:?}");
    let attr = |key: &str| point.attributes.get(key).map(String::as_str);
    assert_eq!(
        attr("mcp.protocol.version"),
        Some("2025-11-25"),
        "{point:?}"
    );
    assert_eq!(attr("network.transport"), Some("tcp"), "{point:?}");
    assert_eq!(
        attr("mcp.session.id"),
        None,
        "no high-cardinality attribute: {point:?}"
    );
}
