//! The example servers driven over stdio by the official Python MCP SDK client
//! (`tests/peers/client.py`), each test once over a legacy session and once over stateless
//! 2026-07-28 requests. Expected texts come from `examples/`.

mod common;

use common::{ClientRun, MODERN, in_both_modes, only_text, python_client};
use serde_json::{Value, json};

in_both_modes!(
    reserve_book_lists_its_tool_and_fills_stock,
    reserve_book_rejects_bad_arguments_and_unknown_tools,
    order_book_runs_check_stock_once_per_call,
    bookshop_returns_structured_output,
);

/// The `{"title": string}` input schema every book tool shows the model.
fn title_schema() -> Value {
    json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]})
}

fn reserve_book_lists_its_tool_and_fills_stock(mode: &str) {
    let run = python_client(
        mode,
        "reserve_book",
        &[
            "list-tools",
            "call",
            "reserve_book",
            r#"{"title":"Dune"}"#,
            "call",
            "reserve_book",
            r#"{"title":"Neuromancer"}"#,
            "call",
            "reserve_book",
            r#"{"title":"Dune","stock":{"title":"Dune","copies":99}}"#,
        ],
    );
    let [list, dune, neuromancer, dune_with_stock] = run.results();

    let tools = list["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("[{mode}] tools/list without tools: {list}"));
    let [tool] = tools.as_slice() else {
        panic!("[{mode}] expected exactly one tool, got {list}");
    };
    assert_eq!(tool["name"], "reserve_book", "[{mode}] {tool}");
    assert_eq!(
        tool["description"], "Reserve a copy of a book.",
        "[{mode}] {tool}"
    );
    assert_eq!(
        tool["inputSchema"],
        title_schema(),
        "[{mode}] the resolver-filled `stock` must not show in the input schema"
    );

    assert_ok_text(mode, dune, "Reserved 'Dune' (6 copies left).");
    assert_ok_text(mode, neuromancer, "'Neuromancer' is out of stock.");
    assert_ok_text(
        mode,
        dune_with_stock,
        "Reserved 'Dune' (6 copies left).", // the client's `stock` (99 copies) is ignored
    );
    assert_eq!(
        run.asked,
        Vec::<Value>::new(),
        "[{mode}] no questions expected"
    );
}

fn reserve_book_rejects_bad_arguments_and_unknown_tools(mode: &str) {
    let run = python_client(
        mode,
        "reserve_book",
        &[
            "call",
            "reserve_book",
            r#"{"title":5}"#,
            "call",
            "reserve_book",
            "{}",
            "call",
            "no_such_tool",
            "{}",
            "call",
            "reserve_book",
            r#"{"title":"Dune"}"#,
        ],
    );
    let [wrong_type, missing, unknown, after] = run.results();

    for (case, result) in [("{\"title\":5}", wrong_type), ("{}", missing)] {
        assert_eq!(
            result["isError"], true,
            "[{mode}] {case} must be an in-band tool error: {result}"
        );
        let text = only_text(result);
        let detail = text
            .strip_prefix("Error executing tool reserve_book: invalid arguments:")
            .unwrap_or_else(|| panic!("[{mode}] {case}: unexpected error text {text:?}"));
        assert!(
            detail.contains("title"),
            "[{mode}] {case}: the error should name `title`: {text:?}"
        );
    }

    assert_eq!(
        unknown["error"]["code"], -32602,
        "[{mode}] an unknown tool must be a JSON-RPC invalid-params error: {unknown}"
    );
    assert_eq!(
        unknown["error"]["message"], "Unknown tool: no_such_tool",
        "[{mode}] {unknown}"
    );
    assert_ok_text(mode, after, "Reserved 'Dune' (6 copies left).");
}

fn order_book_runs_check_stock_once_per_call(mode: &str) {
    let run = python_client(
        mode,
        "order_book",
        &[
            "call",
            "order_book",
            r#"{"title":"Dune"}"#,
            "call",
            "order_book",
            r#"{"title":"Neuromancer"}"#,
            "call",
            "stock_lookups",
            "{}",
        ],
    );
    let [dune, neuromancer, lookups] = run.results();
    assert_ok_text(mode, dune, "Ordered 'Dune'; it arrives tomorrow.");
    assert_ok_text(
        mode,
        neuromancer,
        "'Neuromancer' is on backorder; it would arrive in 2-3 weeks.",
    );
    // Two calls, each needing `check_stock` for two parameters (`stock` and, through
    // `estimate_delivery`, `delivery`): one lookup per call.
    assert_ok_text(mode, lookups, "2");
}

fn bookshop_returns_structured_output(mode: &str) {
    let run = python_client(
        mode,
        "bookshop",
        &[
            "list-tools",
            "call",
            "book_info",
            r#"{"title":"Dune"}"#,
            "call",
            "add",
            r#"{"a":2,"b":3}"#,
        ],
    );
    let [list, info, sum] = run.results();

    let tools = list["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("[{mode}] tools/list without tools: {list}"));
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "reserve_book",
            "order_book",
            "book_info",
            "browse_catalog",
            "confirm_order",
            "add"
        ],
        "[{mode}]"
    );
    let book_info = &tools[2];
    assert_eq!(
        book_info["inputSchema"],
        title_schema(),
        "[{mode}] {book_info}"
    );
    let output_schema = &book_info["outputSchema"];
    assert_eq!(output_schema["type"], "object", "[{mode}] {book_info}");
    assert_eq!(
        output_schema["required"],
        json!(["title", "copies"]),
        "[{mode}] {book_info}"
    );
    assert_eq!(
        output_schema["properties"]["title"]["type"], "string",
        "[{mode}]"
    );
    assert_eq!(
        output_schema["properties"]["copies"]["type"], "integer",
        "[{mode}]"
    );

    let expected = json!({"title": "Dune", "copies": 7});
    assert_eq!(info["structuredContent"], expected, "[{mode}] {info}");
    let copy: Value = serde_json::from_str(only_text(info))
        .unwrap_or_else(|e| panic!("[{mode}] the text copy is not JSON ({e}): {info}"));
    assert_eq!(
        copy, expected,
        "[{mode}] the text copy must match structuredContent"
    );
    assert_ne!(info["isError"], true, "[{mode}] {info}");

    assert_eq!(
        sum["structuredContent"],
        json!({"result": 5}),
        "[{mode}] {sum}"
    );
    assert_eq!(only_text(sum), "5", "[{mode}] {sum}");

    assert_era_markers(mode, &run, &[list, info, sum]);
}

/// Modern results carry `resultType: "complete"` and the server's name in
/// `_meta["io.modelcontextprotocol/serverInfo"]`; legacy results carry neither. Checked both on
/// the SDK's parsed results and on the raw responses in the wire log.
fn assert_era_markers(mode: &str, run: &ClientRun, parsed: &[&Value]) {
    let raw = run.received_results();
    let expected_responses = if mode == MODERN { 3 } else { 4 }; // legacy: + initialize
    assert_eq!(
        raw.len(),
        expected_responses,
        "[{mode}] responses on the wire: {:#?}",
        run.wire
    );
    for result in parsed.iter().copied().chain(raw) {
        if mode == MODERN {
            assert_eq!(result["resultType"], "complete", "[{mode}] {result}");
            assert_eq!(
                result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "Bookshop",
                "[{mode}] {result}"
            );
        } else {
            assert_eq!(result.get("resultType"), None, "[{mode}] {result}");
            assert_eq!(result.get("_meta"), None, "[{mode}] {result}");
        }
    }
}

/// A successful tool result whose only content is `text`.
fn assert_ok_text(mode: &str, result: &Value, text: &str) {
    assert_ne!(
        result["isError"], true,
        "[{mode}] unexpected tool error: {result}"
    );
    assert_eq!(only_text(result), text, "[{mode}] {result}");
}
