//! The client against this crate's own server, in memory, on both eras: listing, calls, typed
//! calls, an elicitation answered by the same handler on both eras, era-specific methods.

use super::{CallOptions, Client, ClientError, EraChoice, Round};
use crate::prelude::*;
use crate::protocol::{ElicitAction, ElicitResult, Era};
use serde_json::json;

/// Adds two numbers.
#[tool(read_only)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Go on?
    confirm: bool,
}

#[resolver]
async fn ask(title: String) -> Elicit<Confirm> {
    Elicit::ask(format!("Order {title}?"))
}

/// Orders after asking.
#[tool]
async fn order(title: String, #[resolve(ask)] answer: Confirm) -> String {
    match answer.confirm {
        true => format!("Ordered {title}."),
        false => "No order placed.".to_owned(),
    }
}

fn server() -> McpServer {
    McpServer::new("memory")
        .tool(add)
        .unwrap()
        .tool(order)
        .unwrap()
}

async fn client(era: EraChoice, confirm: Option<bool>) -> Client {
    let mut builder = Client::builder().era(era);
    if let Some(confirm) = confirm {
        builder = builder.on_form_elicitation(move |question| async move {
            assert_eq!(question.message, "Order Dune?");
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"confirm": confirm}).as_object().cloned(),
            }
        });
    }
    builder.connect_memory(server()).await.unwrap()
}

#[tokio::test]
async fn both_eras_list_call_and_ask() {
    for (choice, era) in [
        (EraChoice::Legacy, Era::Legacy),
        (EraChoice::Modern, Era::Modern),
    ] {
        let client = client(choice, Some(true)).await;
        assert_eq!(client.era(), era);
        assert_eq!(client.server().info.unwrap().name, "memory");
        let names: Vec<_> = client
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["add", "order"]);
        let sum: serde_json::Value = client
            .call_tool_as("add", json!({"a": 2, "b": 3}))
            .await
            .unwrap();
        assert_eq!(sum, json!({"result": 5}));
        let ordered = client
            .call_tool("order", json!({"title": "Dune"}))
            .await
            .unwrap();
        assert_eq!(ordered.content, [Content::text("Ordered Dune.")], "{era:?}");
    }
}

#[tokio::test]
async fn auto_picks_modern_in_memory() {
    let client = client(EraChoice::Auto, Some(false)).await;
    assert_eq!(client.era(), Era::Modern);
    let result = client
        .call_tool("order", json!({"title": "Dune"}))
        .await
        .unwrap();
    assert_eq!(result.content, [Content::text("No order placed.")]);
}

#[tokio::test]
async fn without_a_handler_the_capability_is_missing() {
    let modern = client(EraChoice::Modern, None).await;
    let error = modern
        .call_tool("order", json!({"title": "Dune"}))
        .await
        .unwrap_err();
    assert_eq!(error.rpc_code(), Some(-32021), "{error}");
    let legacy = client(EraChoice::Legacy, None).await;
    let error = legacy
        .call_tool("order", json!({"title": "Dune"}))
        .await
        .unwrap_err();
    assert_eq!(error.rpc_code(), Some(-32021), "{error}");
}

#[tokio::test]
async fn era_specific_methods() {
    let legacy = client(EraChoice::Legacy, None).await;
    legacy.ping().await.unwrap();
    legacy
        .set_logging_level(crate::protocol::LoggingLevel::Info)
        .await
        .unwrap();
    let modern = client(EraChoice::Modern, None).await;
    assert!(matches!(
        modern.ping().await,
        Err(ClientError::Unsupported("ping"))
    ));
    modern
        .set_logging_level(crate::protocol::LoggingLevel::Info)
        .await
        .unwrap();
    legacy.close().await;
    assert!(matches!(legacy.ping().await, Err(ClientError::Closed(_))));
    let typed = modern.call_tool_as::<i64>("add", json!({"a": "x"})).await;
    assert!(
        matches!(typed, Err(ClientError::Tool(_)) | Err(ClientError::Rpc(_))),
        "{typed:?}"
    );
}

#[resolver]
async fn sign_in() -> ElicitUrl {
    ElicitUrl::ask("Sign in to the shop", "https://shop.example/sign-in")
}

/// Needs the user to sign in.
#[tool]
async fn account(#[resolve(sign_in)] consent: UrlConsent) -> String {
    format!("{consent:?}")
}

#[tokio::test]
async fn url_elicitation_on_both_eras() {
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = asked.clone();
        let client = Client::builder()
            .era(era)
            .on_url_elicitation(move |question| {
                record.lock().unwrap().push(question.clone());
                async {
                    ElicitResult {
                        action: ElicitAction::Accept,
                        content: None,
                    }
                }
            })
            .connect_memory(McpServer::new("shop").tool(account).unwrap())
            .await
            .unwrap();
        let mut notes = client.notifications();
        let result = client.call_tool("account", json!({})).await.unwrap();
        assert_ne!(result.is_error, Some(true), "{era:?}: {result:?}");
        let asked = asked.lock().unwrap().clone();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].url, "https://shop.example/sign-in");
        assert_eq!(asked[0].message, "Sign in to the shop");
        match client.era() {
            Era::Legacy => {
                let id = asked[0].elicitation_id.clone().expect("an elicitationId");
                let note = tokio::time::timeout(std::time::Duration::from_secs(5), notes.next())
                    .await
                    .unwrap()
                    .unwrap();
                assert_eq!(note.method, "notifications/elicitation/complete");
                assert_eq!(note.params["elicitationId"], id.as_str());
            }
            Era::Modern => assert_eq!(asked[0].elicitation_id, None),
        }
    }
}

#[tokio::test]
async fn byte_streams_carry_both_eras() {
    for (choice, era) in [
        (EraChoice::Legacy, Era::Legacy),
        (EraChoice::Modern, Era::Modern),
        (EraChoice::Auto, Era::Modern),
    ] {
        let (client_end, server_end) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(server().serve_streams(server_read, server_write));
        let (read, write) = tokio::io::split(client_end);
        let client = Client::builder()
            .era(choice)
            .on_form_elicitation(|_| async {
                ElicitResult {
                    action: ElicitAction::Accept,
                    content: json!({"confirm": true}).as_object().cloned(),
                }
            })
            .connect_streams(read, write)
            .await
            .unwrap();
        assert_eq!(client.era(), era);
        let ordered = client
            .call_tool("order", json!({"title": "Dune"}))
            .await
            .unwrap();
        assert_eq!(ordered.content, [Content::text("Ordered Dune.")], "{era:?}");
        client.close().await;
        assert!(matches!(
            client.call_tool("add", json!({"a": 1, "b": 2})).await,
            Err(ClientError::Closed(_))
        ));
    }
}

/// Reports progress 1 and 2 of 2.
#[tool]
async fn steps(ctx: Context) -> &'static str {
    for step in [1.0, 2.0] {
        ctx.report_progress(step, Some(2.0), None).await;
    }
    "done"
}

#[tokio::test]
async fn request_with_returns_the_raw_result_after_input_rounds_and_reports_progress() {
    for choice in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(choice, Some(true)).await;
        let params = json!({"name": "order", "arguments": {"title": "Dune"}});
        let raw = client
            .request_with("tools/call", params, super::CallOptions::new())
            .await
            .unwrap();
        assert_eq!(raw["content"][0]["text"], "Ordered Dune.", "{choice:?}");
        assert_ne!(raw["resultType"], "input_required", "{choice:?}");

        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = seen.clone();
        let options = super::CallOptions::new()
            .on_progress(move |p| record.lock().unwrap().push((p.progress, p.total)));
        let server = McpServer::new("steps").tool(steps).unwrap();
        let client = Client::builder()
            .era(choice)
            .connect_memory(server)
            .await
            .unwrap();
        let raw = client
            .request_with(
                "tools/call",
                json!({"name": "steps", "arguments": {}}),
                options,
            )
            .await
            .unwrap();
        assert_eq!(raw["content"][0]["text"], "done", "{choice:?}");
        assert_eq!(
            *seen.lock().unwrap(),
            [(1.0, Some(2.0)), (2.0, Some(2.0))],
            "{choice:?}"
        );
    }
}

/// The log level of the caller's session, as the server sees it.
#[tool]
async fn session_level(ctx: Context) -> String {
    format!("{:?}", ctx.log_level())
}

#[tokio::test]
async fn lower_logging_level_only_ever_lowers_the_sessions_level() {
    use crate::protocol::LoggingLevel::{Error, Info, Warning};
    let server = || McpServer::new("levels").tool(session_level).unwrap();
    let legacy = Client::builder()
        .era(EraChoice::Legacy)
        .connect_memory(server())
        .await
        .unwrap();
    let level = || async {
        let result = legacy.call_tool("session_level", json!({})).await.unwrap();
        serde_json::to_value(&result.content).unwrap()[0]["text"].clone()
    };
    assert_eq!(level().await, "Some(Debug)", "the server's default");
    legacy.lower_logging_level(Warning).await.unwrap();
    assert_eq!(level().await, "Some(Warning)", "none was asked for yet");
    legacy.lower_logging_level(Error).await.unwrap();
    assert_eq!(level().await, "Some(Warning)", "not raised");
    legacy.lower_logging_level(Info).await.unwrap();
    assert_eq!(level().await, "Some(Info)", "lowered");
    legacy.set_logging_level(Error).await.unwrap();
    legacy.lower_logging_level(Warning).await.unwrap();
    assert_eq!(level().await, "Some(Warning)", "lowered from what was set");
    let modern = Client::builder()
        .era(EraChoice::Modern)
        .connect_memory(server())
        .await
        .unwrap();
    modern.lower_logging_level(Warning).await.unwrap();
    let result = modern.call_tool("session_level", json!({})).await.unwrap();
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
    assert_eq!(text, "None", "2026-07-28: each request names its own level");
}

#[tokio::test]
async fn a_raw_request_leaves_the_result_as_the_server_wrote_it() {
    // It declares form elicitation, as the order's question needs; answered by hand below.
    let client = client(EraChoice::Modern, Some(true)).await;
    let params = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    let raw = client
        .request_raw("tools/call", params, CallOptions::new())
        .await
        .unwrap();
    // The server's bytes, its revision's fields included.
    let text = raw.get();
    assert!(
        text.starts_with(
            r#"{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5},"resultType":"complete""#
        ),
        "{text}"
    );
    // One round at a time: the questions come back read, the final result as written.
    let order = json!({"name": "order", "arguments": {"title": "Dune"}});
    let round = client
        .request_round_raw("tools/call", order, None, CallOptions::new())
        .await
        .unwrap();
    let Round::InputRequired {
        input_requests,
        request_state,
    } = round
    else {
        panic!("the order asks first: {round:?}");
    };
    let key = input_requests.keys().next().expect("one question").clone();
    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let retry = json!({
        "name": "order",
        "arguments": {"title": "Dune"},
        "inputResponses": {key: answer},
    });
    let round = client
        .request_round_raw(
            "tools/call",
            retry,
            request_state.as_deref(),
            CallOptions::new(),
        )
        .await
        .unwrap();
    let Round::Complete(raw) = round else {
        panic!("answered, the order completes: {round:?}");
    };
    assert!(raw.get().contains("Ordered Dune."), "{}", raw.get());
    assert!(raw.get().contains(r#""resultType":"complete""#));
}
