//! This repo's client (`mcpwire::client`), era `Auto` (the default), against the servers people
//! run today, on the SDKs' 1.x lines: the reference "everything" server
//! (`@modelcontextprotocol/server-everything`, TypeScript SDK 1.x) and a Python SDK 1.x server
//! (`tests/peers/py1_server.py`, PyPI `mcp` 1.x), over stdio and Streamable HTTP. Each run
//! settles on 2025-11-25 by itself (without waiting out a timeout), then lists and calls tools,
//! lists and reads resources (text, blob, templates), gets a prompt, and has the server ask
//! its questions (a form, sampling, roots) and report progress. The old peers' quirks each have
//! a named test. Installed by `scripts/setup-peers` (paths in `target/peers/env.sh`).

mod common;

use common::{
    free_port, peer_everything as everything, peer_node as node, peer_python1 as python1,
    peer_python1_server as python1_server,
};
use mcpwire::client::{CallOptions, Client, ClientBuilder, ClientError, EraChoice, StdioServer};
use mcpwire::protocol::{CreateMessageResult, ElicitAction, ElicitResult, Era, ListRootsResult};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longer than any honest connect here, far shorter than the 60 s call timeout a hang would
/// wait out.
const CONNECTED_WITHIN: Duration = Duration::from_secs(20);

/// A peer's HTTP server, killed on drop.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    /// Starts `command` listening on `port` and waits until it accepts.
    fn start(mut command: Command, port: u16) -> Self {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the peer server");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline || child.try_wait().ok().flatten().is_some() {
                let _ = child.kill();
                panic!("the peer server never listened on port {port}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Served {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }

    fn everything() -> Self {
        let port = free_port();
        let mut command = Command::new(node());
        command
            .arg(everything())
            .arg("streamableHttp")
            .env("PORT", port.to_string());
        Self::start(command, port)
    }

    fn python1() -> Self {
        let port = free_port();
        let mut command = Command::new(python1());
        command
            .arg(python1_server())
            .args(["--http", &format!("127.0.0.1:{port}")]);
        Self::start(command, port)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the server asked the client's handlers.
#[derive(Default)]
struct Asked {
    forms: Vec<Value>,
    samplings: Vec<String>,
    roots: usize,
}

/// A client with a handler for each question, recording them in `asked`.
fn builder(asked: Arc<Mutex<Asked>>) -> ClientBuilder {
    let (forms, samplings, roots) = (asked.clone(), asked.clone(), asked);
    Client::builder()
        .on_form_elicitation(move |question| {
            forms
                .lock()
                .unwrap()
                .forms
                .push(question.requested_schema.clone());
            let content = json!({"name": "Ada", "email": "ada@example.com"});
            async move {
                ElicitResult {
                    action: ElicitAction::Accept,
                    content: content.as_object().cloned(),
                }
            }
        })
        .on_sampling(move |request| {
            let asked = serde_json::to_value(&request.messages).unwrap().to_string();
            samplings.lock().unwrap().samplings.push(asked);
            async move {
                Ok::<CreateMessageResult, _>(
                    serde_json::from_value(json!({"role": "assistant", "model": "test-model",
                        "content": {"type": "text", "text": "Waves"}}))
                    .unwrap(),
                )
            }
        })
        .on_roots(move || {
            roots.lock().unwrap().roots += 1;
            async {
                serde_json::from_value::<ListRootsResult>(
                    json!({"roots": [{"uri": "file:///tmp", "name": "tmp"}]}),
                )
                .unwrap()
            }
        })
}

async fn connect_stdio(builder: ClientBuilder, program: PathBuf, args: &[&str]) -> Client {
    let server = StdioServer::new(program).args(args);
    tokio::time::timeout(CONNECTED_WITHIN, builder.connect_stdio(server))
        .await
        .expect("Auto settles without waiting out a timeout")
        .expect("connect over stdio")
}

async fn connect_http(builder: ClientBuilder, url: &str) -> Client {
    tokio::time::timeout(CONNECTED_WITHIN, builder.connect_http(url))
        .await
        .expect("Auto settles without waiting out a timeout")
        .expect("connect over HTTP")
}

/// The text blocks of a result, joined.
fn texts(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

async fn call(client: &Client, tool: &str, arguments: Value) -> Value {
    let result = client
        .request("tools/call", json!({"name": tool, "arguments": arguments}))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert_ne!(result["isError"], true, "{tool}: {result}");
    result
}

async fn everything_scenario(client: Client, asked: Arc<Mutex<Asked>>) {
    assert_eq!(client.era(), Era::Legacy);
    let info = client.server().info.unwrap();
    assert_eq!(info.name, "mcp-servers/everything");

    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for name in [
        "echo",
        "get-sum",
        "trigger-long-running-operation",
        "trigger-elicitation-request",
        "trigger-sampling-request",
        "get-roots-list",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let echo = call(&client, "echo", json!({"message": "hi"})).await;
    assert_eq!(texts(&echo), "Echo: hi");
    let sum = call(&client, "get-sum", json!({"a": 2, "b": 3})).await;
    assert!(texts(&sum).contains('5'), "{sum}");

    let resources = client.list_resources().await.unwrap();
    assert!(
        resources
            .iter()
            .any(|r| r.uri == "demo://resource/static/document/features.md"),
        "{resources:?}"
    );
    let templates = client.list_resource_templates().await.unwrap();
    let templates: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert!(
        templates.contains(&"demo://resource/dynamic/blob/{resourceId}"),
        "{templates:?}"
    );
    let text = client
        .request(
            "resources/read",
            json!({"uri": "demo://resource/dynamic/text/3"}),
        )
        .await
        .unwrap();
    let text = text["contents"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("Resource 3: This is a plaintext resource"),
        "{text}"
    );
    let blob = client
        .request(
            "resources/read",
            json!({"uri": "demo://resource/dynamic/blob/3"}),
        )
        .await
        .unwrap();
    assert!(
        blob["contents"][0]["blob"]
            .as_str()
            .is_some_and(|b| !b.is_empty()),
        "{blob}"
    );

    let prompts = client.list_prompts().await.unwrap();
    assert!(
        prompts.iter().any(|p| p.name == "args-prompt"),
        "{prompts:?}"
    );
    let prompt = client
        .request(
            "prompts/get",
            json!({"name": "args-prompt", "arguments": {"city": "Paris"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "What's weather in Paris?"
    );

    let form = call(&client, "trigger-elicitation-request", json!({})).await;
    assert!(texts(&form).contains("- Name: Ada"), "{form}");
    assert!(texts(&form).contains("- Email: ada@example.com"), "{form}");
    {
        let asked = asked.lock().unwrap();
        let schema = asked.forms.last().expect("the form was asked");
        assert_eq!(schema["required"], json!(["name"]));
        assert_eq!(schema["properties"]["email"]["format"], "email");
        assert_eq!(schema["properties"]["integer"]["default"], 42);
    }

    let sampled = call(
        &client,
        "trigger-sampling-request",
        json!({"prompt": "the sea"}),
    )
    .await;
    assert!(texts(&sampled).contains("Waves"), "{sampled}");
    assert!(
        asked.lock().unwrap().samplings[0].contains("the sea"),
        "the question reached the handler"
    );

    let roots = call(&client, "get-roots-list", json!({})).await;
    assert!(texts(&roots).contains("URI: file:///tmp"), "{roots}");

    let progress = Arc::new(Mutex::new(Vec::new()));
    let seen = progress.clone();
    let options = CallOptions::new().on_progress(move |p| seen.lock().unwrap().push(p.progress));
    let long = client
        .request_with(
            "tools/call",
            json!({"name": "trigger-long-running-operation",
                   "arguments": {"duration": 0.3, "steps": 3}}),
            options,
        )
        .await
        .unwrap();
    assert!(
        texts(&long).starts_with("Long running operation completed."),
        "{long}"
    );
    assert_eq!(*progress.lock().unwrap(), [1.0, 2.0, 3.0]);
    client.close().await;
}

async fn python1_scenario(client: Client, asked: Arc<Mutex<Asked>>) {
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().info.unwrap().name, "py1-peer");

    let tools = client.list_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "add",
            "chatter",
            "countdown",
            "echo",
            "haiku",
            "roots",
            "signup",
            "wait_for_cancel",
            "waits"
        ]
    );
    let sum = call(&client, "add", json!({"a": 2, "b": 3})).await;
    assert_eq!(sum["structuredContent"], json!({"result": 5}));

    let resources = client.list_resources().await.unwrap();
    let mut uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    uris.sort_unstable();
    assert_eq!(uris, ["docs://logo", "docs://readme"]);
    let templates = client.list_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "books://{title}");
    let read = |uri: &'static str| {
        let client = client.clone();
        async move {
            client
                .request("resources/read", json!({"uri": uri}))
                .await
                .unwrap()["contents"][0]
                .clone()
        }
    };
    assert_eq!(read("docs://readme").await["text"], "Read me first.");
    let logo = read("docs://logo").await;
    assert_eq!(logo["mimeType"], "image/png");
    assert_eq!(logo["blob"], "iVBORw0KGgotcHkxLQ==");
    assert_eq!(read("books://Dune").await["text"], "The book Dune.");

    let prompt = client
        .request(
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "Say hello to Ada."
    );

    let signed = call(&client, "signup", json!({})).await;
    assert_eq!(
        signed["structuredContent"]["result"],
        "signed up Ada <ada@example.com>, age 30, newsletter False"
    );
    {
        let asked = asked.lock().unwrap();
        let schema = asked.forms.last().expect("the form was asked");
        assert_eq!(schema["required"], json!(["name", "email"]));
        assert_eq!(schema["properties"]["age"]["default"], 30);
        assert_eq!(schema["properties"]["email"]["format"], "email");
    }
    let haiku = call(&client, "haiku", json!({"topic": "sea"})).await;
    assert_eq!(
        haiku["structuredContent"]["result"],
        "model test-model says: Waves"
    );
    let roots = call(&client, "roots", json!({})).await;
    assert_eq!(roots["structuredContent"]["result"], "roots: file:///tmp");

    let progress = Arc::new(Mutex::new(Vec::new()));
    let seen = progress.clone();
    let options = CallOptions::new().on_progress(move |p| {
        seen.lock().unwrap().push((p.progress, p.message.clone()));
    });
    let counted = client
        .request_with(
            "tools/call",
            json!({"name": "countdown", "arguments": {"steps": 3}}),
            options,
        )
        .await
        .unwrap();
    assert_eq!(counted["structuredContent"]["result"], "counted 3 steps");
    assert_eq!(
        *progress.lock().unwrap(),
        [
            (1.0, Some("step 1".to_owned())),
            (2.0, Some("step 2".to_owned())),
            (3.0, Some("step 3".to_owned()))
        ]
    );
    client.close().await;
}

#[tokio::test]
async fn everything_over_stdio() {
    let asked = Arc::default();
    let client = connect_stdio(
        builder(Arc::clone(&asked)),
        node(),
        &[&everything().display().to_string(), "stdio"],
    )
    .await;
    everything_scenario(client, asked).await;
}

#[tokio::test]
async fn everything_over_http() {
    let server = Served::everything();
    let asked = Arc::default();
    let client = connect_http(builder(Arc::clone(&asked)), &server.url).await;
    everything_scenario(client, asked).await;
}

#[tokio::test]
async fn python_sdk_1x_over_stdio() {
    let asked = Arc::default();
    let client = connect_stdio(
        builder(Arc::clone(&asked)),
        python1(),
        &[&python1_server().display().to_string(), "--stdio"],
    )
    .await;
    python1_scenario(client, asked).await;
}

#[tokio::test]
async fn python_sdk_1x_over_http() {
    let server = Served::python1();
    let asked = Arc::default();
    let client = connect_http(builder(Arc::clone(&asked)), &server.url).await;
    python1_scenario(client, asked).await;
}

/// Connecting with the era pinned to 2026-07-28: the server's refusal, at once.
async fn modern_refusal(
    connect: impl std::future::Future<Output = Result<Client, ClientError>>,
) -> ClientError {
    tokio::time::timeout(CONNECTED_WITHIN, connect)
        .await
        .expect("a refused request fails at once")
        .expect_err("a 2025-11-25 server refuses server/discover")
}

/// Quirk: the TypeScript SDK 1.x answers a request outside a session with HTTP 400 and
/// `"id": null`, which names no request.
#[tokio::test]
async fn typescript_sdk_1x_refuses_discover_over_http_with_a_null_id() {
    let server = Served::everything();
    let error = modern_refusal(
        Client::builder()
            .era(EraChoice::Modern)
            .connect_http(&server.url),
    )
    .await;
    assert_eq!(
        error.to_string(),
        "HTTP 400: Bad Request: Server not initialized (-32000)"
    );
}

/// Quirk: the Python SDK 1.x answers a request outside a session with HTTP 400, the id
/// `"server-error"`, and a fresh `Mcp-Session-Id` that it forgets at once (the client must not
/// keep it for `initialize`).
#[tokio::test]
async fn python_sdk_1x_refuses_discover_over_http_with_a_string_id_and_a_session_it_forgets() {
    let server = Served::python1();
    let error = modern_refusal(
        Client::builder()
            .era(EraChoice::Modern)
            .connect_http(&server.url),
    )
    .await;
    assert_eq!(
        error.to_string(),
        "HTTP 400: Bad Request: Missing session ID (-32600)"
    );
    // Auto on the same server then opens a session of its own.
    let client = connect_http(Client::builder(), &server.url).await;
    assert_eq!(client.era(), Era::Legacy);
    client.ping().await.unwrap();
}

/// Quirk: over stdio the Python SDK 1.x answers `server/discover` with `-32602` (its request
/// union fails to validate), not `-32601`; `Auto` takes that as a refusal too.
#[tokio::test]
async fn python_sdk_1x_answers_discover_over_stdio_with_invalid_params() {
    let server = StdioServer::new(python1())
        .arg(python1_server())
        .arg("--stdio");
    let error = modern_refusal(
        Client::builder()
            .era(EraChoice::Modern)
            .connect_stdio(server),
    )
    .await;
    assert_eq!(error.rpc_code(), Some(-32602), "{error}");
}

/// Quirk: the everything server asks for the client's roots by itself, a moment after
/// `notifications/initialized`, without any tool call.
#[tokio::test]
async fn everything_asks_for_roots_by_itself_after_initialized() {
    let asked: Arc<Mutex<Asked>> = Arc::default();
    let client = connect_stdio(
        builder(Arc::clone(&asked)),
        node(),
        &[&everything().display().to_string(), "stdio"],
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while asked.lock().unwrap().roots == 0 {
        assert!(
            Instant::now() < deadline,
            "the server never asked for roots"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    client.close().await;
}
