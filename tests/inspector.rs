//! The `bookshop` example driven over stdio by the MCP Inspector CLI (`tests/peers/inspector.sh`),
//! in the legacy era (an initialize session) and the modern one (2026-07-28 requests): its tools,
//! its catalog view (MCP Apps, `--app-info`) and its skill (`skills/list --verify`).

mod common;

use common::{inspector, inspector_lines};
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

/// `tools/list --app-info`: one line per tool; `browse_catalog` alone has a view, the catalog,
/// served as an MCP App with the settings the bookshop gives it.
fn shows_the_catalog_view(era: &[&str]) {
    let (lines, status) =
        inspector_lines(era, "bookshop", &["--method", "tools/list", "--app-info"]);
    assert!(
        status.success(),
        "{era:?}: inspector failed ({status}): {lines:?}"
    );
    let with_app: Vec<&serde_json::Value> =
        lines.iter().filter(|line| line["hasApp"] == true).collect();
    assert_eq!(
        with_app,
        [&json!({
            "hasApp": true,
            "toolName": "browse_catalog",
            "resourceUri": "ui://bookshop/catalog.html",
            "resourceMimeType": "text/html;profile=mcp-app",
            // Declared empty: the view loads nothing and connects nowhere.
            "csp": {},
            "prefersBorder": true,
        })],
        "{era:?}: {lines:?}"
    );
    assert_eq!(lines.len(), 6, "{era:?}: one line per tool: {lines:?}");
    for line in &lines {
        assert!(
            line.get("resourceError").is_none(),
            "{era:?}: {line} (every view reads)"
        );
    }
}

/// `skills/list --verify`: the bookshop's skill and each of its files check out (the
/// inspector fetches every file and compares its digest and size with the listing).
fn verifies_the_skill(era: &[&str]) {
    let (lines, status) =
        inspector_lines(era, "bookshop", &["--method", "skills/list", "--verify"]);
    assert!(
        status.success(),
        "{era:?}: inspector failed ({status}): {lines:?}"
    );
    let [skill] = lines.as_slice() else {
        panic!("{era:?}: expected one skill: {lines:?}");
    };
    assert_eq!(skill["name"], "find-and-reserve-a-book", "{era:?}: {skill}");
    assert_eq!(skill["ok"], true, "{era:?}: {skill}");
    assert_eq!(skill["outcome"], "verified", "{era:?}: {skill}");
    assert_eq!(skill["conformance"], json!([]), "{era:?}: {skill}");
    let files = skill["files"].as_array().expect("the skill's files");
    assert_eq!(files.len(), 2, "{era:?}: {skill}");
    for file in files {
        assert_eq!(file["status"], "verified", "{era:?}: {file}");
    }
}

#[test]
fn legacy_shows_the_catalog_view() {
    shows_the_catalog_view(LEGACY);
}

#[test]
fn modern_shows_the_catalog_view() {
    shows_the_catalog_view(MODERN);
}

#[test]
fn legacy_verifies_the_skill() {
    verifies_the_skill(LEGACY);
}

#[test]
fn modern_verifies_the_skill() {
    verifies_the_skill(MODERN);
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
