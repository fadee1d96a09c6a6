//! The tasks extension (2026-07-28) from a raw HTTP client: a task that completes, fails,
//! is cancelled, asks through its resolvers and is answered, expires, and is hidden from other
//! principals; the same tools as plain calls for a client that does not negotiate tasks, and on a
//! 2025-11-25 session (which gets no tasks).

use crate::support;
use mcpwire::prelude::*;
use mcpwire::protocol::ErrorObject;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use support::http::*;
use support::tasks::*;

/// How often bodies ran, whether one saw its cancellation, and how often a wording was asked.
#[derive(Default)]
struct Counters {
    bodies: AtomicUsize,
    cancelled: AtomicUsize,
    wordings: AtomicUsize,
}

/// Asks for a code; reworded once, after the first time it was asked (a redeploy, say).
#[resolver(key = "code")]
fn ask_code(ctx: Context) -> Elicit<Place> {
    let asked = ctx
        .state::<Arc<Counters>>()
        .wordings
        .fetch_add(1, Ordering::SeqCst);
    match asked {
        0 => Elicit::ask("Code?"),
        _ => Elicit::ask("Your code, please?"),
    }
}

/// Unlocks with a code.
#[tool(task = "optional")]
async fn unlock(#[resolve(ask_code)] code: Place) -> String {
    format!("unlocked with {}", code.name)
}

/// Sums two numbers, as a task when the client negotiates tasks.
#[tool(task = "optional")]
async fn add_slowly(a: i64, b: i64, ctx: Context) -> String {
    ctx.state::<Arc<Counters>>()
        .bodies
        .fetch_add(1, Ordering::SeqCst);
    ctx.report_progress(1.0, Some(2.0), Some("adding".into()))
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    format!("{}", a + b)
}

/// Runs until cancelled.
#[tool(task = "required")]
async fn forever(ctx: Context) -> String {
    ctx.cancelled().await;
    ctx.state::<Arc<Counters>>()
        .cancelled
        .fetch_add(1, Ordering::SeqCst);
    "stopped".into()
}

/// Fails with a JSON-RPC error.
#[tool(task = "optional")]
async fn broken() -> Result<String, ToolError> {
    Err(ToolError::protocol(ErrorObject::new(
        -32603,
        "the backend is down",
    )))
}

/// Fails with a tool error.
#[tool(task = "optional")]
async fn refuses() -> Result<String, ToolError> {
    Err(ToolError::new("not today"))
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Approval {
    approve: bool,
}

#[resolver(key = "approval")]
fn ask_approval(amount: u32) -> Elicit<Approval> {
    Elicit::ask(format!("Pay {amount} EUR?"))
}

/// Pays after the user approves.
#[tool(task = "optional")]
async fn pay(amount: u32, #[resolve(ask_approval)] approval: Approval, ctx: Context) -> String {
    ctx.state::<Arc<Counters>>()
        .bodies
        .fetch_add(1, Ordering::SeqCst);
    match approval.approve {
        true => format!("paid {amount}"),
        false => "not paid".into(),
    }
}

#[resolver(key = "city")]
fn ask_city() -> Elicit<Place> {
    Elicit::ask("Which city?")
}

#[resolver(key = "street")]
fn ask_street(#[resolve(ask_city)] city: Place) -> Elicit<Place> {
    Elicit::ask(format!("Which street in {}?", city.name))
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Place {
    name: String,
}

/// Ships to an address asked in two steps (the street question depends on the city).
#[tool(task = "optional")]
async fn ship(#[resolve(ask_city)] city: Place, #[resolve(ask_street)] street: Place) -> String {
    format!("shipping to {}, {}", street.name, city.name)
}

fn server() -> McpServer {
    server_counting(Arc::default())
}

/// The server, counting into `counters`.
fn server_counting(counters: Arc<Counters>) -> McpServer {
    McpServer::new("tasks")
        .state(counters)
        .tool(add_slowly)
        .and_then(|s| s.tool(forever))
        .and_then(|s| s.tool(broken))
        .and_then(|s| s.tool(refuses))
        .and_then(|s| s.tool(pay))
        .and_then(|s| s.tool(ship))
        .and_then(|s| s.tool(unlock))
        .unwrap()
}

#[tokio::test]
async fn a_task_completes_with_its_result_and_progress_as_status() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    let created = caller.call("add_slowly", json!({"a": 2, "b": 3})).await;
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    assert!(created["ttlMs"].as_u64().unwrap() > 0);
    assert!(created["pollIntervalMs"].as_u64().unwrap() > 0);
    assert!(created.get("result").is_none() && created.get("requestState").is_none());
    let task = created["taskId"].as_str().unwrap();
    assert!(task.len() >= 32, "an unguessable id: {task}");
    let done = caller.wait_for(task, "completed").await;
    assert_eq!(done["resultType"], "complete");
    assert_eq!(text(&done["result"]), "5");
    assert_eq!(done["statusMessage"], "adding");
    // Cancelling a finished task is an empty ack, and changes nothing.
    let ack = result(caller.cancel(task).await);
    assert_eq!(ack["resultType"], "complete");
    assert!(ack.get("status").is_none());
    assert_eq!(result(caller.get(task).await)["status"], "completed");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_protocol_error_fails_the_task_and_a_tool_error_completes_it_with_is_error() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("broken", json!({})).await;
    let failed = caller.wait_for(&task, "failed").await;
    assert_eq!(failed["error"]["code"], -32603);
    assert_eq!(failed["error"]["message"], "the backend is down");
    assert!(failed.get("result").is_none());
    let task = caller.start_task("refuses", json!({})).await;
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(done["result"]["isError"], true);
    assert_eq!(
        text(&done["result"]),
        "Error executing tool refuses: not today"
    );
    // Without tasks, the same protocol error answers the call itself.
    let plain = caller.without_tasks();
    let response = plain
        .send("tools/call", json!({"name": "broken", "arguments": {}}))
        .await;
    assert_eq!(error(response)["message"], "the backend is down");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_cancelled_task_stops_its_body_promptly() {
    let counters = Arc::new(Counters::default());
    let running = start(server_counting(counters.clone())).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("forever", json!({})).await;
    assert_eq!(result(caller.get(&task).await)["status"], "working");
    let ack = result(caller.cancel(&task).await);
    assert_eq!(
        ack,
        json!({"resultType": "complete", "_meta": ack["_meta"]})
    );
    let cancelled = caller.wait_for(&task, "cancelled").await;
    assert!(cancelled.get("result").is_none() && cancelled.get("error").is_none());
    // The body saw the cancellation (Context::cancelled) and ended; its result is not kept.
    eventually("the body saw its cancellation", || {
        counters.cancelled.load(Ordering::SeqCst) == 1
    })
    .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(result(caller.get(&task).await)["status"], "cancelled");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_resolver_question_parks_the_task_until_tasks_update_answers_it() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("pay", json!({"amount": 30})).await;
    let waiting = caller.wait_for(&task, "input_required").await;
    let question = &waiting["inputRequests"]["approval"];
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(question["params"]["message"], "Pay 30 EUR?");
    // Unknown keys (even malformed) are ignored; the task keeps waiting.
    let ack = result(caller.update(&task, json!({"nope": 1})).await);
    assert_eq!(ack["resultType"], "complete");
    assert_eq!(result(caller.get(&task).await)["status"], "input_required");
    let answer = json!({"approval": {"action": "accept", "content": {"approve": true}}});
    result(caller.update(&task, answer.clone()).await);
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(text(&done["result"]), "paid 30");
    // An answer to a question no longer outstanding changes nothing.
    result(caller.update(&task, answer).await);
    assert_eq!(text(&result(caller.get(&task).await)["result"]), "paid 30");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn the_body_of_a_task_that_asked_runs_once() {
    let counters = Arc::new(Counters::default());
    let running = start(server_counting(counters.clone())).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("pay", json!({"amount": 5})).await;
    caller.wait_for(&task, "input_required").await;
    let answer = json!({"approval": {"action": "accept", "content": {"approve": false}}});
    result(caller.update(&task, answer).await);
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(text(&done["result"]), "not paid");
    // The resolvers ran in each round; the body once, with the answer.
    assert_eq!(counters.bodies.load(Ordering::SeqCst), 1);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn an_expired_task_is_gone() {
    let server = server().task_ttl(Some(Duration::from_millis(300)));
    let running = start(server).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("forever", json!({})).await;
    assert_eq!(result(caller.get(&task).await)["ttlMs"], 300);
    tokio::time::sleep(Duration::from_millis(400)).await;
    let expired = error(caller.get(&task).await);
    assert_eq!(expired["code"], -32602);
    assert_eq!(expired["message"], "Task has expired");
    // The next creation sweeps it away: then it is unknown.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    caller
        .start_task("add_slowly", json!({"a": 1, "b": 1}))
        .await;
    assert_eq!(error(caller.get(&task).await)["message"], "Unknown task");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn another_principal_cannot_see_update_or_cancel_a_task() {
    let running = start_authenticated(server().http()).await;
    let alice = Caller::new(&running.url).signed_in_as("alice");
    let bob = Caller::new(&running.url).signed_in_as("bob");
    let anonymous = Caller::new(&running.url);
    let task = alice.start_task("pay", json!({"amount": 9})).await;
    alice.wait_for(&task, "input_required").await;
    for other in [&bob, &anonymous] {
        assert_eq!(error(other.get(&task).await)["code"], -32602);
        assert_eq!(error(other.get(&task).await)["message"], "Unknown task");
        let answer = json!({"approval": {"action": "accept", "content": {"approve": true}}});
        assert_eq!(error(other.update(&task, answer).await)["code"], -32602);
        assert_eq!(error(other.cancel(&task).await)["code"], -32602);
    }
    // Still Alice's, untouched.
    assert_eq!(result(alice.get(&task).await)["status"], "input_required");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn without_the_extension_tools_run_as_plain_calls_and_tasks_methods_are_refused() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url).without_tasks();
    let plain = caller.call("add_slowly", json!({"a": 4, "b": 4})).await;
    assert_eq!(plain["resultType"], "complete");
    assert_eq!(text(&plain), "8");
    assert!(plain.get("taskId").is_none());
    // The same resolver asks in an input_required round of the call instead.
    let round = caller.call("pay", json!({"amount": 1})).await;
    assert_eq!(round["resultType"], "input_required");
    assert!(round["inputRequests"].get("approval").is_some());
    // A tool that only runs as a task says what the request lacks.
    let response = caller
        .send("tools/call", json!({"name": "forever", "arguments": {}}))
        .await;
    let refused = error(response);
    assert_eq!(refused["code"], -32021);
    assert_eq!(
        refused["data"]["requiredCapabilities"]["extensions"][TASKS],
        json!({})
    );
    // tasks/* need the extension, checked before the id.
    for method in ["tasks/get", "tasks/cancel"] {
        let response = caller.send(method, json!({"taskId": "nope"})).await;
        assert_eq!(error(response)["code"], -32021, "{method}");
    }
    let response = caller
        .send(
            "tasks/update",
            json!({"taskId": "nope", "inputResponses": {}}),
        )
        .await;
    assert_eq!(error(response)["code"], -32021);
    // Removed methods are not found.
    let tasks = Caller::new(&running.url);
    for method in ["tasks/result", "tasks/list"] {
        assert_eq!(error(tasks.send(method, json!({})).await)["code"], -32601);
    }
    assert_eq!(error(tasks.get("nope").await)["code"], -32602);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn server_discover_declares_the_extension_but_a_legacy_session_gets_no_tasks() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    let discovered = result(caller.send("server/discover", json!({})).await);
    assert_eq!(discovered["capabilities"]["extensions"][TASKS], json!({}));
    assert!(discovered["capabilities"].get("tasks").is_none());
    let session = running.initialize().await;
    let body = legacy_call(2, "add_slowly", json!({"a": 1, "b": 2}));
    let events = events_or_json(running.legacy(&session, &body).await).await;
    let reply = events.last().unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], "3");
    assert!(reply["result"].get("taskId").is_none());
    running.shut_down().await.unwrap();
}

/// The JSON body, or the events of an SSE body.
async fn events_or_json(response: reqwest::Response) -> Vec<serde_json::Value> {
    if content_type(&response).starts_with("text/event-stream") {
        events_of(response).await
    } else {
        vec![json_of(response).await]
    }
}

#[tokio::test]
async fn a_listen_stream_that_names_a_task_gets_its_changes_as_notifications_tasks() {
    let running = start_authenticated(server().http()).await;
    let alice = Caller::new(&running.url).signed_in_as("alice");
    let task = alice.start_task("pay", json!({"amount": 12})).await;
    alice.wait_for(&task, "input_required").await;
    let filter = json!({"notifications": {"taskIds": [task]}});
    let mut stream = alice.post("subscriptions/listen", filter.clone()).await;
    let ack = first_event(&mut stream).await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(ack["params"]["notifications"]["taskIds"], json!([task]));
    let answer = json!({"approval": {"action": "accept", "content": {"approve": true}}});
    result(alice.update(&task, answer).await);
    let mut statuses = Vec::new();
    while statuses.last().map(String::as_str) != Some("completed") {
        let event = first_event(&mut stream).await;
        assert_eq!(event["method"], "notifications/tasks", "{event}");
        assert_eq!(event["params"]["taskId"], task);
        assert!(
            event["params"]["_meta"]
                .get("io.modelcontextprotocol/subscriptionId")
                .is_some()
        );
        statuses.push(event["params"]["status"].as_str().unwrap().to_owned());
    }
    assert_eq!(statuses.first().map(String::as_str), Some("working"));
    drop(stream);
    // Another principal's listen does not get Alice's task; without the extension it is refused.
    let bob = Caller::new(&running.url).signed_in_as("bob");
    let mut stream = bob.post("subscriptions/listen", filter.clone()).await;
    let ack = first_event(&mut stream).await;
    assert!(
        ack["params"]["notifications"].get("taskIds").is_none(),
        "{ack}"
    );
    drop(stream);
    let refused = alice
        .without_tasks()
        .send("subscriptions/listen", filter)
        .await;
    assert_eq!(error(refused)["code"], -32021);
    running.shut_down().await.unwrap();
}

/// mcpwire's own client declares no tasks extension: on both revisions a `task = "optional"`
/// tool answers its call (questions answered by the client's elicitation handler), and a
/// `task = "required"` one says, on 2026-07-28, what the request lacks.
#[tokio::test]
async fn mcpwire_client_without_tasks_gets_plain_calls_on_both_revisions() {
    use mcpwire::client::{Client, ClientError, EraChoice};
    let running = start(server()).await;
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = Client::builder()
            .era(era)
            .on_form_elicitation(|_request| async {
                let answer = json!({"action": "accept", "content": {"approve": true}});
                serde_json::from_value::<mcpwire::protocol::ElicitResult>(answer).unwrap()
            })
            .connect_http(&running.url)
            .await
            .unwrap();
        let sum = client
            .call_tool("add_slowly", json!({"a": 20, "b": 22}))
            .await
            .unwrap();
        assert_eq!(sum.content, vec![Content::text("42")], "{era:?}");
        let paid = client.call_tool("pay", json!({"amount": 7})).await.unwrap();
        assert_eq!(paid.content, vec![Content::text("paid 7")], "{era:?}");
        if era == EraChoice::Modern {
            match client.call_tool("forever", json!({})).await {
                Err(ClientError::Rpc(error)) => assert_eq!(error.code, -32021),
                other => panic!("expected -32021, got {other:?}"),
            }
        }
        client.close().await;
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_question_that_depends_on_an_answer_comes_in_a_later_input_required_phase() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("ship", json!({})).await;
    let first = caller.wait_for(&task, "input_required").await;
    let keys: Vec<&String> = first["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["city"]);
    let city = json!({"city": {"action": "accept", "content": {"name": "Oslo"}}});
    result(caller.update(&task, city).await);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let second = loop {
        let got = result(caller.get(&task).await);
        if got["status"] == "input_required" && got["inputRequests"].get("street").is_some() {
            break got;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no second question: {got}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(second["inputRequests"].as_object().unwrap().len(), 1);
    assert_eq!(
        second["inputRequests"]["street"]["params"]["message"],
        "Which street in Oslo?"
    );
    let street = json!({"street": {"action": "accept", "content": {"name": "Storgata"}}});
    result(caller.update(&task, street).await);
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(text(&done["result"]), "shipping to Storgata, Oslo");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_question_the_client_cannot_answer_fails_the_task_naming_the_capability() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    // Declares the tasks extension but not elicitation.
    let response = caller
        .client
        .post(&running.url)
        .header("accept", "application/json, text/event-stream")
        .headers(modern_headers(
            &json!({"method": "tools/call", "params": {"name": "pay"}}),
        ))
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "pay", "arguments": {"amount": 3},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
            }}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    let created = result(json_of(response).await);
    let task = created["taskId"].as_str().unwrap();
    let failed = caller.wait_for(task, "failed").await;
    assert_eq!(failed["error"]["code"], -32021, "{failed}");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_reworded_question_is_asked_again_under_a_key_never_used_before_in_the_task() {
    let running = start(server()).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("unlock", json!({})).await;
    let first = caller.wait_for(&task, "input_required").await;
    assert_eq!(first["inputRequests"]["code"]["params"]["message"], "Code?");
    let answer = |key: &str| json!({ key: {"action": "accept", "content": {"name": "1234"}} });
    result(caller.update(&task, answer("code")).await);
    // The answer was to the old wording: the new one is asked, under a fresh key.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let second = loop {
        let got = result(caller.get(&task).await);
        if got["status"] == "input_required" && got["inputRequests"].get("code").is_none() {
            break got;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not asked again: {got}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let keys: Vec<&String> = second["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["code.2"]);
    assert_eq!(
        second["inputRequests"]["code.2"]["params"]["message"],
        "Your code, please?"
    );
    // The old key is no longer outstanding: answering it again changes nothing.
    result(caller.update(&task, answer("code")).await);
    assert_eq!(result(caller.get(&task).await)["status"], "input_required");
    result(caller.update(&task, answer("code.2")).await);
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(text(&done["result"]), "unlocked with 1234");
    running.shut_down().await.unwrap();
}
