//! Resolvers that ask the client (`examples/backorder.rs`: an elicitation;
//! `examples/recommend_book.rs`: a sampling request), driven over stdio by the official Python
//! MCP SDK client (`tests/peers/client.py`). Each scenario runs once over a legacy session, where
//! the server sends a real `elicitation/create` / `sampling/createMessage` request, and once over
//! stateless 2026-07-28 requests, where the server answers `input_required` and the client retries
//! with its answers by itself. Expected texts come from `examples/`.
//!
//! The client's answers (`--elicit JSON`, `--sample TEXT`) are passed among the steps: client.py
//! reads its options anywhere after the server command.

mod common;

use common::{ClientRun, MODERN, in_both_modes, only_text, python_client};
use serde_json::{Value, json};

in_both_modes!(
    backorder_in_stock_asks_nothing,
    backorder_out_of_stock_asks_once_and_orders,
    backorder_confirm_false_places_no_order,
    backorder_decline_and_cancel_are_tool_errors,
    backorder_mismatched_content_is_a_clean_tool_error,
    backorder_without_elicitation_capability_is_32021,
    recommend_book_samples_the_client,
    recommend_book_without_sampling_capability_is_32021,
    backorder_two_calls_each_ask_once,
);

const ACCEPT_YES: &str = r#"{"action":"accept","content":{"confirm":true}}"#;
const ACCEPT_NO: &str = r#"{"action":"accept","content":{"confirm":false}}"#;
const DUNE: &str = r#"{"title":"Dune"}"#;
const NEUROMANCER: &str = r#"{"title":"Neuromancer"}"#;

/// The question `confirm_backorder` asks for an out-of-stock `title`, as the client receives it.
fn backorder_question(title: &str) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": format!("'{title}' is out of stock (2-3 weeks). Order anyway?"),
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "confirm": {"type": "boolean", "description": "Order anyway and wait?"}
                },
                "required": ["confirm"]
            }
        }
    })
}

fn backorder_in_stock_asks_nothing(mode: &str) {
    let run = python_client(
        mode,
        "backorder",
        &["--elicit", ACCEPT_YES, "call", "order_book", DUNE],
    );
    let [dune] = run.results();
    assert_ok_text(mode, dune, "Ordered 'Dune'.");
    assert_asked(mode, &run, &[]);
}

fn backorder_out_of_stock_asks_once_and_orders(mode: &str) {
    let run = python_client(
        mode,
        "backorder",
        &["--elicit", ACCEPT_YES, "call", "order_book", NEUROMANCER],
    );
    let [neuromancer] = run.results();
    assert_ok_text(
        mode,
        neuromancer,
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
    );
    assert_asked(mode, &run, &[backorder_question("Neuromancer")]);
}

fn backorder_confirm_false_places_no_order(mode: &str) {
    let run = python_client(
        mode,
        "backorder",
        &["--elicit", ACCEPT_NO, "call", "order_book", NEUROMANCER],
    );
    let [neuromancer] = run.results();
    assert_ok_text(mode, neuromancer, "No order placed.");
    assert_asked(mode, &run, &[backorder_question("Neuromancer")]);
}

fn backorder_decline_and_cancel_are_tool_errors(mode: &str) {
    let run = python_client(
        mode,
        "backorder",
        &[
            "--elicit",
            r#"{"action":"decline"}"#,
            "--elicit",
            r#"{"action":"cancel"}"#,
            "call",
            "order_book",
            NEUROMANCER,
            "call",
            "order_book",
            NEUROMANCER,
        ],
    );
    let [declined, cancelled] = run.results();
    assert_tool_error(
        mode,
        declined,
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: \
         elicitation was decline",
    );
    assert_tool_error(
        mode,
        cancelled,
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: \
         elicitation was cancel",
    );
    assert_asked(
        mode,
        &run,
        &[
            backorder_question("Neuromancer"),
            backorder_question("Neuromancer"),
        ],
    );
}

fn backorder_mismatched_content_is_a_clean_tool_error(mode: &str) {
    let run = python_client(
        mode,
        "backorder",
        &[
            "--elicit",
            r#"{"action":"accept","content":{"confirm":"yes please"}}"#,
            "call",
            "order_book",
            NEUROMANCER,
            "call",
            "order_book",
            DUNE,
        ],
    );
    let [mismatched, after] = run.results();
    // Exactly this text: no serde or parser detail (`invalid type: string "yes please"…`) leaks.
    assert_tool_error(
        mode,
        mismatched,
        "Error executing tool order_book: Resolver 'confirm_backorder' received an accepted \
         elicitation whose content does not match the requested schema",
    );
    assert_ok_text(mode, after, "Ordered 'Dune'.");
    assert_asked(mode, &run, &[backorder_question("Neuromancer")]);
}

fn backorder_without_elicitation_capability_is_32021(mode: &str) {
    // No --elicit: the client has no elicitation callback and declares no capabilities.
    let run = python_client(
        mode,
        "backorder",
        &[
            "call",
            "order_book",
            NEUROMANCER,
            "call",
            "order_book",
            DUNE,
        ],
    );
    assert_eq!(
        declared_capabilities(mode, &run),
        &json!({}),
        "[{mode}] client.py without answer flags must declare no capabilities"
    );
    let [refused, after] = run.results();
    assert_eq!(
        refused,
        &json!({"error": {
            "code": -32021,
            "message": "Client did not declare the form elicitation capability required by \
                        resolver 'confirm_backorder'",
            "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}
        }}),
        "[{mode}] a missing elicitation capability must be a -32021 JSON-RPC error"
    );
    assert_ok_text(mode, after, "Ordered 'Dune'.");
    assert_asked(mode, &run, &[]);
}

fn recommend_book_samples_the_client(mode: &str) {
    let run = python_client(
        mode,
        "recommend_book",
        &[
            "--sample",
            "Dune",
            "call",
            "recommend_book",
            r#"{"genre":"science fiction"}"#,
        ],
    );
    let [pick] = run.results();
    assert_ok_text(mode, pick, "Today's science fiction pick: Dune");
    assert_asked(
        mode,
        &run,
        &[json!({
            "method": "sampling/createMessage",
            "params": {
                "messages": [{
                    "role": "user",
                    "content": {
                        "type": "text",
                        "text": "Suggest one science fiction book title. Answer with the title only."
                    }
                }],
                "maxTokens": 50
            }
        })],
    );
}

fn recommend_book_without_sampling_capability_is_32021(mode: &str) {
    let run = python_client(
        mode,
        "recommend_book",
        &["call", "recommend_book", r#"{"genre":"science fiction"}"#],
    );
    assert_eq!(
        declared_capabilities(mode, &run),
        &json!({}),
        "[{mode}] client.py without answer flags must declare no capabilities"
    );
    let [refused] = run.results();
    assert_eq!(
        refused,
        &json!({"error": {
            "code": -32021,
            "message": "Client did not declare the sampling capability required by resolver \
                        'suggest_title'",
            "data": {"requiredCapabilities": {"sampling": {}}}
        }}),
        "[{mode}] a missing sampling capability must be a -32021 JSON-RPC error"
    );
    assert_asked(mode, &run, &[]);
}

fn backorder_two_calls_each_ask_once(mode: &str) {
    let run = python_client(
        mode,
        "backorder",
        &[
            "--elicit",
            ACCEPT_YES,
            "--elicit",
            ACCEPT_NO,
            "call",
            "order_book",
            NEUROMANCER,
            "call",
            "order_book",
            NEUROMANCER,
        ],
    );
    let [first, second] = run.results();
    // The answers are consumed in order: the first call got `true`, the second `false`.
    assert_ok_text(
        mode,
        first,
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
    );
    assert_ok_text(mode, second, "No order placed.");
    assert_asked(
        mode,
        &run,
        &[
            backorder_question("Neuromancer"),
            backorder_question("Neuromancer"),
        ],
    );
}

/// The 2026-07-28 round trip as it is on the wire: `input_required` with one input request and a
/// sealed `requestState`, a retry echoing that state with the answer, then a complete result.
#[test]
fn backorder_modern_round_trip_on_the_wire() {
    let mode = MODERN;
    let run = python_client(
        mode,
        "backorder",
        &["--elicit", ACCEPT_YES, "call", "order_book", NEUROMANCER],
    );
    let [neuromancer] = run.results();
    assert_ok_text(
        mode,
        neuromancer,
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
    );

    let calls: Vec<&Value> = run
        .wire
        .iter()
        .filter(|line| line["dir"] == "send" && line["message"]["method"] == "tools/call")
        .map(|line| &line["message"])
        .collect();
    let [first, retry] = calls.as_slice() else {
        panic!(
            "[{mode}] expected the call and one retry, got {} tools/call requests: {:#?}",
            calls.len(),
            run.wire
        );
    };
    for call in [first, retry] {
        assert_eq!(call["params"]["name"], "order_book", "[{mode}] {call}");
        assert_eq!(
            call["params"]["arguments"],
            json!({"title": "Neuromancer"}),
            "[{mode}] {call}"
        );
    }
    assert_eq!(
        first["params"].get("requestState"),
        None,
        "[{mode}] {first}"
    );
    assert_eq!(
        first["params"].get("inputResponses"),
        None,
        "[{mode}] {first}"
    );

    let pending = response_to(mode, &run, first);
    assert_eq!(
        pending["resultType"], "input_required",
        "[{mode}] {pending}"
    );
    let input_requests = pending["inputRequests"]
        .as_object()
        .unwrap_or_else(|| panic!("[{mode}] inputRequests is not an object: {pending}"));
    let [(key, question)] = input_requests.iter().collect::<Vec<_>>()[..] else {
        panic!("[{mode}] expected exactly one input request: {pending}");
    };
    assert_eq!(
        question,
        &backorder_question("Neuromancer"),
        "[{mode}] {pending}"
    );
    let state = pending["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("[{mode}] requestState is not a string: {pending}"));
    assert!(
        state.starts_with("v2.") && state.len() > "v2.".len(),
        "[{mode}] requestState {state:?} is not a v2 sealed state"
    );

    assert_eq!(
        retry["params"]["requestState"], state,
        "[{mode}] the retry must echo the exact requestState: {retry}"
    );
    assert_eq!(
        retry["params"]["inputResponses"],
        json!({key.as_str(): {"action": "accept", "content": {"confirm": true}}}),
        "[{mode}] the retry must answer under the input request's key: {retry}"
    );

    let complete = response_to(mode, &run, retry);
    assert_eq!(complete["resultType"], "complete", "[{mode}] {complete}");
    assert_eq!(
        complete.get("requestState"),
        None,
        "[{mode}] a complete result carries no requestState: {complete}"
    );
    assert_eq!(
        only_text(complete),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
        "[{mode}] {complete}"
    );
    assert_asked(mode, &run, &[backorder_question("Neuromancer")]);
}

/// The `result` the client received for `request` (matched by id).
fn response_to<'a>(mode: &str, run: &'a ClientRun, request: &Value) -> &'a Value {
    let id = &request["id"];
    let responses: Vec<&Value> = run
        .wire
        .iter()
        .filter(|line| {
            line["dir"] == "recv"
                && line["message"]["id"] == *id
                && line["message"].get("method").is_none()
        })
        .map(|line| &line["message"])
        .collect();
    let [response] = responses.as_slice() else {
        panic!(
            "[{mode}] expected exactly one response to id {id}: {:#?}",
            run.wire
        );
    };
    response
        .get("result")
        .unwrap_or_else(|| panic!("[{mode}] the response to id {id} is not a result: {response}"))
}

/// The capabilities the client declared: in `initialize` (legacy) or in the first request's
/// `_meta` (2026-07-28).
fn declared_capabilities<'a>(mode: &str, run: &'a ClientRun) -> &'a Value {
    let first = run
        .wire
        .iter()
        .find(|line| line["dir"] == "send")
        .map(|line| &line["message"])
        .unwrap_or_else(|| panic!("[{mode}] the client sent nothing: {:#?}", run.wire));
    let capabilities = if mode == MODERN {
        &first["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    } else {
        assert_eq!(first["method"], "initialize", "[{mode}] {first}");
        &first["params"]["capabilities"]
    };
    assert!(
        capabilities.is_object(),
        "[{mode}] no declared capabilities in {first}"
    );
    capabilities
}

/// The client was asked exactly `expected`, in order, and each question travelled the way its
/// mode says: legacy as server-to-client requests and never `input_required`; 2026-07-28 as the
/// `inputRequests` of `input_required` results and never a server-to-client request.
fn assert_asked(mode: &str, run: &ClientRun, expected: &[Value]) {
    assert_eq!(
        run.asked, expected,
        "[{mode}] questions the client received (count and content)"
    );

    let mut server_requests = Vec::new();
    let mut input_requests = Vec::new();
    for line in run.wire.iter().filter(|line| line["dir"] == "recv") {
        let message = &line["message"];
        if message.get("method").is_some() && message.get("id").is_some() {
            server_requests.push(json!({
                "method": message["method"],
                "params": message["params"],
            }));
        }
        if let Some(result) = message.get("result")
            && result["resultType"] == "input_required"
        {
            let requests = result["inputRequests"].as_object().unwrap_or_else(|| {
                panic!("[{mode}] input_required without inputRequests: {result}")
            });
            input_requests.extend(requests.values().cloned());
        }
    }
    let (on_the_wire, other, other_kind) = if mode == MODERN {
        (input_requests, server_requests, "server-to-client requests")
    } else {
        (server_requests, input_requests, "input_required results")
    };
    assert_eq!(
        on_the_wire, expected,
        "[{mode}] the questions as they were on the wire: {:#?}",
        run.wire
    );
    assert!(
        other.is_empty(),
        "[{mode}] unexpected {other_kind}: {other:#?}"
    );
}

/// A successful tool result whose only content is `text`.
fn assert_ok_text(mode: &str, result: &Value, text: &str) {
    assert_ne!(
        result["isError"], true,
        "[{mode}] unexpected tool error: {result}"
    );
    assert_eq!(only_text(result), text, "[{mode}] {result}");
}

/// An in-band tool error (`isError: true`) whose only content is `text`.
fn assert_tool_error(mode: &str, result: &Value, text: &str) {
    assert_eq!(
        result["isError"], true,
        "[{mode}] expected an in-band tool error: {result}"
    );
    assert_eq!(only_text(result), text, "[{mode}] {result}");
}
