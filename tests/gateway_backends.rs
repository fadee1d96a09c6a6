//! The gateway (`mcpwire::gateway`) in front of real servers nobody here wrote: a server on the
//! Python SDK 1.x (`tests/peers/py1_server.py`, over stdio) and
//! `@modelcontextprotocol/server-everything` over Streamable HTTP (its own transport, bound to
//! loopback by `tests/peers/everything_http.mjs`). Driven by our own client over HTTP on both
//! revisions: listing, a call, a resource read (a listed resource and a template), a prompt,
//! each backend's names under its namespace. Then a backend killed mid-call: that call fails
//! naming it, the other backend keeps serving, and the lost one comes back (the stdio child
//! restarted, the HTTP server retried once it listens again), and an HTTP backend restarted
//! between two calls (it forgets the session, answering `400`, not `404`), whose next call is
//! served. And a gateway in front of five servers at once (those two, server-everything over
//! stdio as well, a FastMCP server and the bookshop), where an elicitation, a sampling request
//! and progress pass through, a call given up is cancelled on the Python SDK server, and the
//! bookshop's MCP Apps view is read under its namespace.
//! Every wait is bounded; nothing is timed.

mod common;

use common::{
    HttpExample, child_with_env, example_bin, free_port, peer_everything, peer_fastmcp,
    peer_fastmcp_server, peer_node, peer_python1, peer_python1_server, workspace_root,
};
use mcpwire::client::{CallOptions, Client, EraChoice, StdioServer};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::protocol::{
    CallToolResult, Content, CreateMessageResult, ElicitAction, ElicitResult, ResourceContents,
    Role, SamplingContent,
};
use serde_json::json;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a lost backend may take to come back: the gateway's backoff (200 ms, doubling)
/// plus a Python or Node start on a busy 2-core machine.
const COMEBACK: Duration = Duration::from_secs(60);

/// server-everything over Streamable HTTP on `port`, a child of this test.
fn everything_http(port: u16) -> HttpExample {
    let mut command = Command::new(peer_node());
    command
        .arg(workspace_root().join("tests/peers/everything_http.mjs"))
        .arg(peer_everything())
        .env("PORT", port.to_string());
    HttpExample::spawn(command, "server-everything (Streamable HTTP)")
}

/// The Python SDK 1.x server over stdio, its child marked with `tag` (in its environment) so
/// that a test can find it among this process's children.
fn python1_stdio(tag: &str) -> StdioServer {
    StdioServer::new(peer_python1())
        .arg(peer_python1_server())
        .arg("--stdio")
        .env("GATEWAY_BACKENDS_TAG", tag)
}

/// A gateway in front of both, served over HTTP on a free port; its URL.
async fn gateway(everything_url: &str, tag: &str) -> String {
    let server = Gateway::new()
        .backend(Backend::stdio("py1", python1_stdio(tag)).timeout(Duration::from_secs(30)))
        .backend(Backend::http("everything", everything_url).timeout(Duration::from_secs(30)))
        .start(McpServer::new("gateway"))
        .await
        .unwrap_or_else(|e| panic!("the gateway did not start: {e}"));
    serve_on_free_port(server).await
}

/// Serves `server` over HTTP on a free port of loopback, in this runtime; its URL once it
/// listens (bounded).
async fn serve_on_free_port(server: McpServer) -> String {
    let port = free_port();
    tokio::spawn(server.serve_http(format!("127.0.0.1:{port}")));
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "the gateway does not listen");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    format!("http://127.0.0.1:{port}/mcp")
}

async fn front_client(url: &str, era: EraChoice) -> Client {
    Client::builder()
        .era(era)
        .connect_http(url)
        .await
        .unwrap_or_else(|e| panic!("connect to the gateway ({era:?}): {e}"))
}

fn text(content: &[Content]) -> String {
    content
        .iter()
        .filter_map(|c| match c {
            Content::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn read_text(contents: &[ResourceContents]) -> (&str, &str) {
    match &contents[0] {
        ResourceContents::Text { uri, text, .. } => (uri, text),
        other => panic!("not text: {other:?}"),
    }
}

/// What must hold through the gateway on `era` while both backends are up.
async fn serves_both(url: &str, era: EraChoice) {
    let client = front_client(url, era).await;

    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for expected in [
        "py1_add",
        "py1_echo",
        "py1_countdown",
        "everything_echo",
        "everything_get-sum",
    ] {
        assert!(
            names.contains(&expected),
            "{era:?}: no {expected} in {names:?}"
        );
    }
    for bare in ["add", "echo", "get-sum"] {
        assert!(!names.contains(&bare), "{era:?}: {bare} is not namespaced");
    }

    let sum = client
        .call_tool("py1_add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(text(&sum.content), "5", "{era:?}: {sum:?}");
    let sum = client
        .call_tool("everything_get-sum", json!({"a": 20, "b": 22}))
        .await
        .unwrap();
    assert!(text(&sum.content).contains("42"), "{era:?}: {sum:?}");
    let echo = client
        .call_tool("everything_echo", json!({"message": "hi"}))
        .await
        .unwrap();
    assert_eq!(text(&echo.content), "Echo: hi", "{era:?}");
    // The Python server's own refusal of bad arguments is passed on.
    let wrong = client
        .call_tool("py1_add", json!({"a": "two", "b": 1}))
        .await;
    assert!(
        matches!(&wrong, Ok(r) if r.is_error == Some(true)) || wrong.is_err(),
        "{era:?}: {wrong:?}"
    );

    // Resources: the Python server's readme and its template, everything's template, each
    // under its namespace (`scheme://namespace/rest`).
    let resources = client.list_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert!(uris.contains(&"docs://py1/readme"), "{era:?}: {uris:?}");
    assert!(!uris.contains(&"docs://readme"), "{era:?}: {uris:?}");
    let readme = client.read_resource("docs://py1/readme").await.unwrap();
    assert_eq!(
        read_text(&readme.contents),
        ("docs://py1/readme", "Read me first."),
        "{era:?}"
    );
    let templates = client.list_resource_templates().await.unwrap();
    let patterns: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert!(
        patterns.contains(&"books://py1/{title}"),
        "{era:?}: {patterns:?}"
    );
    let book = client.read_resource("books://py1/Dune").await.unwrap();
    assert_eq!(
        read_text(&book.contents),
        ("books://py1/Dune", "The book Dune."),
        "{era:?}"
    );
    let dynamic = "demo://everything/resource/dynamic/text/{resourceId}";
    assert!(patterns.contains(&dynamic), "{era:?}: {patterns:?}");
    let uri = dynamic.replace("{resourceId}", "7");
    let read = client.read_resource(&uri).await.unwrap();
    let (read_uri, body) = read_text(&read.contents);
    assert_eq!(read_uri, uri, "{era:?}: the read names the front URI");
    assert!(body.contains('7'), "{era:?}: {body}");

    // Prompts.
    let prompts = client.list_prompts().await.unwrap();
    let prompt_names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    for expected in [
        "py1_greet",
        "everything_simple-prompt",
        "everything_args-prompt",
    ] {
        assert!(
            prompt_names.contains(&expected),
            "{era:?}: no {expected} in {prompt_names:?}"
        );
    }
    let greet = client
        .get_prompt("py1_greet", [("name", "Ada")])
        .await
        .unwrap();
    let greet = serde_json::to_string(&greet).unwrap();
    assert!(greet.contains("Say hello to Ada."), "{era:?}: {greet}");
    let args = client
        .get_prompt("everything_args-prompt", [("city", "Lyon")])
        .await
        .unwrap();
    let args = serde_json::to_string(&args).unwrap();
    assert!(args.contains("Lyon"), "{era:?}: {args}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_fronts_a_python_sdk_1_server_and_everything_over_http_on_both_revisions() {
    let everything = everything_http(free_port());
    let url = gateway(&everything.url, "serves").await;
    serves_both(&url, EraChoice::Legacy).await;
    serves_both(&url, EraChoice::Modern).await;
}

/// Calls `tool` until it answers without error, within [`COMEBACK`].
async fn comes_back(client: &Client, tool: &str, arguments: serde_json::Value) -> CallToolResult {
    let deadline = Instant::now() + COMEBACK;
    loop {
        let last = client.call_tool(tool, arguments.clone()).await;
        match last {
            Ok(result) if result.is_error != Some(true) => return result,
            other => assert!(
                Instant::now() < deadline,
                "{tool} did not come back within {COMEBACK:?}; last: {other:?}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn assert_failed_naming(result: &CallToolResult, backend: &str) {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let message = text(&result.content);
    assert!(
        message.contains(&format!("backend '{backend}'")),
        "the error does not name {backend}: {message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backend_killed_mid_call_fails_that_call_and_comes_back_while_the_other_serves() {
    let port = free_port();
    let everything = everything_http(port);
    let url = gateway(&everything.url, "killed").await;

    // The stdio child is killed during a 5 s call (100 progress steps of 50 ms).
    let legacy = front_client(&url, EraChoice::Legacy).await;
    let first =
        child_with_env("GATEWAY_BACKENDS_TAG", "killed").expect("the Python backend's child");
    let long = tokio::spawn({
        let client = front_client(&url, EraChoice::Legacy).await;
        async move {
            client
                .call_tool("py1_countdown", json!({"steps": 100}))
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    // SAFETY: kill(2) on the PID of a child this process started and has not reaped.
    assert_eq!(unsafe { libc::kill(first, libc::SIGKILL) }, 0);
    let cut = tokio::time::timeout(Duration::from_secs(30), long)
        .await
        .expect("the call in flight ends once its backend is killed")
        .unwrap()
        .expect("a lost backend gives a tool error, not a protocol error");
    assert_failed_naming(&cut, "py1");
    assert!(
        !text(&cut.content).contains("counted"),
        "the call finished before the kill: {cut:?}"
    );
    // The other backend is untouched.
    let echo = legacy
        .call_tool("everything_echo", json!({"message": "still"}))
        .await
        .unwrap();
    assert_eq!(text(&echo.content), "Echo: still");
    // The child is restarted (a new process) and serves again.
    let sum = comes_back(&legacy, "py1_add", json!({"a": 1, "b": 2})).await;
    assert_eq!(text(&sum.content), "3");
    let second = child_with_env("GATEWAY_BACKENDS_TAG", "killed").expect("the restarted child");
    assert_ne!(first, second, "the same process answered");

    // The HTTP server stops: its calls fail naming it while the Python backend serves; once it
    // listens again on its port, the gateway reaches it again.
    let modern = front_client(&url, EraChoice::Modern).await;
    drop(everything); // killed and reaped
    let down = modern
        .call_tool("everything_echo", json!({"message": "anyone?"}))
        .await
        .unwrap();
    assert_failed_naming(&down, "everything");
    let sum = modern
        .call_tool("py1_add", json!({"a": 4, "b": 5}))
        .await
        .unwrap();
    assert_eq!(text(&sum.content), "9");
    let _everything = everything_http(port);
    let echo = comes_back(&modern, "everything_echo", json!({"message": "back"})).await;
    assert_eq!(text(&echo.content), "Echo: back");
}

/// server-everything restarted between two calls forgets every session, and answers a request of
/// one it forgot with `400` and `"id": null` (the TypeScript SDK 1.x's way; the spec says `404`).
/// Our client reopens the session and the call is served, directly and through the gateway,
/// with no failed call between.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_the_server_forgot_is_reopened_when_it_answers_400() {
    let port = free_port();
    let everything = everything_http(port);
    let url = gateway(&everything.url, "forgot").await;
    let direct = front_client(&everything.url, EraChoice::Legacy).await;
    let through = front_client(&url, EraChoice::Legacy).await;
    for client in [&direct, &through] {
        let tool = if std::ptr::eq(client, &direct) {
            "echo"
        } else {
            "everything_echo"
        };
        let echo = client
            .call_tool(tool, json!({"message": "before"}))
            .await
            .unwrap();
        assert_eq!(text(&echo.content), "Echo: before");
    }
    drop(everything); // killed and reaped: its sessions are gone
    let _everything = everything_http(port);
    let echo = direct
        .call_tool("echo", json!({"message": "after"}))
        .await
        .unwrap_or_else(|e| panic!("the forgotten session was not reopened: {e}"));
    assert_eq!(text(&echo.content), "Echo: after");
    let echo = through
        .call_tool("everything_echo", json!({"message": "after"}))
        .await
        .unwrap();
    assert_eq!(
        text(&echo.content),
        "Echo: after",
        "the gateway's session with the restarted backend was not reopened"
    );
}

/// A gateway in front of five servers at once, none written here but the bookshop: the Python
/// SDK 1.x server (stdio), server-everything over stdio and over Streamable HTTP, a FastMCP
/// server (stdio, spoken to on 2025-11-25: FastMCP asks its questions only there), and the
/// bookshop example (Streamable HTTP, with its MCP Apps view). Its URL.
async fn gateway_of_five(everything_url: &str, shop_url: &str) -> String {
    let everything_stdio = StdioServer::new(peer_node())
        .arg(peer_everything())
        .arg("stdio");
    let fastmcp = StdioServer::new(peer_fastmcp()).arg(peer_fastmcp_server());
    let bound = Duration::from_secs(30);
    let server = Gateway::new()
        .backend(Backend::stdio("py1", python1_stdio("five")).timeout(bound))
        .backend(Backend::http("everything", everything_url).timeout(bound))
        .backend(Backend::stdio("evs", everything_stdio).timeout(bound))
        .backend(
            Backend::stdio("fm", fastmcp)
                .era(EraChoice::Legacy)
                .timeout(bound),
        )
        .backend(Backend::http("shop", shop_url).timeout(bound))
        .start(McpServer::new("gateway"))
        .await
        .unwrap_or_else(|e| panic!("the gateway did not start: {e}"));
    serve_on_free_port(server).await
}

/// The front client of `gateway_of_five`: it answers FastMCP's yes-or-no question with yes, and
/// the Python server's sampling with a fixed text from a model named `front-llm`.
async fn answering_client(url: &str, era: EraChoice) -> Client {
    Client::builder()
        .era(era)
        .on_form_elicitation(|question| async move {
            assert_eq!(question.message, "Order tea?");
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"value": true}).as_object().cloned(),
            }
        })
        .on_sampling(|request| async move {
            let asked = serde_json::to_string(&request.messages).unwrap();
            assert!(asked.contains("A haiku about rain"), "{asked}");
            let content: SamplingContent =
                serde_json::from_value(json!({"type": "text", "text": "drops on the roof"}))
                    .unwrap();
            Ok(CreateMessageResult {
                role: Role::Assistant,
                content,
                model: "front-llm".into(),
                stop_reason: None,
            })
        })
        .connect_http(url)
        .await
        .unwrap_or_else(|e| panic!("connect to the gateway ({era:?}): {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_fronts_five_real_servers_at_once_on_both_revisions() {
    let everything = everything_http(free_port());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut shop = Command::new(example_bin("bookshop"));
    shop.args(["--http", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("shop.db"));
    let shop = HttpExample::spawn(shop, "the bookshop");
    let url = gateway_of_five(&everything.url, &shop.url).await;

    for (era, copies_left) in [(EraChoice::Legacy, 6), (EraChoice::Modern, 5)] {
        let client = answering_client(&url, era).await;

        // Every backend's tools, each under its namespace.
        let tools = client.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        for expected in [
            "py1_add",
            "py1_haiku",
            "everything_echo",
            "evs_echo",
            "evs_get-sum",
            "fm_add",
            "fm_confirm",
            "fm_count",
            "shop_reserve_book",
            "shop_browse_catalog",
        ] {
            assert!(
                names.contains(&expected),
                "{era:?}: no {expected} in {names:?}"
            );
        }

        // Calls to each.
        let call = |name: &'static str, arguments: serde_json::Value| {
            let client = client.clone();
            async move {
                let result = client.call_tool(name, arguments).await;
                let result = result.unwrap_or_else(|e| panic!("{era:?}: {name}: {e}"));
                assert_ne!(result.is_error, Some(true), "{era:?}: {name}: {result:?}");
                text(&result.content)
            }
        };
        assert_eq!(call("py1_add", json!({"a": 2, "b": 3})).await, "5");
        assert_eq!(
            call("everything_echo", json!({"message": "hi"})).await,
            "Echo: hi"
        );
        assert!(
            call("evs_get-sum", json!({"a": 20, "b": 22}))
                .await
                .contains("42")
        );
        assert_eq!(call("fm_add", json!({"a": 2, "b": 3})).await, "5");
        assert_eq!(
            call("shop_reserve_book", json!({"title": "Dune"})).await,
            format!("Reserved 'Dune' ({copies_left} copies left).")
        );

        // An elicitation (FastMCP's) and a sampling request (the Python SDK 1.x server's)
        // reach this client, and its answers go back.
        assert_eq!(
            call("fm_confirm", json!({"item": "tea"})).await,
            "ordered tea"
        );
        assert_eq!(
            call("py1_haiku", json!({"topic": "rain"})).await,
            "model front-llm says: drops on the roof"
        );

        // FastMCP's progress reaches this client.
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        let options = CallOptions::new().on_progress(move |p| {
            record.lock().unwrap().push((p.progress, p.total));
        });
        let counted = client
            .call_tool_with("fm_count", json!({"n": 3}), options)
            .await
            .unwrap();
        assert_eq!(text(&counted.content), "counted 3", "{era:?}");
        assert_eq!(
            *seen.lock().unwrap(),
            [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))],
            "{era:?}"
        );

        // A call this client gives up is cancelled on the Python SDK 1.x server behind the
        // gateway (its task is cancelled: it counts it).
        let round = if era == EraChoice::Legacy { 1 } else { 2 };
        let hanging = tokio::spawn({
            let client = client.clone();
            async move { client.call_tool("py1_wait_for_cancel", json!({})).await }
        });
        let waits_reach = |wanted: String| {
            let call = &call;
            async move {
                let deadline = Instant::now() + COMEBACK;
                loop {
                    let waits = call("py1_waits", json!({})).await;
                    if waits.contains(&wanted) {
                        return;
                    }
                    assert!(Instant::now() < deadline, "{era:?}: {waits}, not {wanted}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        };
        waits_reach(format!("started {round},")).await;
        hanging.abort();
        waits_reach(format!("cancelled {round}")).await;

        // FastMCP's resource and prompt, under its namespace.
        let note = client.read_resource("notes://fm/today").await.unwrap();
        assert_eq!(
            read_text(&note.contents),
            ("notes://fm/today", "Buy milk."),
            "{era:?}"
        );
        let review = client
            .get_prompt("fm_review", [("topic", "Dune")])
            .await
            .unwrap();
        let review = serde_json::to_string(&review).unwrap();
        assert!(review.contains("Review Dune."), "{era:?}: {review}");

        // The bookshop's view keeps its scheme under the namespace, and the tool's reference
        // to it is rewritten to match; the view is read through the gateway.
        let catalog = tools
            .iter()
            .find(|t| t.name == "shop_browse_catalog")
            .unwrap();
        let meta = serde_json::to_value(&catalog.meta).unwrap();
        let view = meta["ui"]["resourceUri"]
            .as_str()
            .unwrap_or_else(|| panic!("{era:?}: no view on {meta}"));
        assert!(view.starts_with("ui://shop/"), "{era:?}: {view}");
        let page = client.read_resource(view).await.unwrap();
        let (page_uri, html) = read_text(&page.contents);
        assert_eq!(page_uri, view, "{era:?}");
        assert!(html.contains("<html"), "{era:?}: not the view's page");
        client.close().await;
    }
}
