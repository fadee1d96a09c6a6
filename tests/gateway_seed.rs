//! The seed page's flows (dependencies: `reserve_book`, `order_book`, and the resolvers that ask
//! the client, `backorder`'s elicitation and `recommend_book`'s sampling) through the gateway
//! (`mcpwire::gateway`, served over Streamable HTTP), with the example as its only backend,
//! mounted without a prefix (namespace `""`) so every name is the example's own. Driven by the
//! official Python SDK client (`tests/peers/client.py`) on both eras of the front, each against
//! a gateway speaking 2025-11-25 and one speaking 2026-07-28 to the example; by the TypeScript
//! SDK's clients (`tests/peers/ts_client.mjs`: the 1.x line on 2025-11-25, the 2.x line on both
//! eras), answering the same elicitations and samplings; and by the MCP Inspector's CLI on both
//! eras. The expected texts are the ones the examples give directly (tests/http_peers.rs,
//! tests/python_questions.rs).

mod common;

use common::gateway::Fronting;
use common::{
    ClientRun, HttpExample, MODERN, inspector_http, only_text, python_client_http, ts_client_http,
};
use mcpwire::client::EraChoice;
use serde_json::{Value, json};

/// A gateway in front of one example; the gateway stops, then the example, when dropped.
struct Fronted {
    /// The gateway's endpoint.
    url: String,
    _gateway: Fronting,
    _example: HttpExample,
}

/// Starts the example `name` over HTTP and a gateway in front of it, mounted without a prefix,
/// speaking `backend_era` to it.
fn through_gateway(name: &str, backend_era: EraChoice) -> Fronted {
    let example = HttpExample::start(name);
    let gateway = Fronting::start(name, &example.url, "", backend_era);
    Fronted {
        url: gateway.url.clone(),
        _gateway: gateway,
        _example: example,
    }
}

/// A client in front of the gateway: the official Python SDK's (`tests/peers/client.py`, 2.x)
/// in a mode, or the TypeScript SDK's (`tests/peers/ts_client.mjs`: `v1`, the 1.x line, or
/// `v2`) in a mode.
#[derive(Clone, Copy, Debug)]
enum Peer {
    Python(&'static str),
    TypeScript(&'static str, &'static str),
}

impl Peer {
    /// Runs `steps` (the scripted clients' shared words) against `url`.
    fn run(self, url: &str, steps: &[&str]) -> ClientRun {
        match self {
            Peer::Python(mode) => python_client_http(mode, url, steps),
            Peer::TypeScript(sdk, mode) => ts_client_http(sdk, mode, url, steps),
        }
    }

    /// Whether the client speaks 2026-07-28 to the gateway.
    fn modern(self) -> bool {
        matches!(self, Peer::Python(MODERN) | Peer::TypeScript(_, MODERN))
    }
}

/// Runs each `fn NAME(peer: Peer, backend: EraChoice)` as eight tests: the Python client's
/// front era by the era the gateway speaks to the example, then the TypeScript SDK's clients
/// (1.x on 2025-11-25; 2.x on both eras) each against one backend era, so that every front
/// era meets every backend era for each SDK line that speaks it.
macro_rules! front_by_backend {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            use super::Peer::{Python, TypeScript};
            use mcpwire::client::EraChoice::{Legacy, Modern};
            #[test] fn legacy_to_legacy() { super::$scenario(Python("legacy"), Legacy) }
            #[test] fn legacy_to_modern() { super::$scenario(Python("legacy"), Modern) }
            #[test] fn modern_to_legacy() { super::$scenario(Python(super::MODERN), Legacy) }
            #[test] fn modern_to_modern() { super::$scenario(Python(super::MODERN), Modern) }
            #[test] fn ts1_legacy_to_modern() { super::$scenario(TypeScript("v1", "legacy"), Modern) }
            #[test] fn ts2_legacy_to_legacy() { super::$scenario(TypeScript("v2", "legacy"), Legacy) }
            #[test] fn ts2_modern_to_legacy() { super::$scenario(TypeScript("v2", super::MODERN), Legacy) }
            #[test] fn ts2_modern_to_modern() { super::$scenario(TypeScript("v2", super::MODERN), Modern) }
        }
    )*};
}

front_by_backend!(
    reserve_book_resolves_stock_the_model_cannot_send,
    order_book_runs_check_stock_once_per_call,
    backorder_asks_through_the_gateway,
    recommend_book_samples_through_the_gateway,
);

fn reserve_book_resolves_stock_the_model_cannot_send(peer: Peer, backend: EraChoice) {
    let gateway = through_gateway("reserve_book", backend);
    let run = peer.run(
        &gateway.url,
        &[
            "list-tools",
            "call",
            "reserve_book",
            r#"{"title":"Dune"}"#,
            "call",
            "reserve_book",
            r#"{"title":"Neuromancer"}"#,
            // A `stock` the client sends anyway is not the one the tool gets.
            "call",
            "reserve_book",
            r#"{"title":"Neuromancer","stock":{"title":"Neuromancer","copies":99}}"#,
        ],
    );
    let [list, dune, neuromancer, forged] = run.results();
    let at = format!("[{peer:?} -> {backend:?}]");
    let tools = list["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{at} {list}"));
    let reserve = tools
        .iter()
        .find(|tool| tool["name"] == "reserve_book")
        .unwrap_or_else(|| panic!("{at} no reserve_book in {list}"));
    assert_eq!(
        reserve["inputSchema"]["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect::<Vec<_>>()),
        Some(vec!["title"]),
        "{at} the model sees only `title`: {reserve}"
    );
    assert_eq!(reserve["inputSchema"]["required"], json!(["title"]), "{at}");
    assert_eq!(only_text(dune), "Reserved 'Dune' (6 copies left).", "{at}");
    assert_eq!(
        only_text(neuromancer),
        "'Neuromancer' is out of stock.",
        "{at}"
    );
    assert_eq!(only_text(forged), "'Neuromancer' is out of stock.", "{at}");
    for result in run.received_results() {
        assert_eq!(
            result.get("resultType").is_some(),
            peer.modern(),
            "{at} the front answers in the client's era: {result}"
        );
    }
    assert_eq!(run.asked, Vec::<Value>::new(), "{at}");
}

fn order_book_runs_check_stock_once_per_call(peer: Peer, backend: EraChoice) {
    let gateway = through_gateway("order_book", backend);
    let run = peer.run(
        &gateway.url,
        &[
            "call",
            "order_book",
            r#"{"title":"Neuromancer"}"#,
            "call",
            "order_book",
            r#"{"title":"Dune"}"#,
            "call",
            "stock_lookups",
            "{}",
        ],
    );
    let [neuromancer, dune, lookups] = run.results();
    let at = format!("[{peer:?} -> {backend:?}]");
    assert_eq!(
        only_text(neuromancer),
        "'Neuromancer' is on backorder; it would arrive in 2-3 weeks.",
        "{at}"
    );
    assert_eq!(
        only_text(dune),
        "Ordered 'Dune'; it arrives tomorrow.",
        "{at}"
    );
    assert_eq!(only_text(lookups), "2", "{at} one lookup per call");
}

const QUESTION: &str = "'Neuromancer' is out of stock (2-3 weeks). Order anyway?";

fn backorder_asks_through_the_gateway(peer: Peer, backend: EraChoice) {
    let gateway = through_gateway("backorder", backend);
    let run = peer.run(
        &gateway.url,
        &[
            "--elicit",
            r#"{"action":"accept","content":{"confirm":true}}"#,
            "--elicit",
            r#"{"action":"accept","content":{"confirm":false}}"#,
            "--elicit",
            r#"{"action":"decline"}"#,
            "call",
            "order_book",
            r#"{"title":"Neuromancer"}"#,
            "call",
            "order_book",
            r#"{"title":"Neuromancer"}"#,
            "call",
            "order_book",
            r#"{"title":"Neuromancer"}"#,
            "call",
            "order_book",
            r#"{"title":"Dune"}"#,
        ],
    );
    let [accepted, refused, declined, in_stock] = run.results();
    let at = format!("[{peer:?} -> {backend:?}]");
    assert_eq!(
        only_text(accepted),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
        "{at}"
    );
    assert_eq!(only_text(refused), "No order placed.", "{at}");
    assert_eq!(
        only_text(declined),
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: elicitation was decline",
        "{at}"
    );
    assert_eq!(declined["isError"], true, "{at}");
    assert_eq!(only_text(in_stock), "Ordered 'Dune'.", "{at}");
    assert_eq!(
        run.asked.len(),
        3,
        "{at} one question per out-of-stock call: {:?}",
        run.asked
    );
    for question in &run.asked {
        assert_eq!(question["method"], "elicitation/create", "{at}");
        assert_eq!(question["params"]["message"], QUESTION, "{at}");
        assert_eq!(
            question["params"]["requestedSchema"]["required"],
            json!(["confirm"]),
            "{at}"
        );
    }
}

fn recommend_book_samples_through_the_gateway(peer: Peer, backend: EraChoice) {
    let gateway = through_gateway("recommend_book", backend);
    let run = peer.run(
        &gateway.url,
        &[
            "--sample",
            "Neuromancer",
            "call",
            "recommend_book",
            r#"{"genre":"cyberpunk"}"#,
        ],
    );
    let [recommended] = run.results();
    let at = format!("[{peer:?} -> {backend:?}]");
    assert_eq!(
        only_text(recommended),
        "Today's cyberpunk pick: Neuromancer",
        "{at}"
    );
    let methods: Vec<&Value> = run.asked.iter().map(|q| &q["method"]).collect();
    assert_eq!(methods, [&json!("sampling/createMessage")], "{at}");
}

/// The TypeScript SDK's client (the MCP Inspector CLI) lists and calls `reserve_book` through
/// the gateway on both eras.
#[test]
fn the_inspector_reserves_a_book_through_the_gateway() {
    let gateway = through_gateway("reserve_book", EraChoice::Auto);
    for era in [&[][..], &["--modern"][..]] {
        let (listed, status) = inspector_http(era, &gateway.url, &["--method", "tools/list"]);
        assert!(status.success(), "{era:?}: {listed}");
        let tools = listed["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{listed}"));
        assert!(
            tools.iter().any(|tool| tool["name"] == "reserve_book"),
            "{era:?}: {listed}"
        );
        for (title, expected) in [
            ("Dune", "Reserved 'Dune' (6 copies left)."),
            ("Neuromancer", "'Neuromancer' is out of stock."),
        ] {
            let argument = format!("title={title}");
            let (output, status) = inspector_http(
                era,
                &gateway.url,
                &[
                    "--method",
                    "tools/call",
                    "--tool-name",
                    "reserve_book",
                    "--tool-arg",
                    &argument,
                ],
            );
            assert!(status.success(), "{era:?}: {output}");
            assert_eq!(only_text(&output["result"]), expected, "{era:?}");
        }
    }
}
