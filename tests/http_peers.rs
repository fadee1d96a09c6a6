//! The example servers over Streamable HTTP (`--http`), driven by the official Python SDK
//! client (a legacy session and stateless 2026-07-28 requests) and by the MCP Inspector CLI.

mod common;

use common::{HttpExample, MODERN, inspector_http, only_text, python_client_http};
use serde_json::json;

/// The first start says where the inventory is, how to try it with `mcpwire-cli` (calls that
/// work: crates/mcpwire-cli/tests/commands.rs runs them), then with the MCP Inspector, and last
/// the URL.
#[test]
fn bookshop_prints_its_url_and_how_to_try_it() {
    let server = HttpExample::start("bookshop");
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    assert!(server.url.ends_with("/mcp"), "{}", server.url);
    let stderr = server.stderr();
    let url = &server.url;
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("Bookshop: 43 titles in a temporary database"),
        "{stderr}"
    );
    assert!(lines[1].starts_with("Try it from another terminal with mcpwire-cli"));
    assert_eq!(
        lines[2..4],
        [
            format!("  mcpwire-cli call --url {url} reserve_book title=Dune"),
            format!("  mcpwire-cli call --url {url} browse_catalog"),
        ],
        "{stderr}"
    );
    assert!(
        lines[4].contains("npx @modelcontextprotocol/inspector") && lines[4].contains(url),
        "{stderr}"
    );
    assert!(
        lines[5].contains(&format!("npx @modelcontextprotocol/inspector --cli {url}")),
        "{stderr}"
    );
    assert_eq!(
        lines[6],
        format!("MCP server listening on {url}"),
        "{stderr}"
    );
}

/// One process needs no shared `requestState` keys (a random key of its own is right), so it
/// starts without a word about them; a replica of a fleet without shared keys is warned
/// (crates/mcpwire/tests/transport/http/serving.rs).
#[test]
fn a_single_http_server_does_not_warn_about_request_state_keys() {
    use std::io::{Read, Write};
    let server = HttpExample::start("bookshop");
    // Any answer comes from the built server, so start-up (and its warnings) is over by then.
    let addr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let stderr = server.stderr();
    assert!(!stderr.contains("random key"), "{stderr}");
    assert!(!stderr.contains("MCP_REQUEST_STATE_KEYS"), "{stderr}");
}

fn bookshop_serves(mode: &str) {
    let server = HttpExample::start("bookshop");
    let run = python_client_http(
        mode,
        &server.url,
        &[
            "list-tools",
            "call",
            "order_book",
            r#"{"title":"Dune"}"#,
            "call",
            "book_info",
            r#"{"title":"Neuromancer"}"#,
        ],
    );
    let [list, order, info] = run.results();
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("[{mode}] {list}"))
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
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
        "[{mode}]"
    );
    assert_eq!(
        only_text(order),
        "Ordered 'Dune'; it arrives tomorrow.",
        "[{mode}]"
    );
    assert_eq!(
        info["structuredContent"],
        json!({"title":"Neuromancer","copies":0}),
        "[{mode}]"
    );
    let modern = mode == MODERN;
    for result in run.received_results() {
        assert_eq!(
            result.get("resultType").is_some(),
            modern,
            "[{mode}] {result}"
        );
    }
    assert_eq!(run.asked, Vec::<serde_json::Value>::new());
}

#[test]
fn bookshop_serves_a_legacy_session() {
    bookshop_serves("legacy");
}

#[test]
fn bookshop_serves_modern_requests() {
    bookshop_serves(MODERN);
}

#[test]
fn order_book_runs_check_stock_once_per_call_over_http() {
    let server = HttpExample::start("order_book");
    for mode in ["legacy", MODERN] {
        let run = python_client_http(
            mode,
            &server.url,
            &[
                "call",
                "order_book",
                r#"{"title":"Neuromancer"}"#,
                "call",
                "stock_lookups",
                "{}",
            ],
        );
        let [order, lookups] = run.results();
        assert_eq!(
            only_text(order),
            "'Neuromancer' is on backorder; it would arrive in 2-3 weeks.",
            "[{mode}]"
        );
        let expected = if mode == "legacy" { "1" } else { "2" };
        assert_eq!(
            only_text(lookups),
            expected,
            "[{mode}] one lookup per call, across sessions"
        );
    }
}

#[test]
fn the_inspector_calls_reserve_book_in_both_eras() {
    let server = HttpExample::start("reserve_book");
    for era in [&[][..], &["--modern"][..]] {
        let (output, status) = inspector_http(
            era,
            &server.url,
            &[
                "--method",
                "tools/call",
                "--tool-name",
                "reserve_book",
                "--tool-arg",
                "title=Dune",
            ],
        );
        assert!(status.success(), "{era:?}: {output}");
        assert_eq!(
            only_text(&output["result"]),
            "Reserved 'Dune' (6 copies left).",
            "{era:?}"
        );
    }
}

/// The questions of `backorder` and `recommend_book` over HTTP: on a legacy session they are
/// real server→client requests on the call's SSE stream, answered by POST; on 2026-07-28 they
/// are `input_required` rounds. Either way the Python SDK client answers once per question.
fn questions_over_http(mode: &str) {
    let backorder = HttpExample::start("backorder");
    let run = python_client_http(
        mode,
        &backorder.url,
        &[
            "--elicit",
            r#"{"action":"accept","content":{"confirm":true}}"#,
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
            r#"{"title":"Dune"}"#,
        ],
    );
    let [accepted, declined, in_stock] = run.results();
    assert_eq!(
        only_text(accepted),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
        "[{mode}]"
    );
    assert_eq!(
        only_text(declined),
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: elicitation was decline",
        "[{mode}]"
    );
    assert_eq!(declined["isError"], true, "[{mode}]");
    assert_eq!(only_text(in_stock), "Ordered 'Dune'.", "[{mode}]");
    let methods: Vec<&str> = run
        .asked
        .iter()
        .map(|question| question["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        ["elicitation/create", "elicitation/create"],
        "[{mode}] one question per out-of-stock call, none in stock"
    );

    let recommend = HttpExample::start("recommend_book");
    let run = python_client_http(
        mode,
        &recommend.url,
        &[
            "--sample",
            "Neuromancer",
            "call",
            "recommend_book",
            r#"{"genre":"cyberpunk"}"#,
        ],
    );
    let [recommended] = run.results();
    assert_eq!(
        only_text(recommended),
        "Today's cyberpunk pick: Neuromancer",
        "[{mode}]"
    );
}

#[test]
fn questions_travel_over_a_legacy_http_session() {
    questions_over_http("legacy");
}

#[test]
fn questions_travel_as_rounds_over_stateless_http() {
    questions_over_http(MODERN);
}

/// The bookshop with a 300 ms `header_read_timeout`: a kept connection idle for longer is
/// closed by the server.
fn bookshop_closing_idle_connections() -> HttpExample {
    let mut command = std::process::Command::new(common::example_bin("bookshop"));
    command
        .args(["--http", "127.0.0.1:0"])
        .env("MCP_HEADER_READ_TIMEOUT_MS", "300");
    HttpExample::spawn(command, "bookshop with a 300 ms header timeout")
}

/// The steps each client runs against it: a call, a pause of four timeouts on the same
/// session (or stateless client), and the call again.
const CALL_PAUSE_CALL: [&str; 8] = [
    "call",
    "add",
    r#"{"a":2,"b":3}"#,
    "pause",
    "1.2",
    "call",
    "add",
    r#"{"a":2,"b":3}"#,
];

/// The two calls around the pause were both answered.
fn both_answered(run: &common::ClientRun, who: &str) {
    let [first, paused, second] = run.results();
    assert_eq!(only_text(first), "5", "[{who}] {}", run.stderr);
    assert_eq!(paused["paused"], json!(1.2), "[{who}]");
    assert_eq!(only_text(second), "5", "[{who}] {}", run.stderr);
}

/// A kept connection the server closed while it was idle costs the official SDKs' clients
/// nothing: after the pause, the next call is answered. The Python SDK 2.x on both revisions
/// and 1.x (2025-11-25, the client inside most deployed Python hosts), the TypeScript SDK 1.x
/// (2025-11-25, what most hosts run) and 2.x on both.
#[test]
fn the_sdk_clients_come_back_after_the_server_closed_their_idle_connection() {
    let server = bookshop_closing_idle_connections();
    for mode in ["legacy", MODERN] {
        let run = python_client_http(mode, &server.url, &CALL_PAUSE_CALL);
        both_answered(&run, &format!("python {mode}"));
    }
    let run = common::py1_client_http(&server.url, &CALL_PAUSE_CALL);
    both_answered(&run, "python 1.x legacy");
    for (sdk, mode) in [("v1", "legacy"), ("v2", "legacy"), ("v2", MODERN)] {
        let run = common::ts_client_http(sdk, mode, &server.url, &CALL_PAUSE_CALL);
        both_answered(&run, &format!("typescript {sdk} {mode}"));
    }
}

/// What each client runs against the soak server: a `slow` call (2 s) it gives up after
/// 200 ms, a pause longer than the call would have run, `soak_stats`, and a last call waited for.
const GIVE_UP_THEN_LOOK: [&str; 12] = [
    "call-within",
    "0.2",
    "slow",
    r#"{"steps":50}"#,
    "pause",
    "2.5",
    "call",
    "soak_stats",
    "{}",
    // A call waited for, to show that the counts see a `slow` that runs to its end.
    "call",
    "slow",
    r#"{"steps":1}"#,
];

/// A call an official SDK client gives up on (its own timeout expired) stops on the server: the
/// SDK tells the server (`notifications/cancelled` on a session; on 2026-07-28 it closes its
/// response), and the tool's body is dropped before its end. The TypeScript SDK 1.x (2025-11-25 sessions, what most
/// hosts run) and 2.x on both revisions, the Python SDK 2.x on both. Each gets its own
/// `soak_server`, whose `soak_stats` counts the `slow` bodies started, finished and alive.
///
/// The Python SDK 1.x is left out: it gives a call up without telling the server, which then
/// runs the call to its end, as the spec has it.
#[test]
fn a_call_the_sdk_clients_give_up_on_stops_on_the_server() {
    let clients = [
        ("python", "legacy"),
        ("python", MODERN),
        ("v1", "legacy"),
        ("v2", "legacy"),
        ("v2", MODERN),
    ];
    std::thread::scope(|scope| {
        for (sdk, mode) in clients {
            scope.spawn(move || {
                let server = HttpExample::start("soak_server");
                let run = match sdk {
                    "python" => python_client_http(mode, &server.url, &GIVE_UP_THEN_LOOK),
                    _ => common::ts_client_http(sdk, mode, &server.url, &GIVE_UP_THEN_LOOK),
                };
                let who = format!("{sdk} {mode}");
                let [given_up, _paused, stats, waited] = run.results();
                assert!(
                    given_up.get("error").is_some(),
                    "[{who}] the call was not given up: {given_up}"
                );
                let stats = &stats["structuredContent"];
                assert_eq!(stats["slow_started"], json!(1), "[{who}] {stats}");
                assert_eq!(
                    (&stats["slow_finished"], &stats["slow_running"]),
                    (&json!(0), &json!(0)),
                    "[{who}] the given-up call ran on: {stats}\nserver: {}",
                    server.stderr()
                );
                assert_eq!(only_text(waited), "slept 1 steps", "[{who}]");
            });
        }
    });
}
