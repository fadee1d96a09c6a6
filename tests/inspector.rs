//! The `bookshop` example driven over stdio by the MCP Inspector CLI (`tests/peers/inspector.sh`),
//! in the legacy era (an initialize session) and the modern one (2026-07-28 requests).

mod common;

use common::inspector;
use serde_json::json;

/// `[]` runs the inspector's default legacy era, `["--modern"]` the 2026-07-28 one.
const LEGACY: &[&str] = &[];
const MODERN: &[&str] = &["--modern"];

fn lists_every_tool(era: &[&str]) {
    let (output, status) = inspector(era, "bookshop", &["--method", "tools/list"]);
    assert!(
        status.success(),
        "{era:?}: inspector failed ({status}): {output}"
    );
    let names: Vec<&str> = output["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{era:?}: no tools in {output}"))
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
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
        "{era:?}"
    );
}

fn calls_reserve_book(era: &[&str]) {
    let (output, status) = inspector(
        era,
        "bookshop",
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "reserve_book",
            "--tool-arg",
            "title=Dune",
        ],
    );
    assert!(
        status.success(),
        "{era:?}: inspector failed ({status}): {output}"
    );
    let result = &output["result"];
    assert_ne!(result["isError"], true, "{era:?}: {output}");
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "Reserved 'Dune' (6 copies left)."}]),
        "{era:?}: {output}"
    );
}

#[test]
fn legacy_lists_every_tool() {
    lists_every_tool(LEGACY);
}

#[test]
fn modern_lists_every_tool() {
    lists_every_tool(MODERN);
}

#[test]
fn legacy_calls_reserve_book() {
    calls_reserve_book(LEGACY);
}

#[test]
fn modern_calls_reserve_book() {
    calls_reserve_book(MODERN);
}
