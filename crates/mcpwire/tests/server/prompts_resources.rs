//! Prompts and resources: listing, rendering and reading on both revisions (through the crate's
//! own client), with resolvers and questions (the spec allows `input_required` on `prompts/get`
//! and `resources/read`; those rounds, and the sealed state bound to a prompt's arguments, are
//! asserted on the wire, in raw JSON-RPC lines).

use crate::support;
use mcpwire::client::EraChoice;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{ERAS, as_json, client, connect, exchange, modern_meta, request_state, rpc_error};

fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}).to_string()
}

fn modern(id: u64, method: &str, mut params: Value, capabilities: Value) -> String {
    params["_meta"] = modern_meta(capabilities);
    request(id, method, params)
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Tone {
    /// How the summary should sound.
    tone: String,
}

#[resolver]
async fn ask_tone(topic: String) -> Elicit<Tone> {
    Elicit::ask(format!("Which tone for a summary of {topic}?"))
}

/// Summarizes a topic.
#[prompt(title = "Summary")]
async fn summarize(
    /// What to summarize.
    topic: String,
    /// Who reads it.
    audience: Option<String>,
    #[resolve(ask_tone)] tone: Tone,
) -> String {
    let audience = audience.unwrap_or_else(|| "everyone".into());
    format!("Summarize {topic} for {audience}, in a {} tone.", tone.tone)
}

/// A plain greeting.
#[prompt]
async fn greeting(name: String) -> String {
    format!("Say hello to {name}.")
}

/// The shop's opening hours.
#[resource(uri = "shop://hours", mime_type = "text/plain")]
async fn hours() -> String {
    "9-18".into()
}

/// The shop's logo.
#[resource(uri = "shop://logo.png", mime_type = "image/png")]
async fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[resolver]
async fn stock_of(id: String) -> Result<u32, String> {
    id.parse::<u32>()
        .map(|n| n * 2)
        .map_err(|_| format!("no book '{id}'"))
}

/// One book's stock.
#[resource(uri = "shop://books/{id}/stock", mime_type = "application/json")]
async fn book_stock(id: String, #[resolve(stock_of)] copies: u32) -> String {
    json!({"id": id, "copies": copies}).to_string()
}

#[resolver]
async fn ask_pin() -> Elicit<Tone> {
    Elicit::ask("Which tone for the vault?")
}

/// A resource that asks before it can be read.
#[resource(uri = "shop://vault")]
async fn vault(#[resolve(ask_pin)] tone: Tone) -> String {
    format!("opened in a {} tone", tone.tone)
}

fn server() -> McpServer {
    McpServer::new("shop")
        .prompt(summarize)
        .and_then(|s| s.prompt(greeting))
        .and_then(|s| s.resource(hours))
        .and_then(|s| s.resource(logo))
        .and_then(|s| s.resource(book_stock))
        .and_then(|s| s.resource(vault))
        .unwrap()
}

#[tokio::test]
async fn prompts_are_listed_with_their_arguments_and_rendered() {
    for era in ERAS {
        let client = client(server(), era).await;
        let prompts = client.list_prompts().await.unwrap();
        assert_eq!(
            as_json(&prompts[0]),
            json!({"name": "summarize", "title": "Summary", "description": "Summarizes a topic.",
                   "arguments": [
                       {"name": "audience", "description": "Who reads it.", "required": false},
                       {"name": "topic", "description": "What to summarize.", "required": true}]}),
            "{era:?}"
        );
        let plain = client
            .get_prompt("greeting", [("name", "Ada")])
            .await
            .unwrap();
        assert_eq!(
            as_json(&plain),
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Say hello to Ada."}}]}),
            "{era:?}"
        );
        let missing = rpc_error(client.get_prompt("greeting", NO_ARGUMENTS).await);
        assert_eq!(missing.code, -32602, "{era:?}");
        assert_eq!(
            missing.message,
            "Invalid arguments for prompt greeting: invalid arguments: missing field `name`",
            "{era:?}"
        );
        let unknown = rpc_error(client.get_prompt("nope", NO_ARGUMENTS).await);
        assert_eq!(
            as_json(&unknown),
            json!({"code": -32602, "message": "Unknown prompt: nope"}),
            "{era:?}"
        );
    }
}

/// A prompt's arguments when it is given none.
const NO_ARGUMENTS: [(&str, &str); 0] = [];

#[tokio::test]
async fn a_prompt_resolver_asks_in_a_round_on_2026_07_28_and_in_a_request_on_2025_11_25() {
    let mut client = connect(server()).await;
    let form = json!({"elicitation": {}});
    let params = json!({"name": "summarize", "arguments": {"topic": "Dune"}});
    let round1 = exchange(
        &mut client,
        modern(1, "prompts/get", params.clone(), form.clone()),
    )
    .await;
    assert_eq!(
        round1["result"]["inputRequests"]["server::prompts_resources::ask_tone"]["params"]["message"],
        "Which tone for a summary of Dune?"
    );
    let mut retry = params.clone();
    retry["inputResponses"] = json!({"server::prompts_resources::ask_tone": {"action": "accept", "content": {"tone": "dry"}}});
    retry["requestState"] = json!(request_state(&round1));
    let done = exchange(
        &mut client,
        modern(2, "prompts/get", retry.clone(), form.clone()),
    )
    .await;
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(
        done["result"]["messages"][0]["content"]["text"],
        "Summarize Dune for everyone, in a dry tone."
    );

    // The state is bound to the prompt's arguments.
    let mut replayed = retry;
    replayed["arguments"] = json!({"topic": "Neuromancer"});
    let refused = exchange(&mut client, modern(3, "prompts/get", replayed, form)).await;
    assert_eq!(
        refused["error"]["message"],
        "Invalid or expired requestState"
    );

    let init = json!({"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}});
    exchange(&mut client, request(4, "initialize", init)).await;
    client.send(request(5, "prompts/get", params));
    let question = support::next(&mut client).await;
    assert_eq!(question["method"], "elicitation/create");
    let answer = json!({"jsonrpc":"2.0","id":question["id"],"result":{"action":"accept","content":{"tone":"warm"}}});
    let done = exchange(&mut client, answer.to_string()).await;
    assert_eq!(
        done["result"]["messages"][0]["content"]["text"],
        "Summarize Dune for everyone, in a warm tone."
    );
}

#[tokio::test]
async fn resources_and_templates_are_listed_and_read() {
    for era in ERAS {
        let client = client(server(), era).await;
        let resources = client.list_resources().await.unwrap();
        assert_eq!(
            as_json(&resources[0]),
            json!({"uri": "shop://hours", "name": "hours", "description": "The shop's opening hours.", "mimeType": "text/plain"}),
            "{era:?}"
        );
        let templates = client.list_resource_templates().await.unwrap();
        assert_eq!(
            templates[0].uri_template, "shop://books/{id}/stock",
            "{era:?}"
        );

        let text = client.read_resource("shop://hours").await.unwrap();
        assert_eq!(
            as_json(&text),
            json!({"contents": [{"uri": "shop://hours", "mimeType": "text/plain", "text": "9-18"}]}),
            "{era:?}"
        );
        let blob = client.read_resource("shop://logo.png").await.unwrap();
        assert_eq!(as_json(&blob)["contents"][0]["blob"], "iVBORw==", "{era:?}");
        let templated = client.read_resource("shop://books/21/stock").await.unwrap();
        let templated = as_json(&templated);
        assert_eq!(
            templated["contents"][0]["text"], r#"{"copies":42,"id":"21"}"#,
            "{era:?}"
        );
        assert_eq!(
            templated["contents"][0]["uri"], "shop://books/21/stock",
            "{era:?}"
        );

        let failing = rpc_error(client.read_resource("shop://books/x/stock").await);
        assert_eq!(
            failing.message, "Error reading resource shop://books/x/stock: no book 'x'",
            "{era:?}"
        );

        let missing = rpc_error(client.read_resource("shop://nope").await);
        if era == EraChoice::Legacy {
            assert_eq!(
                as_json(&missing),
                json!({"code": -32002, "message": "Resource not found", "data": {"uri": "shop://nope"}})
            );
        } else {
            assert_eq!(missing.code, -32602, "{era:?}");
        }
    }
    // A resource that declares no cache hints is not cached (2026-07-28; the hints are in the
    // raw result).
    let client = client(server(), EraChoice::Modern).await;
    let read = json!({"uri": "shop://hours"});
    let cached = client.request("resources/read", read).await.unwrap();
    assert_eq!(cached["ttlMs"], 0);
    assert_eq!(cached["cacheScope"], "private");
}

#[tokio::test]
async fn a_resource_can_ask_before_it_is_read() {
    let mut client = connect(server()).await;
    let form = json!({"elicitation": {}});
    let round1 = exchange(
        &mut client,
        modern(
            1,
            "resources/read",
            json!({"uri": "shop://vault"}),
            form.clone(),
        ),
    )
    .await;
    assert_eq!(round1["result"]["resultType"], "input_required");
    assert_eq!(
        round1["result"].get("ttlMs"),
        None,
        "an input_required result is not cacheable"
    );
    let retry = json!({"uri": "shop://vault", "requestState": request_state(&round1),
        "inputResponses": {"server::prompts_resources::ask_pin": {"action": "accept", "content": {"tone": "calm"}}}});
    let done = exchange(&mut client, modern(2, "resources/read", retry, form)).await;
    assert_eq!(
        done["result"]["contents"][0]["text"],
        "opened in a calm tone"
    );
}

/// Has a parameter that is not in its URI.
#[resource(uri = "shop://orders/{id}")]
async fn order(id: String, page: String) -> String {
    format!("{id}{page}")
}

#[test]
fn a_resource_parameter_outside_the_uri_template_fails_at_registration() {
    let error = McpServer::new("t").resource(order).err().unwrap();
    assert_eq!(
        error.message(),
        "resource 'shop://orders/{id}': parameter 'page' is not a variable of the URI template"
    );
}

/// Any note.
#[resource(uri = "notes://{+path}", mime_type = "text/plain")]
async fn any_note(path: String) -> String {
    format!("note {path}")
}

/// An archived note.
#[resource(uri = "notes://archive/{id}", mime_type = "text/plain")]
async fn archived_note(id: String) -> String {
    format!("archived {id}")
}

#[tokio::test]
async fn a_uri_two_templates_match_is_read_by_the_more_specific_one_whatever_their_order() {
    for general_first in [true, false] {
        for era in ERAS {
            let server = McpServer::new("notes");
            let server = if general_first {
                server
                    .resource(any_note)
                    .and_then(|s| s.resource(archived_note))
            } else {
                server
                    .resource(archived_note)
                    .and_then(|s| s.resource(any_note))
            };
            let client = client(server.unwrap(), era).await;
            let case = format!("the general template first: {general_first}, {era:?}");
            let text = |uri: &'static str| {
                let client = &client;
                async move {
                    let read = client.read_resource(uri).await.unwrap();
                    as_json(&read)["contents"][0]["text"].clone()
                }
            };
            assert_eq!(text("notes://archive/7").await, "archived 7", "{case}");
            // A URI only the general template matches still reaches it.
            assert_eq!(
                text("notes://archive/7/draft").await,
                "note archive/7/draft",
                "{case}"
            );
            assert_eq!(text("notes://inbox/1").await, "note inbox/1", "{case}");
        }
    }
}
