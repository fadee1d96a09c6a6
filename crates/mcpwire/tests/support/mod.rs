//! The one support module of the crate's tests: helpers for driving a server in memory with the
//! crate's own `Client` (on either revision) or with raw JSON-RPC lines (where the wire is what
//! a test asserts) here, and beside them `http` (a server on an ephemeral port, raw requests of both
//! revisions), `redis` (a `redis-server` child), `tasks` (a raw client of the tasks extension),
//! `fleet` (two replicas on one Redis), `otel` (an OTLP receiver) and `skills` (skill files
//! read back against their digests).

#![allow(dead_code)]

pub mod fleet;
pub mod http;
pub mod otel;
pub mod redis;
pub mod skills;
pub mod tasks;

use mcpwire::McpServer;
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::protocol::{CallToolResult, Content, ErrorObject};
use mcpwire::transport::MemoryClient;
use serde_json::{Value, json};
use std::time::Duration;

/// Both protocol revisions, for a test that runs on each: 2025-11-25, then 2026-07-28.
pub const ERAS: [EraChoice; 2] = [EraChoice::Legacy, EraChoice::Modern];

/// The crate's own client of `server`, started in memory, speaking `era`; a call fails after
/// 10 s without an answer, as [`next`] does.
pub async fn client(server: McpServer, era: EraChoice) -> Client {
    Client::builder()
        .timeout(Duration::from_secs(10))
        .era(era)
        .connect_memory(server)
        .await
        .unwrap_or_else(|error| panic!("{era:?}: the client connects: {error}"))
}

/// `value` as JSON, to compare what the client decoded with the JSON the protocol defines.
pub fn as_json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("serializes")
}

/// The text of a tool result's first content block.
pub fn first_text(result: &CallToolResult) -> &str {
    match result.content.first() {
        Some(Content::Text { text, .. }) => text,
        other => panic!("not a text block: {other:?} in {result:?}"),
    }
}

/// The JSON-RPC error a call failed with (anything else fails the test).
pub fn rpc_error<T: std::fmt::Debug>(outcome: Result<T, ClientError>) -> ErrorObject {
    match outcome {
        Err(ClientError::Rpc(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// `_meta` of a 2026-07-28 request with the given client capabilities.
pub fn modern_meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

/// A `tools/call` request line (legacy: no `_meta`).
pub fn call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":tool,"arguments":arguments}})
        .to_string()
}

/// A `tools/call` request line of the 2026-07-28 revision.
pub fn modern_call(id: u64, tool: &str, arguments: Value, meta: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
           "params":{"name":tool,"arguments":arguments,"_meta":meta}})
    .to_string()
}

/// Starts `server` in memory.
pub async fn connect(server: McpServer) -> MemoryClient {
    server.serve_memory().await.expect("server starts")
}

/// The next message, parsed; fails the test after 10 s.
pub async fn next(client: &mut MemoryClient) -> Value {
    let line = tokio::time::timeout(Duration::from_secs(10), client.recv())
        .await
        .expect("the server answered within 10 s")
        .expect("the server is still connected");
    serde_json::from_str(&line).expect("the server writes JSON")
}

/// Sends `line` and returns the next message.
pub async fn exchange(client: &mut MemoryClient, line: String) -> Value {
    client.send(line);
    next(client).await
}

/// The text of the first content block of a `tools/call` response.
pub fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .expect("a text block")
}

/// Whether a `tools/call` response is an `isError` result.
pub fn is_error(response: &Value) -> bool {
    response["result"]["isError"] == json!(true)
}

/// A 2026-07-28 `tools/call` that carries `inputResponses` and `requestState` from a previous
/// round.
pub fn retry_call(
    id: u64,
    tool: &str,
    arguments: Value,
    capabilities: Value,
    responses: Value,
    state: &str,
) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{
        "name":tool,"arguments":arguments,"inputResponses":responses,"requestState":state,
        "_meta":modern_meta(capabilities)}})
    .to_string()
}

/// The `requestState` of an `input_required` response.
pub fn request_state(response: &Value) -> String {
    assert_eq!(
        response["result"]["resultType"], "input_required",
        "{response}"
    );
    response["result"]["requestState"]
        .as_str()
        .expect("a requestState")
        .to_owned()
}

/// The keys of an `input_required` response's `inputRequests`, sorted.
pub fn asked_keys(response: &Value) -> Vec<String> {
    let requests = response["result"]["inputRequests"]
        .as_object()
        .expect("inputRequests");
    let mut keys: Vec<String> = requests.keys().cloned().collect();
    keys.sort();
    keys
}

/// What `tracing` logs on this thread (INFO and above, no colours) while it lives.
pub struct Logs {
    bytes: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    _default: tracing::subscriber::DefaultGuard,
}

impl Logs {
    /// Starts capturing.
    pub fn capture() -> Self {
        #[derive(Clone, Default)]
        struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Sink {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        let bytes = sink.0.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .finish();
        Logs {
            bytes,
            _default: tracing::subscriber::set_default(subscriber),
        }
    }

    /// Everything logged so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes.lock().unwrap()).into_owned()
    }
}
