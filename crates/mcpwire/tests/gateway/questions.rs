//! A backend's questions through the gateway, on every pair of revisions: a backend (built with
//! mcpwire, served over HTTP on the revision it is pinned to) asks with `Elicit`, `Sample` and
//! `ListRoots`; the gateway in front passes each question to the front client (the crate's own
//! `Client` over HTTP, with its handlers) and the answer back; the backend's result shows what
//! it was answered. Progress, cancellation and the backend's own list changes pass through too.
//! A Python SDK 1.x server (installed by `scripts/setup-peers`) is a backend nobody here wrote,
//! and the Python SDK 2.x client a front client nobody here wrote.

#![cfg(feature = "gateway")]

use crate::serving::{PAIRS, Serving, serve};
use mcpwire::client::{CallOptions, Client, EraChoice, Round};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::protocol::{
    CreateMessageResult, ElicitAction, ElicitResult, Era, ListRootsResult, Role, Root,
    SamplingContent,
};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// Every wait of these tests is bounded by this.
const BOUND: Duration = Duration::from_secs(20);

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Name {
    /// Your name.
    name: String,
}

#[resolver]
async fn ask_name() -> Elicit<Name> {
    Elicit::ask("What is your name?")
}

/// Greets the user by the name they give, saying the revision it was asked on.
#[tool]
async fn greet(#[resolve(ask_name)] name: ElicitationResult<Name>, ctx: Context) -> String {
    let said = match name {
        ElicitationResult::Accept(name) => format!("Hello, {}!", name.name),
        ElicitationResult::Decline => "declined".to_owned(),
        ElicitationResult::Cancel => "cancelled".to_owned(),
    };
    format!("{said} ({})", ctx.protocol_version())
}

#[resolver]
fn ask_llm() -> Sample {
    Sample::prompt("Say hello", 10)
}

/// Asks the client's LLM.
#[tool]
async fn sample(#[resolve(ask_llm)] answer: CreateMessageResult) -> String {
    let text = answer.content.text().unwrap_or_default().to_owned();
    format!("{} said {text}", answer.model)
}

#[resolver]
async fn workspace() -> ListRoots {
    ListRoots
}

/// Lists the client's roots.
#[tool]
async fn roots(#[resolve(workspace)] roots: ListRootsResult) -> String {
    let uris: Vec<&str> = roots.roots.iter().map(|r| r.uri.as_str()).collect();
    uris.join(",")
}

/// Asks two questions in one call.
#[tool]
async fn both(
    #[resolve(ask_name)] name: ElicitationResult<Name>,
    #[resolve(workspace)] roots: ListRootsResult,
) -> String {
    let name = match name {
        ElicitationResult::Accept(name) => name.name,
        _ => "nobody".to_owned(),
    };
    format!("{name} in {}", roots.roots.len())
}

/// Reports three steps of progress.
#[tool]
async fn steps(ctx: Context) -> String {
    for step in 1..=3 {
        ctx.report_progress(f64::from(step), Some(3.0), None).await;
    }
    "3 steps".to_owned()
}

/// What the hanging tool tells the test.
#[derive(Default)]
struct Hanging {
    started: Notify,
    ended: Notify,
}

struct EndedOnDrop(Arc<Hanging>);

impl Drop for EndedOnDrop {
    fn drop(&mut self) {
        self.0.ended.notify_one();
    }
}

/// Runs until it is cancelled.
#[tool]
async fn hang(ctx: Context) -> String {
    let hanging = ctx.state::<Arc<Hanging>>().clone();
    let _ended = EndedOnDrop(hanging.clone());
    hanging.started.notify_one();
    ctx.cancelled().await;
    "cancelled".to_owned()
}

/// Adds the tool `extra` to its own server.
#[tool]
async fn grow(ctx: Context) -> String {
    let catalog = ctx.state::<mcpwire::server::Catalog>();
    catalog.add_tool(extra).unwrap();
    "grown".to_owned()
}

/// Served once `grow` ran.
#[tool]
async fn extra() -> String {
    "extra".to_owned()
}

/// A resource that asks the reader's name before it can be read.
#[resource(uri = "notes://welcome")]
async fn welcome(#[resolve(ask_name)] name: ElicitationResult<Name>) -> String {
    match name {
        ElicitationResult::Accept(name) => format!("Welcome, {}.", name.name),
        _ => "Welcome.".to_owned(),
    }
}

/// A prompt that asks the user's name first.
#[prompt]
async fn introduce(#[resolve(ask_name)] name: ElicitationResult<Name>) -> String {
    match name {
        ElicitationResult::Accept(name) => format!("Introduce {}.", name.name),
        _ => "Introduce nobody.".to_owned(),
    }
}

fn backend_server(hanging: Arc<Hanging>) -> McpServer {
    let server = McpServer::new("asker");
    let catalog = server.catalog();
    server
        .state(hanging)
        .state(catalog)
        .tool(grow)
        .and_then(|s| s.resource(welcome))
        .and_then(|s| s.prompt(introduce))
        .unwrap()
        .tool(greet)
        .and_then(|s| s.tool(sample))
        .and_then(|s| s.tool(roots))
        .and_then(|s| s.tool(both))
        .and_then(|s| s.tool(steps))
        .and_then(|s| s.tool(hang))
        .unwrap()
}

/// A backend pinned to `backend`, a gateway in front of it; both served.
struct Setup {
    _backend: Serving,
    gateway: Serving,
    hanging: Arc<Hanging>,
}

async fn setup(backend: EraChoice) -> Setup {
    let hanging = Arc::new(Hanging::default());
    let served = serve(backend_server(hanging.clone())).await;
    let gateway = Gateway::new()
        .backend(Backend::http("b", served.url.clone()).era(backend))
        .start(McpServer::new("gateway"))
        .await
        .expect("the gateway starts");
    Setup {
        _backend: served,
        gateway: serve(gateway).await,
        hanging,
    }
}

fn accepting(name: &'static str) -> mcpwire::client::ClientBuilder {
    Client::builder()
        .on_form_elicitation(move |_| async move {
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"name": name}).as_object().cloned(),
            }
        })
        .on_sampling(|request| async move {
            let asked = serde_json::to_value(&request.messages).unwrap();
            assert!(asked.to_string().contains("Say hello"), "{asked}");
            let content: SamplingContent =
                serde_json::from_value(json!({"type": "text", "text": "hi"})).unwrap();
            Ok(CreateMessageResult {
                role: Role::Assistant,
                content,
                model: "front-llm".into(),
                stop_reason: None,
            })
        })
        .on_roots(|| async {
            ListRootsResult {
                roots: vec![Root {
                    uri: "file:///work".into(),
                    name: None,
                }],
            }
        })
}

async fn front(builder: mcpwire::client::ClientBuilder, era: EraChoice, url: &str) -> Client {
    let client = builder.era(era).connect_http(url).await.unwrap();
    assert_eq!(client.era(), era_of(era));
    client
}

fn era_of(choice: EraChoice) -> Era {
    match choice {
        EraChoice::Legacy => Era::Legacy,
        _ => Era::Modern,
    }
}

fn version_of(choice: EraChoice) -> &'static str {
    match choice {
        EraChoice::Legacy => "2025-11-25",
        _ => "2026-07-28",
    }
}

fn text_of(result: &CallToolResult) -> String {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let value = serde_json::to_value(&result.content).unwrap();
    value[0]["text"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn elicitation_sampling_and_roots_reach_the_front_client_on_every_pair_of_revisions() {
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let setup = setup(backend_era).await;
        let client = front(accepting("Ada"), front_era, &setup.gateway.url).await;
        let call = |tool: &'static str| {
            let client = client.clone();
            async move {
                let result = tokio::time::timeout(BOUND, client.call_tool(tool, json!({})));
                text_of(&result.await.expect("answered in time").unwrap())
            }
        };
        let backend = version_of(backend_era);
        assert_eq!(
            call("b_greet").await,
            format!("Hello, Ada! ({backend})"),
            "{pair}"
        );
        assert_eq!(call("b_sample").await, "front-llm said hi", "{pair}");
        assert_eq!(call("b_roots").await, "file:///work", "{pair}");
        assert_eq!(call("b_both").await, "Ada in 1", "{pair}");
    }
}

#[tokio::test]
async fn a_declined_or_cancelled_elicitation_reaches_the_backend_as_such() {
    for action in [ElicitAction::Decline, ElicitAction::Cancel] {
        for (front_era, backend_era) in PAIRS {
            let pair = format!("{action:?}: front {front_era:?}, backend {backend_era:?}");
            let setup = setup(backend_era).await;
            let builder = Client::builder().on_form_elicitation(move |_| async move {
                ElicitResult {
                    action,
                    content: None,
                }
            });
            let client = front(builder, front_era, &setup.gateway.url).await;
            let result = tokio::time::timeout(BOUND, client.call_tool("b_greet", json!({})));
            let text = text_of(&result.await.expect("answered in time").unwrap());
            let expected = match action {
                ElicitAction::Decline => "declined",
                _ => "cancelled",
            };
            let backend = version_of(backend_era);
            assert_eq!(text, format!("{expected} ({backend})"), "{pair}");
        }
    }
}

#[tokio::test]
async fn a_question_the_front_client_cannot_answer_is_not_passed_on() {
    // The front declares no capability. A 2026-07-28 backend is told so with the call and
    // refuses it (-32021); a 2025-11-25 backend, which learnt the gateway's capabilities at
    // `initialize`, asks, and is refused by the gateway without the front being asked.
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let setup = setup(backend_era).await;
        let client = front(Client::builder(), front_era, &setup.gateway.url).await;
        let answer = tokio::time::timeout(BOUND, client.call_tool("b_roots", json!({})));
        let answer = answer.await.expect("answered in time");
        match backend_era {
            EraChoice::Legacy => {
                let result = answer.unwrap();
                assert_eq!(result.is_error, Some(true), "{pair}: {result:?}");
                let text = serde_json::to_string(&result.content).unwrap();
                assert!(
                    text.contains("The client behind this gateway cannot answer roots/list"),
                    "{pair}: {text}"
                );
            }
            _ => {
                let Err(mcpwire::client::ClientError::Rpc(error)) = answer else {
                    panic!("{pair}: {answer:?}");
                };
                assert_eq!(error.code, -32021, "{pair}: {error:?}");
            }
        }
    }
}

#[tokio::test]
async fn a_modern_front_gets_input_required_rounds_whichever_the_backend() {
    for backend_era in [EraChoice::Legacy, EraChoice::Modern] {
        let setup = setup(backend_era).await;
        let client = front(accepting("Ada"), EraChoice::Modern, &setup.gateway.url).await;
        let params = json!({"name": "b_greet", "arguments": {}});
        let options = || CallOptions::new().capabilities(form_only());
        let first = client.request_round("tools/call", params.clone(), None, options());
        let Round::InputRequired {
            input_requests,
            request_state,
        } = tokio::time::timeout(BOUND, first).await.unwrap().unwrap()
        else {
            panic!("{backend_era:?}: no question");
        };
        assert_eq!(input_requests.len(), 1, "{input_requests:?}");
        let (key, question) = input_requests.iter().next().unwrap();
        assert_eq!(question["method"], "elicitation/create");
        assert_eq!(question["params"]["message"], "What is your name?");
        let state = request_state.expect("a requestState");
        let mut retry = params.clone();
        retry["inputResponses"] =
            json!({ key: {"action": "accept", "content": {"name": "Grace"}} });
        let second = client.request_round("tools/call", retry, Some(&state), options());
        let Round::Complete(result) = tokio::time::timeout(BOUND, second).await.unwrap().unwrap()
        else {
            panic!("{backend_era:?}: asked again");
        };
        let version = version_of(backend_era);
        assert_eq!(
            result["content"][0]["text"],
            format!("Hello, Grace! ({version})")
        );
        // The state cannot be used for another tool.
        let mut elsewhere = json!({"name": "b_roots", "arguments": {}});
        elsewhere["inputResponses"] = json!({ key: {"action": "accept", "content": {}} });
        let refused = client.request_round("tools/call", elsewhere, Some(&state), options());
        let refused = tokio::time::timeout(BOUND, refused).await.unwrap();
        assert!(refused.is_err(), "{backend_era:?}: {refused:?}");
    }
}

fn form_only() -> mcpwire::protocol::ClientCapabilities {
    mcpwire::protocol::ClientCapabilities {
        elicitation: Some(json!({"form": {}})),
        ..Default::default()
    }
}

#[tokio::test]
async fn progress_reaches_the_front_client() {
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let setup = setup(backend_era).await;
        let client = front(Client::builder(), front_era, &setup.gateway.url).await;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        let options = CallOptions::new().on_progress(move |p| {
            record.lock().unwrap().push((p.progress, p.total));
        });
        let result = client.call_tool_with("b_steps", json!({}), options);
        let result = tokio::time::timeout(BOUND, result).await.unwrap().unwrap();
        assert_eq!(text_of(&result), "3 steps", "{pair}");
        assert_eq!(
            *seen.lock().unwrap(),
            [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))],
            "{pair}"
        );
    }
}

#[tokio::test]
async fn a_call_the_front_client_gives_up_is_cancelled_on_the_backend() {
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let setup = setup(backend_era).await;
        let client = front(Client::builder(), front_era, &setup.gateway.url).await;
        let call = tokio::spawn({
            let client = client.clone();
            async move { client.call_tool("b_hang", json!({})).await }
        });
        let started = setup.hanging.started.notified();
        tokio::time::timeout(BOUND, started)
            .await
            .unwrap_or_else(|_| panic!("{pair}: the backend tool never started"));
        call.abort();
        let ended = setup.hanging.ended.notified();
        tokio::time::timeout(BOUND, ended)
            .await
            .unwrap_or_else(|_| panic!("{pair}: the backend call was not cancelled"));
    }
}

#[tokio::test]
async fn a_backends_own_list_change_reaches_the_front_client() {
    for backend_era in [EraChoice::Legacy, EraChoice::Modern] {
        let setup = setup(backend_era).await;
        let client = front(Client::builder(), EraChoice::Legacy, &setup.gateway.url).await;
        let mut notes = client.notifications();
        let served = |client: Client| async move {
            let tools = client.list_tools().await.unwrap();
            tools.iter().any(|tool| tool.name == "b_extra")
        };
        assert!(!served(client.clone()).await, "{backend_era:?}");
        let grown = tokio::time::timeout(BOUND, client.call_tool("b_grow", json!({})));
        assert_eq!(text_of(&grown.await.unwrap().unwrap()), "grown");
        // The front is told its tools changed, until the re-listed ones include the new tool.
        let listed = async {
            loop {
                let note = notes.next().await.expect("the connection is open");
                if note.method == "notifications/tools/list_changed" && served(client.clone()).await
                {
                    break;
                }
            }
        };
        tokio::time::timeout(BOUND, listed)
            .await
            .unwrap_or_else(|_| panic!("{backend_era:?}: the new tool was not announced"));
        let extra = tokio::time::timeout(BOUND, client.call_tool("b_extra", json!({})));
        assert_eq!(text_of(&extra.await.unwrap().unwrap()), "extra");
    }
}

#[tokio::test]
async fn concurrent_callers_each_get_their_own_question_from_a_legacy_http_backend() {
    // Two front clients call at once; each answers only once both have been asked, so both
    // backend calls are in flight with a question each: each question must reach the caller
    // whose call asked it (over HTTP, the stream it came on says whose it is).
    for front_era in [EraChoice::Legacy, EraChoice::Modern] {
        let setup = setup(EraChoice::Legacy).await;
        let both_asked = Arc::new(tokio::sync::Barrier::new(2));
        let caller = |name: &'static str| {
            let both_asked = both_asked.clone();
            Client::builder().on_form_elicitation(move |_| {
                let both_asked = both_asked.clone();
                async move {
                    let waited = tokio::time::timeout(BOUND, both_asked.wait()).await;
                    ElicitResult {
                        action: match waited {
                            Ok(_) => ElicitAction::Accept,
                            Err(_) => ElicitAction::Cancel,
                        },
                        content: json!({ "name": name }).as_object().cloned(),
                    }
                }
            })
        };
        let ada = front(caller("Ada"), front_era, &setup.gateway.url).await;
        let grace = front(caller("Grace"), front_era, &setup.gateway.url).await;
        let (ada, grace) = tokio::join!(
            tokio::time::timeout(BOUND, ada.call_tool("b_greet", json!({}))),
            tokio::time::timeout(BOUND, grace.call_tool("b_greet", json!({}))),
        );
        let pair = format!("front {front_era:?}");
        assert_eq!(
            text_of(&ada.unwrap().unwrap()),
            "Hello, Ada! (2025-11-25)",
            "{pair}"
        );
        assert_eq!(
            text_of(&grace.unwrap().unwrap()),
            "Hello, Grace! (2025-11-25)",
            "{pair}"
        );
    }
}

/// A peer installed by `scripts/setup-peers`: `var`, or its default under `target/peers`.
fn peer(var: &str, default: &str) -> std::path::PathBuf {
    let path = match std::env::var_os(var) {
        Some(path) if !path.is_empty() => std::path::PathBuf::from(path),
        _ => std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/peers")
            .join(default),
    };
    assert!(
        path.exists(),
        "peer {var} not found at {}: run scripts/setup-peers",
        path.display()
    );
    path
}

/// The Python SDK 1.x server of `tests/peers/py1_server.py` over stdio (installed by
/// `scripts/setup-peers`).
pub(crate) fn python1_stdio() -> mcpwire::client::StdioServer {
    let python = peer("MCP_PEER_PYTHON1", "venv-mcp1/bin/python");
    let script = match std::env::var_os("MCP_PEER_PYTHON1_SERVER") {
        Some(path) if !path.is_empty() => std::path::PathBuf::from(path),
        _ => {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/py1_server.py")
        }
    };
    mcpwire::client::StdioServer::new(python.display().to_string())
        .args([script.display().to_string(), "--stdio".to_owned()])
}

#[tokio::test]
async fn a_python_sdk_1_backends_questions_reach_the_front_client_on_both_revisions() {
    // A server nobody here wrote, speaking only 2025-11-25 (the gateway finds that out by
    // itself), over stdio: its elicitation, sampling and roots requests reach the front.
    let gateway = Gateway::new()
        .backend(Backend::stdio("py", python1_stdio()).timeout(BOUND))
        .start(McpServer::new("gateway"))
        .await
        .expect("the gateway starts");
    let gateway = serve(gateway).await;
    for front_era in [EraChoice::Legacy, EraChoice::Modern] {
        let builder = Client::builder()
            .on_form_elicitation(|question| async move {
                assert_eq!(question.message, "Sign up for the club");
                let content = json!({"name": "Ada", "email": "ada@example.com", "age": 36, "newsletter": true});
                ElicitResult {
                    action: ElicitAction::Accept,
                    content: content.as_object().cloned(),
                }
            })
            .on_sampling(|request| async move {
                let asked = serde_json::to_value(&request.messages).unwrap().to_string();
                let content: SamplingContent =
                    serde_json::from_value(json!({"type": "text", "text": asked})).unwrap();
                Ok(CreateMessageResult {
                    role: Role::Assistant,
                    content,
                    model: "front-llm".into(),
                    stop_reason: None,
                })
            })
            .on_roots(|| async {
                ListRootsResult {
                    roots: vec![Root {
                        uri: "file:///work".into(),
                        name: None,
                    }],
                }
            });
        let client = front(builder, front_era, &gateway.url).await;
        let call = |tool: &'static str, arguments: serde_json::Value| {
            let client = client.clone();
            async move {
                let result = tokio::time::timeout(BOUND, client.call_tool(tool, arguments));
                text_of(&result.await.expect("answered in time").unwrap())
            }
        };
        let pair = format!("front {front_era:?}");
        assert_eq!(
            call("py_signup", json!({})).await,
            "signed up Ada <ada@example.com>, age 36, newsletter True",
            "{pair}"
        );
        let haiku = call("py_haiku", json!({"topic": "rust"})).await;
        assert!(
            haiku.starts_with("model front-llm says: ") && haiku.contains("A haiku about rust"),
            "{pair}: {haiku}"
        );
        assert_eq!(
            call("py_roots", json!({})).await,
            "roots: file:///work",
            "{pair}"
        );
    }
}

/// Runs the Python SDK 2.x client (`tests/peers/client.py`) in `mode` against `url` with
/// `arguments`; its output lines.
async fn python_client(mode: &str, url: &str, arguments: &[&str]) -> Vec<serde_json::Value> {
    let python = peer("MCP_PEER_PYTHON", "venv/bin/python");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/client.py");
    let run = tokio::process::Command::new(python)
        .arg(script)
        .args(["--mode", mode, "--http", url])
        .args(arguments)
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the Python client ended within 60 s")
        .expect("the Python client runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout.lines())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("{line}")))
        .collect()
}

#[tokio::test]
async fn the_python_sdk_client_in_front_answers_a_backends_questions_on_every_pair() {
    for (front_mode, backend_era) in [
        ("legacy", EraChoice::Legacy),
        ("legacy", EraChoice::Modern),
        ("2026-07-28", EraChoice::Legacy),
        ("2026-07-28", EraChoice::Modern),
    ] {
        let pair = format!("front {front_mode}, backend {backend_era:?}");
        let setup = setup(backend_era).await;
        let lines = python_client(
            front_mode,
            &setup.gateway.url,
            &[
                "--elicit",
                r#"{"action":"accept","content":{"name":"Ada"}}"#,
                "--sample",
                "hi",
                "--roots",
                r#"[{"uri":"file:///work","name":"work"}]"#,
                "call",
                "b_greet",
                "{}",
                "call",
                "b_sample",
                "{}",
                "call",
                "b_roots",
                "{}",
            ],
        )
        .await;
        let texts: Vec<&str> = (lines.iter().take(3))
            .map(|line| line["content"][0]["text"].as_str().unwrap_or_default())
            .collect();
        let version = version_of(backend_era);
        assert_eq!(
            texts,
            [
                format!("Hello, Ada! ({version})").as_str(),
                "test-model said hi",
                "file:///work"
            ],
            "{pair}: {lines:?}"
        );
        let asked: Vec<&str> = (lines[3]["asked"].as_array().expect("what it was asked"))
            .iter()
            .map(|question| question["method"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(
            asked,
            ["elicitation/create", "sampling/createMessage", "roots/list"],
            "{pair}"
        );
    }
}

#[tokio::test]
async fn a_prompt_or_a_resource_that_asks_reaches_the_front_client_on_every_pair() {
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let setup = setup(backend_era).await;
        let client = front(accepting("Ada"), front_era, &setup.gateway.url).await;
        let read = tokio::time::timeout(BOUND, client.read_resource("notes://b/welcome"));
        let read = serde_json::to_value(read.await.unwrap().unwrap()).unwrap();
        assert_eq!(
            read["contents"][0]["text"], "Welcome, Ada.",
            "{pair}: {read}"
        );
        assert_eq!(read["contents"][0]["uri"], "notes://b/welcome", "{pair}");
        let none: [(&str, &str); 0] = [];
        let got = tokio::time::timeout(BOUND, client.get_prompt("b_introduce", none));
        let got = serde_json::to_value(got.await.unwrap().unwrap()).unwrap();
        assert_eq!(
            got["messages"][0]["content"]["text"], "Introduce Ada.",
            "{pair}: {got}"
        );
    }
}
