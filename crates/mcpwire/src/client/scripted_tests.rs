//! The client against a scripted server: what goes on the wire in the `input_required` loop
//! (a new id each round, `requestState` echoed byte for byte and never carried into another
//! call, the round cap, a result without `resultType`), the `-32022` retry, and the `Auto`
//! fallback.

use super::transport::{BoxFuture, Kind, Outgoing, Sent, Transport};
use super::{Client, ClientError, EraChoice};
use crate::protocol::{ElicitAction, ElicitResult, Era};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

type Script = Box<dyn Fn(&Value) -> Option<String> + Send + Sync>;

/// Answers each request with the script's line; records every message and its headers.
struct Scripted {
    script: Script,
    inbox: super::transport::InboxSender,
    sent: Recorded,
    bodies: Arc<Mutex<Vec<String>>>,
}

impl Transport for Scripted {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Sent, ClientError>> {
        let value: Value = serde_json::from_str(&message.body).unwrap();
        self.sent
            .lock()
            .unwrap()
            .push((value.clone(), message.headers));
        self.bodies.lock().unwrap().push(message.body);
        if message.kind == Kind::Request
            && let Some(lines) = (self.script)(&value)
        {
            for line in lines.split('\n') {
                let _ = self.inbox.try_send(line.to_owned().into());
            }
        }
        Box::pin(async { Ok(Sent::Nothing) })
    }
}

type Recorded = Arc<Mutex<Vec<(Value, Vec<(String, String)>)>>>;

thread_local! {
    /// The raw bodies the current test's client wrote (tests run on their own threads).
    static BODIES: Arc<Mutex<Vec<String>>> = Arc::default();
}

async fn connect(
    era: EraChoice,
    max_rounds: u32,
    script: impl Fn(&Value) -> Option<Value> + Send + Sync + 'static,
) -> (Result<Client, ClientError>, Recorded) {
    let (inbox, incoming) = super::transport::inbox();
    let sent: Recorded = Arc::default();
    let transport = Scripted {
        script: Box::new(move |request| {
            let result = script(request)?;
            let id = request["id"].clone();
            if let Some(Value::Array(raw)) = result.get("@lines") {
                // Messages of the server's own, sent as they are.
                let lines: Vec<String> = raw.iter().map(Value::to_string).collect();
                return Some(lines.join("\n"));
            }
            let message = match result.get("error") {
                Some(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
                None => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            };
            // The server's own bytes for the state, escapes and all.
            Some(message.to_string().replace(r#""@STATE@""#, STATE))
        }),
        inbox,
        sent: sent.clone(),
        bodies: BODIES.with(|b| b.clone()),
    };
    let client = Client::builder()
        .max_rounds(max_rounds)
        .on_form_elicitation(|_| async {
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"confirm": true}).as_object().cloned(),
            }
        })
        .open(Box::new(transport), incoming, era)
        .await;
    (client, sent)
}

fn discover_result() -> Value {
    json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
           "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "scripted", "version": "1"}}})
}

fn calls(sent: &Recorded, method: &str) -> Vec<Value> {
    sent.lock()
        .unwrap()
        .iter()
        .filter(|(m, _)| m["method"] == method)
        .map(|(m, _)| m.clone())
        .collect()
}

/// A state with escapes a re-serializer would rewrite.
const STATE: &str = r#""st\u00e9\/1""#;

fn asking(round: u64) -> Value {
    json!({"resultType": "input_required", "requestState": "@STATE@",
           "inputRequests": {"confirm": {"method": "elicitation/create", "params": {
               "mode": "form", "message": format!("round {round}"),
               "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}}}}})
}

fn mrtr_script(request: &Value) -> Option<Value> {
    Some(match request["method"].as_str()? {
        "server/discover" => discover_result(),
        "tools/call" if request["params"]["name"] == "twice" => {
            match request["params"].get("inputResponses") {
                None => asking(1),
                Some(_) => json!({"content": [{"type": "text", "text": "done"}]}),
            }
        }
        "tools/call" if request["params"]["name"] == "forever" => asking(0),
        "tools/call" => json!({"content": [{"type": "text", "text": "plain"}]}),
        _ => json!({"error": {"code": -32601, "message": "no"}}),
    })
}

#[tokio::test]
async fn each_round_has_a_new_id_and_echoes_the_state_exactly() {
    let (client, sent) = connect(EraChoice::Modern, 10, mrtr_script).await;
    let client = client.unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(client.server().info.unwrap().name, "scripted");
    let result = client.call_tool("twice", json!({})).await.unwrap();
    assert_eq!(result.content[0], crate::protocol::Content::text("done"));
    let rounds = calls(&sent, "tools/call");
    assert_eq!(rounds.len(), 2);
    assert_ne!(rounds[0]["id"], rounds[1]["id"]);
    assert!(rounds[0]["params"].get("requestState").is_none());
    assert_eq!(
        rounds[1]["params"]["inputResponses"]["confirm"],
        json!({"action": "accept", "content": {"confirm": true}})
    );
    // Byte for byte: the retry's body carries the server's own escapes.
    let bodies = BODIES.with(|b| b.lock().unwrap().clone());
    let echoed = format!(r#""requestState":{STATE}"#);
    assert_eq!(
        bodies.iter().filter(|b| b.contains(&echoed)).count(),
        1,
        "{bodies:?}"
    );
    // The next call carries neither state nor responses.
    client.call_tool("other", json!({})).await.unwrap();
    let last = calls(&sent, "tools/call").pop().unwrap();
    assert!(last["params"].get("requestState").is_none());
    assert!(last["params"].get("inputResponses").is_none());
}

#[tokio::test]
async fn the_round_cap_ends_a_call_that_keeps_asking() {
    let (client, sent) = connect(EraChoice::Modern, 3, mrtr_script).await;
    let error = client
        .unwrap()
        .call_tool("forever", json!({}))
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::TooManyRounds(3)), "{error}");
    assert_eq!(calls(&sent, "tools/call").len(), 4);
}

#[tokio::test]
async fn the_default_round_cap_is_ten() {
    let (inbox, incoming) = super::transport::inbox();
    let sent: Recorded = Arc::default();
    let transport = Scripted {
        script: Box::new(|request| {
            let result = mrtr_script(request)?;
            let line = json!({"jsonrpc": "2.0", "id": request["id"], "result": result}).to_string();
            Some(line.replace(r#""@STATE@""#, STATE))
        }),
        inbox,
        sent: sent.clone(),
        bodies: Arc::default(),
    };
    let client = Client::builder()
        .on_form_elicitation(|_| async {
            ElicitResult {
                action: ElicitAction::Cancel,
                content: None,
            }
        })
        .open(Box::new(transport), incoming, EraChoice::Modern)
        .await
        .unwrap();
    let error = client.call_tool("forever", json!({})).await.unwrap_err();
    assert!(matches!(error, ClientError::TooManyRounds(10)), "{error}");
    let rounds = calls(&sent, "tools/call");
    assert_eq!(rounds.len(), 11);
    let mut ids: Vec<_> = rounds.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    ids.dedup();
    assert_eq!(ids.len(), 11, "every round has its own id");
}

#[tokio::test]
async fn a_result_without_result_type_is_complete() {
    let (client, sent) = connect(EraChoice::Modern, 10, mrtr_script).await;
    let result = client.unwrap().call_tool("plain", json!({})).await.unwrap();
    assert_eq!(result.content[0], crate::protocol::Content::text("plain"));
    assert_eq!(calls(&sent, "tools/call").len(), 1);
}

#[tokio::test]
async fn modern_requests_carry_meta_and_headers() {
    let (client, sent) = connect(EraChoice::Modern, 10, mrtr_script).await;
    client
        .unwrap()
        .call_tool("plain", json!({"a": 1}))
        .await
        .unwrap();
    let (call, headers) = sent.lock().unwrap().last().cloned().unwrap();
    let meta = &call["params"]["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"],
        json!({"elicitation": {"form": {}}})
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"]["name"],
        "mcpwire-client"
    );
    assert!(headers.contains(&("Mcp-Method".into(), "tools/call".into())));
    assert!(headers.contains(&("Mcp-Name".into(), "plain".into())));
}

#[tokio::test]
async fn unsupported_version_is_retried_with_one_from_supported() {
    let first = Arc::new(Mutex::new(true));
    let (client, sent) = connect(EraChoice::Auto, 10, move |request| {
        if request["method"] != "server/discover" {
            return Some(json!({}));
        }
        let mut first = first.lock().unwrap();
        if std::mem::take(&mut *first) {
            return Some(
                json!({"error": {"code": -32022, "message": "Unsupported protocol version",
                "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}}),
            );
        }
        Some(discover_result())
    })
    .await;
    assert_eq!(client.unwrap().era(), Era::Modern);
    assert_eq!(calls(&sent, "server/discover").len(), 2);
    assert!(calls(&sent, "initialize").is_empty());
}

#[tokio::test]
async fn auto_falls_back_to_initialize_when_discover_is_unknown() {
    let (client, sent) = connect(EraChoice::Auto, 10, |request| {
        Some(match request["method"].as_str()? {
            "initialize" => json!({"protocolVersion": "2025-06-18", "capabilities": {},
                                   "serverInfo": {"name": "old", "version": "0"}}),
            "ping" => json!({}),
            _ => json!({"error": {"code": -32601, "message": "Method not found"}}),
        })
    })
    .await;
    let client = client.unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().protocol_version, "2025-06-18");
    client.ping().await.unwrap();
    let initialized = calls(&sent, "notifications/initialized");
    assert_eq!(initialized.len(), 1);
    let init = &calls(&sent, "initialize")[0];
    assert_eq!(
        init["params"]["capabilities"],
        json!({"elicitation": {"form": {}}})
    );
    assert!(calls(&sent, "ping")[0]["params"].get("_meta").is_none());
}

#[tokio::test]
async fn a_modern_only_client_does_not_fall_back() {
    let (client, sent) = connect(EraChoice::Modern, 10, |_| {
        Some(json!({"error": {"code": -32601, "message": "Method not found"}}))
    })
    .await;
    assert_eq!(client.err().unwrap().rpc_code(), Some(-32601));
    assert!(calls(&sent, "initialize").is_empty());
}

fn silent_on_slow(request: &Value) -> Option<Value> {
    match request["params"]["name"].as_str() {
        Some("slow") => None,
        _ => mrtr_script(request),
    }
}

#[tokio::test]
async fn dropping_a_call_cancels_it_on_the_server() {
    let (client, sent) = connect(EraChoice::Modern, 10, silent_on_slow).await;
    let client = client.unwrap();
    let call = client.call_tool("slow", json!({}));
    assert!(
        tokio::time::timeout(std::time::Duration::from_millis(50), call)
            .await
            .is_err()
    );
    tokio::task::yield_now().await;
    let id = calls(&sent, "tools/call")[0]["id"].clone();
    let cancelled = calls(&sent, "notifications/cancelled");
    assert_eq!(cancelled.len(), 1);
    assert_eq!(cancelled[0]["params"]["requestId"], id);
    let headers = sent.lock().unwrap().last().unwrap().1.clone();
    assert!(headers.contains(&("Mcp-Method".into(), "notifications/cancelled".into())));
    // The connection goes on.
    client.call_tool("plain", json!({})).await.unwrap();
}

#[tokio::test]
async fn a_silent_server_times_out_and_is_told_so() {
    let (client, sent) = connect(EraChoice::Modern, 10, silent_on_slow).await;
    let options = super::CallOptions::new().timeout(std::time::Duration::from_millis(30));
    let error = client
        .unwrap()
        .call_tool_with("slow", json!({}), options)
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Timeout(_)), "{error}");
    tokio::task::yield_now().await;
    assert_eq!(calls(&sent, "notifications/cancelled").len(), 1);
}

#[tokio::test]
async fn tools_with_invalid_header_annotations_are_dropped() {
    let (client, _) = connect(EraChoice::Modern, 10, |request| {
        if request["method"] == "server/discover" {
            return Some(discover_result());
        }
        let tool = |name: &str, property: Value| {
            json!({"name": name, "inputSchema": {"type": "object", "properties": {"p": property},
                   "$defs": {"x": {"type": "string"}}, "additionalProperties": false}})
        };
        Some(json!({"tools": [
            tool("valid", json!({"type": "string", "x-mcp-header": "Region"})),
            tool("empty", json!({"type": "string", "x-mcp-header": ""})),
            tool("space", json!({"type": "string", "x-mcp-header": "Bad Name"})),
            tool("colon", json!({"type": "string", "x-mcp-header": "a:b"})),
            tool("object", json!({"type": "object", "x-mcp-header": "Obj"})),
            tool("number", json!({"type": "number", "x-mcp-header": "Num"})),
            tool("accent", json!({"type": "string", "x-mcp-header": "Café"})),
        ]}))
    })
    .await;
    let tools = client.unwrap().list_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "valid");
    // The schema is kept as sent, keywords and all.
    assert_eq!(tools[0].input_schema["$defs"]["x"]["type"], "string");
    assert_eq!(tools[0].input_schema["additionalProperties"], false);
}

#[tokio::test]
async fn listings_follow_cursors_up_to_the_page_cap() {
    let script = |request: &Value| {
        if request["method"] == "server/discover" {
            return Some(discover_result());
        }
        // An empty cursor is a cursor; "3" is the last page.
        let next = match request["params"].get("cursor").and_then(Value::as_str) {
            None => json!(""),
            Some("") => json!("2"),
            Some("2") => json!("3"),
            _ => Value::Null,
        };
        let page = request["params"]
            .get("cursor")
            .cloned()
            .unwrap_or(json!("first"));
        let mut result = json!({"prompts": [{"name": format!("p{}", page.as_str().unwrap())}]});
        if !next.is_null() {
            result["nextCursor"] = next;
        }
        Some(result)
    };
    let (client, _) = connect(EraChoice::Modern, 10, script).await;
    let prompts = client.unwrap().list_prompts().await.unwrap();
    let names: Vec<_> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["pfirst", "p", "p2", "p3"]);
    let (inbox, incoming) = super::transport::inbox();
    let transport = Scripted {
        script: Box::new(move |request| {
            let result = script(request)?;
            Some(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}).to_string())
        }),
        inbox,
        sent: Recorded::default(),
        bodies: Arc::default(),
    };
    let capped = Client::builder()
        .max_pages(3)
        .open(Box::new(transport), incoming, EraChoice::Modern)
        .await
        .unwrap();
    let error = capped.list_prompts().await.unwrap_err();
    assert!(matches!(error, ClientError::TooManyPages(3)), "{error}");
}

#[tokio::test]
async fn unsupported_version_falls_back_only_to_a_shared_session_revision() {
    let rejecting = |supported: Value| {
        move |request: &Value| {
            Some(match request["method"].as_str()? {
                "server/discover" => json!({"error": {"code": -32022, "message": "Unsupported",
                    "data": {"supported": supported.clone(), "requested": "2026-07-28"}}}),
                "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
                _ => json!({}),
            })
        }
    };
    let (legacy, _) = connect(EraChoice::Auto, 10, rejecting(json!(["2025-11-25"]))).await;
    assert_eq!(legacy.unwrap().era(), Era::Legacy);
    let (newer, sent) = connect(EraChoice::Auto, 10, rejecting(json!(["2027-01-01"]))).await;
    assert_eq!(newer.err().unwrap().rpc_code(), Some(-32022));
    assert!(calls(&sent, "initialize").is_empty());
}

#[tokio::test]
async fn a_question_the_server_cancels_is_never_answered() {
    let handler_ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (inbox, incoming) = super::transport::inbox();
    let sent: Recorded = Arc::default();
    let transport = Scripted {
        script: Box::new(|request| {
            let id = request["id"].clone();
            let result = match request["method"].as_str()? {
                "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
                "tools/call" => {
                    let ask = json!({"jsonrpc": "2.0", "id": "s-1", "method": "elicitation/create",
                        "params": {"message": "Sure?", "requestedSchema": {"type": "object"}}});
                    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": "s-1"}});
                    return Some(format!("{ask}\n{cancel}"));
                }
                _ => json!({}),
            };
            Some(json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string())
        }),
        inbox,
        sent: sent.clone(),
        bodies: Arc::default(),
    };
    let ran = handler_ran.clone();
    let client = Client::builder()
        .on_form_elicitation(move |_| {
            let ran = ran.clone();
            async move {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                ran.store(true, std::sync::atomic::Ordering::SeqCst);
                ElicitResult {
                    action: ElicitAction::Decline,
                    content: None,
                }
            }
        })
        .open(Box::new(transport), incoming, EraChoice::Legacy)
        .await
        .unwrap();
    let call = client.call_tool("ask", json!({}));
    let _ = tokio::time::timeout(std::time::Duration::from_millis(300), call).await;
    assert!(!handler_ran.load(std::sync::atomic::Ordering::SeqCst));
    let answered = sent.lock().unwrap().iter().any(|(m, _)| m["id"] == "s-1");
    assert!(!answered, "a cancelled question was answered");
}

#[tokio::test]
async fn a_timed_out_initialize_is_not_cancelled() {
    let (inbox, incoming) = super::transport::inbox();
    let sent: Recorded = Arc::default();
    let transport = Scripted {
        script: Box::new(|_| None),
        inbox,
        sent: sent.clone(),
        bodies: Arc::default(),
    };
    let error = Client::builder()
        .timeout(std::time::Duration::from_millis(30))
        .open(Box::new(transport), incoming, EraChoice::Legacy)
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Timeout(_)), "{error}");
    tokio::task::yield_now().await;
    assert_eq!(calls(&sent, "initialize").len(), 1);
    assert!(calls(&sent, "notifications/cancelled").is_empty());
}

#[tokio::test]
async fn root_changes_are_announced_on_2025_11_25_only() {
    let legacy_script = |request: &Value| {
        Some(match request["method"].as_str()? {
            "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
            _ => json!({}),
        })
    };
    let (inbox, incoming) = super::transport::inbox();
    let sent: Recorded = Arc::default();
    let transport = Scripted {
        script: Box::new(move |request| {
            let result = legacy_script(request)?;
            Some(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}).to_string())
        }),
        inbox,
        sent: sent.clone(),
        bodies: Arc::default(),
    };
    let client = Client::builder()
        .on_roots(|| async { crate::protocol::ListRootsResult { roots: Vec::new() } })
        .open(Box::new(transport), incoming, EraChoice::Legacy)
        .await
        .unwrap();
    let init = &calls(&sent, "initialize")[0];
    assert_eq!(
        init["params"]["capabilities"]["roots"],
        json!({"listChanged": true})
    );
    client.notify_roots_changed().await.unwrap();
    assert_eq!(calls(&sent, "notifications/roots/list_changed").len(), 1);

    let (modern, sent) = connect(EraChoice::Modern, 10, mrtr_script).await;
    let modern = modern.unwrap();
    assert!(matches!(
        modern.notify_roots_changed().await,
        Err(ClientError::Unsupported(_))
    ));
    assert!(calls(&sent, "notifications/roots/list_changed").is_empty());
}

#[tokio::test]
async fn auto_does_not_take_an_empty_discover_result_for_a_modern_server() {
    // Like the conformance suite's raw `initialize` mock: any other method gets `{}`.
    let (client, sent) = connect(EraChoice::Auto, 10, |request| {
        Some(match request["method"].as_str()? {
            "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {},
                                   "serverInfo": {"name": "raw", "version": "1"}}),
            _ => json!({}),
        })
    })
    .await;
    assert_eq!(client.unwrap().era(), Era::Legacy);
    assert_eq!(calls(&sent, "initialize").len(), 1);
}
