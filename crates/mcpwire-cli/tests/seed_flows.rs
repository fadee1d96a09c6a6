//! The seed page's flows through the built `mcpwire-cli`, end to end against this workspace's
//! examples, on both transports (`--stdio`, `--url`) and both eras: an out-of-stock order
//! answered with `--answer`, declined with `--decline` (exit 5), a sampled recommendation with
//! `--sample`, and the bookshop's listings, arguments and `--json`.

mod common;

use common::{HttpServer, Run, run, stdio_example};
use serde_json::{Value, json};

/// The target flags for example `name`: over stdio, or on HTTP (the server lives as long as
/// the returned guard).
fn target(via: &str, name: &str) -> (Vec<String>, Option<HttpServer>) {
    match via {
        "stdio" => (vec!["--stdio".into(), stdio_example(name)], None),
        _ => {
            let server = HttpServer::example(name);
            (vec!["--url".into(), server.url.clone()], Some(server))
        }
    }
}

fn cli(via: &str, era: &str, name: &str, args: &[&str]) -> Run {
    let (target, _server) = target(via, name);
    let mut all: Vec<&str> = args[..1].to_vec();
    all.extend(target.iter().map(String::as_str));
    all.extend(["--era", era]);
    all.extend(&args[1..]);
    run(&all)
}

macro_rules! on_every_transport {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            #[test] fn stdio_legacy() { super::$scenario("stdio", "legacy") }
            #[test] fn stdio_modern() { super::$scenario("stdio", "modern") }
            #[test] fn http_legacy() { super::$scenario("http", "legacy") }
            #[test] fn http_modern() { super::$scenario("http", "modern") }
        }
    )*};
}

on_every_transport!(
    backorder_answered_with_answer,
    backorder_declined_exits_5,
    backorder_unanswered_off_a_terminal_is_cancelled,
    a_required_field_no_flag_fills_is_named,
    recommend_book_prints_the_sampled_title,
    bookshop_lists_calls_and_prints_json,
);

const QUESTION: &str = "'Neuromancer' is out of stock (2-3 weeks). Order anyway?";

fn backorder_answered_with_answer(via: &str, era: &str) {
    let out = cli(
        via,
        era,
        "backorder",
        &[
            "call",
            "order_book",
            "title=Neuromancer",
            "--answer",
            "confirm=true",
        ],
    );
    assert_eq!(out.code(), 0);
    assert_eq!(
        out.stdout,
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.\n"
    );
    assert!(
        out.stderr.contains(QUESTION),
        "the question is reported on stderr"
    );
    assert!(
        out.stderr.contains(r#"-> accept {"confirm":true}"#),
        "and the answer"
    );
    let no = cli(
        via,
        era,
        "backorder",
        &[
            "call",
            "order_book",
            "title=Neuromancer",
            "--answer",
            "confirm=false",
        ],
    );
    assert_eq!((no.code(), no.stdout.as_str()), (0, "No order placed.\n"));
    let dune = cli(
        via,
        era,
        "backorder",
        &[
            "call",
            "order_book",
            "title=Dune",
            "--answer",
            "confirm=true",
        ],
    );
    assert_eq!(dune.stdout, "Ordered 'Dune'.\n");
    assert!(
        !dune.stderr.contains("?"),
        "an in-stock book asks nothing: {}",
        dune.stderr
    );
}

fn backorder_declined_exits_5(via: &str, era: &str) {
    let out = cli(
        via,
        era,
        "backorder",
        &["call", "order_book", "title=Neuromancer", "--decline"],
    );
    assert_eq!(out.code(), 5);
    assert_eq!(
        out.stdout,
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: \
         elicitation was decline\n"
    );
    let cancelled = cli(
        via,
        era,
        "backorder",
        &[
            "call",
            "order_book",
            "title=Neuromancer",
            "--cancel",
            "--json",
        ],
    );
    assert_eq!(cancelled.code(), 5);
    let result: Value =
        serde_json::from_str(&cancelled.stdout).expect("--json prints one JSON document");
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: \
         elicitation was cancel"
    );
}

fn backorder_unanswered_off_a_terminal_is_cancelled(via: &str, era: &str) {
    let out = cli(
        via,
        era,
        "backorder",
        &["call", "order_book", "title=Neuromancer"],
    );
    assert_eq!(out.code(), 5);
    assert!(
        out.stdout.ends_with("elicitation was cancel\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("-> cancel (not a terminal"),
        "a note on stderr"
    );
}

fn a_required_field_no_flag_fills_is_named(via: &str, era: &str) {
    let out = cli(
        via,
        era,
        "backorder",
        &[
            "call",
            "order_book",
            "title=Neuromancer",
            "--answer",
            "note=hurry",
        ],
    );
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr
            .contains("the server asks for the required field 'confirm'"),
        "{}",
        out.stderr
    );
}

fn recommend_book_prints_the_sampled_title(via: &str, era: &str) {
    let out = cli(
        via,
        era,
        "recommend_book",
        &[
            "call",
            "recommend_book",
            "genre=science fiction",
            "--sample",
            "Dune",
        ],
    );
    assert_eq!(out.code(), 0);
    assert_eq!(out.stdout, "Today's science fiction pick: Dune\n");
    assert!(
        out.stderr
            .contains("Suggest one science fiction book title. Answer with the title only."),
        "the sampling request is reported: {}",
        out.stderr
    );
}

fn bookshop_lists_calls_and_prints_json(via: &str, era: &str) {
    let tools = cli(via, era, "bookshop", &["tools"]);
    assert_eq!(tools.code(), 0);
    assert!(
        tools
            .stdout
            .contains("add(a: integer, b: integer)\n    Add two numbers.\n"),
        "{}",
        tools.stdout
    );
    assert!(
        tools.stdout.contains("order_book(title: string)\n"),
        "{}",
        tools.stdout
    );
    let listed = cli(via, era, "bookshop", &["tools", "--json"]);
    let listed: Value = serde_json::from_str(&listed.stdout).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
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
        ]
    );

    // ARG=VALUE by the schema (integers parse as JSON), over --args, which they win against.
    let sum = cli(
        via,
        era,
        "bookshop",
        &[
            "call",
            "add",
            "a=2",
            "--args",
            r#"{"a":100,"b":3}"#,
            "--json",
        ],
    );
    assert_eq!(sum.code(), 0);
    let sum: Value = serde_json::from_str(&sum.stdout).unwrap();
    assert_eq!(sum["structuredContent"], json!({"result": 5}));
    assert_eq!(sum["content"][0]["text"], "5");
    let human = cli(via, era, "bookshop", &["call", "book_info", "title=Dune"]);
    assert_eq!(
        human.stdout,
        "{\"copies\":7,\"title\":\"Dune\"}\n{\n  \"copies\": 7,\n  \"title\": \"Dune\"\n}\n"
    );
    let bad = cli(via, era, "bookshop", &["call", "add", "a=two", "b=3"]);
    assert_eq!(bad.code(), 1);
    assert!(
        bad.stderr.contains(r#"a: "two" is not JSON"#),
        "{}",
        bad.stderr
    );

    let info = cli(via, era, "bookshop", &["info", "--json"]);
    let info: Value = serde_json::from_str(&info.stdout).unwrap();
    let version = if era == "legacy" {
        "2025-11-25"
    } else {
        "2026-07-28"
    };
    assert_eq!(info["protocolVersion"], version);
    assert_eq!(info["era"], era);
    assert_eq!(info["serverInfo"]["name"], "Bookshop");
    assert_eq!(
        info["instructions"],
        "A bookshop: reserve and order books, look up stock."
    );
    let info = cli(via, era, "bookshop", &["info"]);
    assert!(
        info.stdout
            .contains(&format!("era:          {era} ({version})")),
        "{}",
        info.stdout
    );
}
