//! MCP middleware (`mcpwire::layer`) over real transports: the order of authorization,
//! server-wide and per-tool layers; what a layer sees on both revisions (and over HTTP, the
//! session); refusals as JSON-RPC errors and as `isError` results; `input_required` rounds and
//! task creation as outcomes; the built-in timeout (the handler is dropped), concurrency limit,
//! per-principal rate limit and request log; tower's own middleware reused as is. The order,
//! refusals and concurrency limit are driven by the crate's own client on both revisions; what a
//! layer sees of rounds and task creation, the request log's one line per request and tower's
//! layers are asserted on the wire, in raw JSON-RPC lines.

use crate::support;
use mcpwire::context::Grant;
use mcpwire::layer::{
    self, ConcurrencyLimit, McpRequest, McpResponse, Next, Outcome, RateLimit, RefuseAs,
    RequestLog, Timeout,
};
use mcpwire::prelude::*;
use mcpwire::protocol::{Era, ErrorObject};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::{
    ERAS, Logs, as_json, call, connect, exchange, first_text, is_error, modern_call, modern_meta,
    retry_call, rpc_error, text,
};

/// What layers and tools wrote, in order.
#[derive(Clone, Default)]
struct Journal(Arc<Mutex<Vec<String>>>);

impl Journal {
    fn write(&self, line: impl Into<String>) {
        self.0.lock().unwrap().push(line.into());
    }
    fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
}

/// A layer that writes `name>` before and `<name` after.
fn marking(journal: &Journal, name: &'static str) -> impl layer::McpLayer {
    let journal = journal.clone();
    layer::from_fn(move |request: McpRequest, next: Next| {
        let journal = journal.clone();
        async move {
            journal.write(format!("{name}>"));
            let response = next.run(request).await;
            journal.write(format!("<{name}"));
            response
        }
    })
}

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64, ctx: Context) -> i64 {
    ctx.state::<Journal>().write("add");
    a + b
}

/// Only for admins.
#[tool(scopes = ["admin"])]
async fn secret(ctx: Context) -> String {
    ctx.state::<Journal>().write("secret");
    "the secret".into()
}

#[tokio::test]
async fn authorization_runs_first_then_server_layers_first_added_outermost_then_the_tools_own() {
    for era in ERAS {
        let journal = Journal::default();
        let server = McpServer::new("ordered")
            .state(journal.clone())
            .local_grant(Grant::new(["user"]))
            .tool(add)
            .unwrap()
            .tool(secret)
            .unwrap()
            .tool_layer("add", marking(&journal, "add-1"))
            .unwrap()
            .layer(marking(&journal, "server-1"))
            .tool_layer("add", marking(&journal, "add-2"))
            .unwrap()
            .layer(marking(&journal, "server-2"));
        let client = support::client(server, era).await;
        journal.clear(); // what opening the conversation took

        let answer = client.call_tool("add", json!({"a": 2, "b": 3})).await;
        assert_eq!(first_text(&answer.unwrap()), "5", "{era:?}");
        assert_eq!(
            journal.lines(),
            [
                "server-1>",
                "server-2>",
                "add-1>",
                "add-2>",
                "add",
                "<add-2",
                "<add-1",
                "<server-2",
                "<server-1"
            ],
            "{era:?}"
        );

        // The grant lacks `admin`: refused before any layer sees the call.
        journal.clear();
        let refused = rpc_error(client.call_tool("secret", json!({})).await);
        assert_eq!(refused.code, -32003, "{era:?}: {refused:?}");
        assert!(journal.lines().is_empty(), "{:?}", journal.lines());

        // Methods without a handler pass through the server-wide layers only.
        client.list_tools().await.unwrap();
        assert_eq!(
            journal.lines(),
            ["server-1>", "server-2>", "<server-2", "<server-1"],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_layer_on_a_handler_that_is_not_registered_is_refused_at_registration() {
    let server = McpServer::new("typo").tool(add).unwrap();
    let Err(error) = server.tool_layer("ad", RequestLog::new()) else {
        panic!("a layer on a missing tool must not be ignored");
    };
    assert!(error.message().contains(r#"tool_layer("ad""#), "{error}");
    assert!(error.message().contains("no tool is registered"), "{error}");
    let refused = McpServer::new("typo")
        .prompt_layer("nothing", RequestLog::new())
        .err()
        .expect("no prompt is registered");
    assert!(
        refused.message().contains(r#"prompt_layer("nothing""#),
        "{refused}"
    );
    let refused = McpServer::new("typo")
        .resource_layer("books://{title}", RequestLog::new())
        .err()
        .expect("no resource is registered");
    assert!(
        refused.message().contains("no resource is registered"),
        "{refused}"
    );
    // Registered first, then layered: accepted, and the layer runs.
    for era in ERAS {
        let server = McpServer::new("typo")
            .state(Journal::default())
            .tool(add)
            .unwrap()
            .tool_layer("add", RequestLog::new())
            .unwrap();
        let client = support::client(server, era).await;
        let reply = client.call_tool("add", json!({"a": 2, "b": 3})).await;
        assert_eq!(first_text(&reply.unwrap()), "5", "{era:?}");
    }
}

/// What a layer saw of one request.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    method: String,
    target: Option<String>,
    arguments: Option<Value>,
    era: Era,
    version: String,
    session: Option<String>,
    id: String,
    principal: Option<String>,
    outcome: Outcome,
    retried: bool,
}

fn seeing(seen: &Arc<Mutex<Vec<Seen>>>) -> impl layer::McpLayer {
    let seen = seen.clone();
    layer::from_fn(move |request: McpRequest, next: Next| {
        let seen = seen.clone();
        async move {
            let mut record = Seen {
                method: request.method().to_owned(),
                target: request.target().map(str::to_owned),
                arguments: request
                    .arguments()
                    .map(|raw| serde_json::from_str(raw.get()).unwrap()),
                era: request.era(),
                version: request.protocol_version().to_owned(),
                session: request.session_id().map(str::to_owned),
                id: request.request_id().to_string(),
                principal: request.principal().map(|who| who.subject().to_owned()),
                outcome: Outcome::Complete,
                retried: request.is_retried_round(),
            };
            assert_eq!(request.context().request_id(), request.request_id());
            let response = next.run(request).await;
            record.outcome = response.outcome();
            seen.lock().unwrap().push(record);
            response
        }
    })
}

#[tokio::test]
async fn over_http_a_layer_sees_method_target_arguments_era_session_and_principal() {
    use support::http::*;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server = McpServer::new("seen")
        .state(Journal::default())
        .tool(add)
        .unwrap()
        .layer(seeing(&seen));
    let running = start_authenticated(server.http()).await;

    let session = running.initialize_with(&[("x-user", "ada")]).await;
    let answer = running
        .legacy_with(
            &session,
            &legacy_call(7, "add", json!({"a": 1, "b": 2})),
            &[("x-user", "ada")],
        )
        .await;
    assert_eq!(answer.status(), 200);
    let body = modern_body(
        8,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 4, "b": 4}}),
    );
    let mut headers = modern_headers(&body);
    headers.insert("x-user", "bob".parse().unwrap());
    let answer = json_of(running.post_with(&body, headers).await).await;
    assert_eq!(answer["result"]["content"][0]["text"], "8", "{answer}");

    let seen = seen.lock().unwrap().clone();
    let calls: Vec<&Seen> = seen.iter().filter(|s| s.method == "tools/call").collect();
    assert_eq!(
        calls,
        [
            &Seen {
                method: "tools/call".into(),
                target: Some("add".into()),
                arguments: Some(json!({"a": 1, "b": 2})),
                era: Era::Legacy,
                version: "2025-11-25".into(),
                session: Some(session.clone()),
                id: "7".into(),
                principal: Some("ada".into()),
                outcome: Outcome::Complete,
                retried: false,
            },
            &Seen {
                method: "tools/call".into(),
                target: Some("add".into()),
                arguments: Some(json!({"a": 4, "b": 4})),
                era: Era::Modern,
                version: "2026-07-28".into(),
                session: None,
                id: "8".into(),
                principal: Some("bob".into()),
                outcome: Outcome::Complete,
                retried: false,
            }
        ]
    );
    running.shut_down().await.unwrap();
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Answer {
    /// The answer.
    value: String,
}

#[resolver]
async fn ask_name() -> Elicit<Answer> {
    Elicit::ask("Your name?")
}

/// Greets whoever answers.
#[tool]
async fn greet(#[resolve(ask_name)] name: Answer) -> String {
    format!("Hello, {}!", name.value)
}

/// Adds in the background when the client negotiates tasks.
#[tool(task = "optional")]
async fn add_later(a: i64, b: i64) -> i64 {
    a + b
}

/// Fails.
#[tool]
async fn broken() -> Result<String, ToolError> {
    Err(ToolError::new("out of ink"))
}

#[tokio::test]
async fn a_layer_sees_input_required_rounds_task_creation_tool_errors_and_json_rpc_errors() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server = McpServer::new("outcomes")
        .request_state_keys(mcpwire::request_state::KeyRing::new([[7u8; 32]]).unwrap())
        .tool(greet)
        .unwrap()
        .tool(add_later)
        .unwrap()
        .tool(broken)
        .unwrap()
        .layer(seeing(&seen));
    let mut client = connect(server).await;
    let elicits = json!({"elicitation": {}});

    let asked = exchange(
        &mut client,
        modern_call(1, "greet", json!({}), modern_meta(elicits.clone())),
    )
    .await;
    let state = support::request_state(&asked);
    let key = support::asked_keys(&asked).remove(0);
    let answered = exchange(
        &mut client,
        retry_call(
            2,
            "greet",
            json!({}),
            elicits,
            json!({key: {"action": "accept", "content": {"value": "Ada"}}}),
            &state,
        ),
    )
    .await;
    assert_eq!(text(&answered), "Hello, Ada!");

    let tasks = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let created = exchange(
        &mut client,
        modern_call(3, "add_later", json!({"a": 1, "b": 1}), modern_meta(tasks)),
    )
    .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");

    let failed = exchange(&mut client, call(4, "broken", json!({}))).await;
    assert!(is_error(&failed));
    let invalid = exchange(&mut client, modern_call(5, "greet", json!({}), json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}))).await;
    let unknown_method = exchange(
        &mut client,
        json!({"jsonrpc":"2.0","id":6,"method":"nope/nope"}).to_string(),
    )
    .await;
    assert_eq!(unknown_method["error"]["code"], -32601);

    let outcomes: Vec<(String, Outcome, bool)> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| (s.id.clone(), s.outcome, s.retried))
        .collect();
    let invalid_outcome = match invalid.get("error") {
        Some(error) => Outcome::Error {
            code: error["code"].as_i64().unwrap() as i32,
        },
        None => Outcome::InputRequired,
    };
    assert_eq!(
        outcomes,
        [
            ("1".into(), Outcome::InputRequired, false),
            ("2".into(), Outcome::Complete, true),
            ("3".into(), Outcome::TaskCreated, false),
            ("4".into(), Outcome::ToolError, false),
            ("5".into(), invalid_outcome, false),
            ("6".into(), Outcome::Error { code: -32601 }, false),
        ]
    );
}

#[tokio::test]
async fn a_layer_refuses_with_a_json_rpc_error_or_an_is_error_result_and_the_tool_never_runs() {
    for era in ERAS {
        let journal = Journal::default();
        let refusing = layer::from_fn(|request: McpRequest, next: Next| async move {
            if request
                .arguments()
                .is_some_and(|raw| raw.get().contains("13"))
            {
                return McpResponse::error(ErrorObject::new(-32010, "13 is not allowed"));
            }
            if request
                .arguments()
                .is_some_and(|raw| raw.get().contains("666"))
            {
                return McpResponse::tool_error("666 is not allowed either");
            }
            if request.method() == "prompts/list" {
                return McpResponse::tool_error("no prompts for you");
            }
            next.run(request).await
        });
        let server = McpServer::new("refusing")
            .state(journal.clone())
            .tool(add)
            .unwrap()
            .layer(refusing);
        let client = support::client(server, era).await;

        let refused = rpc_error(client.call_tool("add", json!({"a": 13, "b": 0})).await);
        assert_eq!(
            as_json(&refused),
            json!({"code": -32010, "message": "13 is not allowed"}),
            "{era:?}"
        );
        let refused = client.call_tool("add", json!({"a": 666, "b": 0})).await;
        let refused = refused.unwrap();
        assert_eq!(refused.is_error, Some(true), "{era:?}: {refused:?}");
        assert_eq!(first_text(&refused), "666 is not allowed either");
        // Not a tool call: an isError refusal becomes a JSON-RPC error.
        let refused = rpc_error(client.list_prompts().await);
        assert_eq!(refused.code, -32600, "{era:?}: {refused:?}");
        assert!(journal.lines().is_empty(), "the tool never ran");
        let fine = client.call_tool("add", json!({"a": 1, "b": 0})).await;
        assert_eq!(first_text(&fine.unwrap()), "1", "{era:?}");
    }
}

/// Signals when its body is dropped.
struct DropSignal(Option<tokio::sync::oneshot::Sender<()>>);

impl Drop for DropSignal {
    fn drop(&mut self) {
        if let Some(signal) = self.0.take() {
            let _ = signal.send(());
        }
    }
}

/// Where `stuck` reports that it was dropped.
#[derive(Default)]
struct Drops(Mutex<Option<tokio::sync::oneshot::Sender<()>>>);

/// Never finishes on its own.
#[tool]
async fn stuck(ctx: Context) -> String {
    let _guard = DropSignal(ctx.state::<Drops>().0.lock().unwrap().take());
    tokio::time::sleep(Duration::from_secs(3600)).await;
    "finished".into()
}

fn stuck_server(drops: Drops) -> McpServer {
    McpServer::new("stuck").state(drops).tool(stuck).unwrap()
}

#[tokio::test]
async fn the_timeout_answers_and_drops_the_handler_over_http_on_both_revisions() {
    use support::http::*;
    for refuse_as in [RefuseAs::Error, RefuseAs::ToolError] {
        let (dropped, was_dropped) = tokio::sync::oneshot::channel();
        let server = stuck_server(Drops(Mutex::new(Some(dropped))))
            .tool_layer(
                "stuck",
                Timeout::new(Duration::from_millis(100)).refuse_as(refuse_as),
            )
            .unwrap();
        let running = start(server).await;
        let body = modern_body(1, "tools/call", json!({"name": "stuck"}));
        let answer = json_of(running.modern(&body).await).await;
        match refuse_as {
            RefuseAs::Error => {
                assert_eq!(
                    answer["error"]["code"],
                    layer::REQUEST_TIMED_OUT,
                    "{answer}"
                );
                assert_eq!(answer["error"]["message"], "Request timed out after 100ms");
            }
            _ => {
                assert_eq!(answer["result"]["isError"], true, "{answer}");
                assert_eq!(
                    answer["result"]["content"][0]["text"],
                    "Request timed out after 100ms"
                );
            }
        }
        tokio::time::timeout(Duration::from_secs(10), was_dropped)
            .await
            .expect("the tool's future is dropped promptly")
            .expect("the drop guard ran");
        running.shut_down().await.unwrap();
    }
    // A 2025-11-25 session over HTTP: the same.
    let (dropped, was_dropped) = tokio::sync::oneshot::channel();
    let server = stuck_server(Drops(Mutex::new(Some(dropped))))
        .layer(Timeout::new(Duration::from_millis(100)));
    let running = start(server).await;
    let session = running.initialize().await;
    let answer = running
        .legacy(&session, &legacy_call(2, "stuck", json!({})))
        .await;
    let body = answer.text().await.unwrap();
    let last: Value = match serde_json::from_str(&body) {
        Ok(json) => json,
        Err(_) => parse_events(&body).pop().expect("an answer"),
    };
    assert_eq!(last["error"]["code"], layer::REQUEST_TIMED_OUT, "{last}");
    tokio::time::timeout(Duration::from_secs(10), was_dropped)
        .await
        .expect("the tool's future is dropped promptly")
        .expect("the drop guard ran");
    running.shut_down().await.unwrap();
}

/// Holds its place until `Gate` opens.
#[derive(Default)]
struct Gate {
    entered: tokio::sync::Notify,
    open: tokio::sync::Notify,
}

/// Waits at the gate.
#[tool]
async fn wait_at_gate(ctx: Context) -> String {
    let gate = ctx.state::<Arc<Gate>>();
    gate.entered.notify_one();
    gate.open.notified().await;
    "through".into()
}

#[tokio::test]
async fn the_concurrency_limit_refuses_the_request_over_the_limit_until_a_place_frees() {
    for era in ERAS {
        let gate = Arc::new(Gate::default());
        let server = McpServer::new("gated")
            .state(gate.clone())
            .tool(wait_at_gate)
            .unwrap()
            .tool_layer("wait_at_gate", ConcurrencyLimit::new(1))
            .unwrap();
        let client = support::client(server, era).await;
        let waiting = client.clone();
        let first = tokio::spawn(async move { waiting.call_tool("wait_at_gate", json!({})).await });
        tokio::time::timeout(Duration::from_secs(10), gate.entered.notified())
            .await
            .expect("the first call runs");
        let refused = rpc_error(client.call_tool("wait_at_gate", json!({})).await);
        assert_eq!(refused.code, -32000, "{era:?}: {refused:?}");
        assert_eq!(refused.data.as_ref().unwrap()["limit"], 1, "{era:?}");
        gate.open.notify_one();
        let first = first.await.unwrap().unwrap();
        assert_eq!(first_text(&first), "through", "{era:?}");
        // The place is free again.
        let waiting = client.clone();
        let third = tokio::spawn(async move { waiting.call_tool("wait_at_gate", json!({})).await });
        tokio::time::timeout(Duration::from_secs(10), gate.entered.notified())
            .await
            .expect("the third call runs");
        gate.open.notify_one();
        let third = third.await.unwrap().unwrap();
        assert_eq!(first_text(&third), "through", "{era:?}");
    }
}

#[tokio::test]
async fn the_rate_limit_counts_per_principal_over_http() {
    use support::http::*;
    let server = McpServer::new("limited")
        .state(Journal::default())
        .tool(add)
        .unwrap()
        .layer(
            RateLimit::per_principal(2, Duration::from_secs(3600)).refuse_as(RefuseAs::ToolError),
        );
    let running = start_authenticated(server.http()).await;
    let call_as = |user: &'static str, id: u64| {
        let body = modern_body(
            id,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1, "b": 1}}),
        );
        let mut headers = modern_headers(&body);
        headers.insert("x-user", user.parse().unwrap());
        let running = &running;
        async move { json_of(running.post_with(&body, headers).await).await }
    };
    assert_eq!(call_as("ada", 1).await["result"]["content"][0]["text"], "2");
    assert_eq!(call_as("ada", 2).await["result"]["content"][0]["text"], "2");
    let refused = call_as("ada", 3).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let message = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        message.starts_with("Rate limit exceeded: retry in "),
        "{message}"
    );
    // Another principal has a bucket of its own.
    assert_eq!(call_as("bob", 4).await["result"]["content"][0]["text"], "2");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn the_request_log_writes_one_line_per_request_through_tracing() {
    let logs = Logs::capture();

    let server = McpServer::new("logged")
        .state(Journal::default())
        .local_grant(Grant::new(["user"]))
        .tool(add)
        .unwrap()
        .layer(RequestLog::new());
    let mut client = connect(server).await;
    // An argument no timestamp or duration of the log line can contain by chance.
    let answer = exchange(
        &mut client,
        call(1, "add", json!({"a": 7_654_321_987_i64, "b": 2})),
    )
    .await;
    assert_eq!(text(&answer), "7654321989");
    let unknown = exchange(
        &mut client,
        json!({"jsonrpc":"2.0","id":2,"method":"nope"}).to_string(),
    )
    .await;
    assert_eq!(unknown["error"]["code"], -32601);

    let output = logs.text();
    let lines: Vec<&str> = output
        .lines()
        .filter(|l| l.contains("mcpwire::request"))
        .collect();
    assert_eq!(lines.len(), 2, "{output}");
    assert!(lines[0].contains(" INFO "), "{}", lines[0]);
    for field in [
        r#"method="tools/call""#,
        r#"target="add""#,
        r#"principal="""#,
        "duration_ms=",
        r#"outcome="complete""#,
        "code=0",
    ] {
        assert!(lines[0].contains(field), "{field} in {}", lines[0]);
    }
    assert!(
        !lines[0].contains("7654321987"),
        "arguments are never logged: {}",
        lines[0]
    );
    assert!(lines[1].contains(" WARN "), "{}", lines[1]);
    for field in [r#"method="nope""#, r#"outcome="error""#, "code=-32601"] {
        assert!(lines[1].contains(field), "{field} in {}", lines[1]);
    }
}

#[tokio::test]
async fn towers_own_timeout_and_concurrency_limit_work_as_layers() {
    // tower::timeout: the handler is dropped, the client gets -32603 (the error text is logged).
    let (dropped, was_dropped) = tokio::sync::oneshot::channel();
    let server = stuck_server(Drops(Mutex::new(Some(dropped)))).layer(
        tower::timeout::TimeoutLayer::new(Duration::from_millis(100)),
    );
    let mut client = connect(server).await;
    let answer = exchange(&mut client, call(1, "stuck", json!({}))).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    tokio::time::timeout(Duration::from_secs(10), was_dropped)
        .await
        .expect("the tool's future is dropped promptly")
        .expect("the drop guard ran");

    // tower::limit::ConcurrencyLimit: the second call waits for the first instead of failing.
    let gate = Arc::new(Gate::default());
    let server = McpServer::new("gated")
        .state(gate.clone())
        .tool(wait_at_gate)
        .unwrap()
        .tool_layer("wait_at_gate", tower::limit::ConcurrencyLimitLayer::new(1))
        .unwrap();
    let mut client = connect(server).await;
    client.send(call(1, "wait_at_gate", json!({})));
    tokio::time::timeout(Duration::from_secs(10), gate.entered.notified())
        .await
        .expect("the first call runs");
    client.send(call(2, "wait_at_gate", json!({})));
    // The second is held by the limit: it has not entered.
    let entered_early =
        tokio::time::timeout(Duration::from_millis(200), gate.entered.notified()).await;
    assert!(entered_early.is_err(), "the limit holds the second call");
    gate.open.notify_one();
    let first = support::next(&mut client).await;
    assert_eq!(first["id"], 1);
    tokio::time::timeout(Duration::from_secs(10), gate.entered.notified())
        .await
        .expect("the second call runs once the first is done");
    gate.open.notify_one();
    let second = support::next(&mut client).await;
    assert_eq!((second["id"].clone(), text(&second)), (json!(2), "through"));
}
