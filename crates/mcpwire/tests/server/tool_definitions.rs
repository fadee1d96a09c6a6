//! What `#[tool]` derives from a function: names, titles, hints, schemas, defaults, optional
//! arguments, structured output, sync bodies, `Result` returns; listed and called on both
//! revisions through the crate's own client.

use crate::support;
use mcpwire::client::{Client, EraChoice};
use mcpwire::prelude::*;
use mcpwire::protocol::{CallToolResult, Tool};
use serde_json::{Value, json};
use support::{ERAS, as_json, first_text, rpc_error};

#[derive(Serialize, JsonSchema)]
struct Quote {
    /// The book.
    title: String,
    /// Price in euro cents.
    cents: u64,
}

/// Quotes a price.
///
/// Prices include VAT.
#[tool(
    name = "price_quote",
    title = "Price quote",
    read_only,
    open_world = false
)]
async fn quote(
    /// The book's title.
    title: String,
    /// How many copies.
    #[arg(default = 1)]
    copies: u32,
    #[arg(rename = "giftWrap", default)] gift_wrap: bool,
    /// A discount code, if any.
    code: Option<String>,
) -> Quote {
    let base = if code.is_some() { 900 } else { 1000 };
    Quote {
        title,
        cents: base * u64::from(copies) + if gift_wrap { 150 } else { 0 },
    }
}

/// Divides.
#[tool]
fn divide(a: i64, b: i64) -> Result<i64, String> {
    if b == 0 {
        Err("division by zero".into())
    } else {
        Ok(a / b)
    }
}

/// Lists things.
#[tool]
async fn listing() -> Vec<String> {
    vec!["a".into(), "b".into()]
}

/// Says what went wrong.
#[tool]
async fn text_or_error(fail: bool) -> Result<String, std::io::Error> {
    if fail {
        Err(std::io::Error::other("disk on fire"))
    } else {
        Ok("fine".into())
    }
}

async fn tools(era: EraChoice) -> (Client, Vec<Tool>) {
    let server = McpServer::new("t")
        .tool(quote)
        .and_then(|s| s.tool(divide))
        .and_then(|s| s.tool(listing))
        .and_then(|s| s.tool(text_or_error))
        .unwrap();
    let client = support::client(server, era).await;
    let tools = client.list_tools().await.unwrap();
    (client, tools)
}

/// Calls `tool` and returns its result.
async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    client.call_tool(tool, arguments).await.unwrap()
}

#[tokio::test]
async fn the_definition_comes_from_the_function() {
    for era in ERAS {
        let (_, tools) = tools(era).await;
        let tools: Vec<Value> = tools.iter().map(as_json).collect();
        assert_eq!(
            tools[0],
            json!({
                "name": "price_quote",
                "title": "Price quote",
                "description": "Quotes a price.\n\nPrices include VAT.",
                "annotations": {"readOnlyHint": true, "openWorldHint": false},
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "title": {"type": "string", "description": "The book's title."},
                        "copies": {"type": "integer", "format": "uint32", "minimum": 0, "default": 1,
                                   "description": "How many copies."},
                        "giftWrap": {"type": "boolean", "default": false},
                        "code": {"type": ["string", "null"], "description": "A discount code, if any."}
                    },
                    "required": ["title"]
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {
                        "title": {"type": "string", "description": "The book."},
                        "cents": {"type": "integer", "format": "uint64", "minimum": 0,
                                  "description": "Price in euro cents."}
                    },
                    "required": ["title", "cents"]
                }
            }),
            "{era:?}"
        );
        assert_eq!(
            tools[2]["outputSchema"]["properties"]["result"]["type"], "array",
            "{era:?}: wrapped"
        );
        assert_eq!(
            tools[3].get("outputSchema"),
            None,
            "{era:?}: text results have no output schema"
        );
    }
}

#[tokio::test]
async fn defaults_optional_arguments_and_renames_apply_when_called() {
    for era in ERAS {
        let (client, _) = tools(era).await;
        let minimal = call(&client, "price_quote", json!({"title": "Dune"})).await;
        assert_eq!(
            minimal.structured_content,
            Some(json!({"title": "Dune", "cents": 1000})),
            "{era:?}"
        );
        assert_eq!(first_text(&minimal), r#"{"cents":1000,"title":"Dune"}"#);
        let full = json!({"title": "Dune", "copies": 2, "giftWrap": true, "code": "X"});
        let full = call(&client, "price_quote", full).await;
        assert_eq!(full.structured_content.unwrap()["cents"], 1950, "{era:?}");
    }
}

#[tokio::test]
async fn results_errors_and_plain_functions() {
    for era in ERAS {
        let (client, _) = tools(era).await;
        let ok = call(&client, "divide", json!({"a": 7, "b": 2})).await;
        assert_eq!(ok.structured_content, Some(json!({"result": 3})), "{era:?}");
        let err = call(&client, "divide", json!({"a": 7, "b": 0})).await;
        assert_eq!(err.is_error, Some(true), "{era:?}");
        assert_eq!(
            first_text(&err),
            "Error executing tool divide: division by zero"
        );
        assert_eq!(err.structured_content, None, "{era:?}");
        let listed = call(&client, "listing", json!({})).await;
        assert_eq!(
            listed.structured_content,
            Some(json!({"result": ["a", "b"]})),
            "{era:?}"
        );
        assert_eq!(first_text(&listed), r#"["a","b"]"#);
        let failed = call(&client, "text_or_error", json!({"fail": true})).await;
        assert_eq!(
            first_text(&failed),
            "Error executing tool text_or_error: disk on fire"
        );
        let fine = call(&client, "text_or_error", json!({"fail": false})).await;
        assert_eq!(
            as_json(&fine),
            json!({"content": [{"type": "text", "text": "fine"}]}),
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    for era in ERAS {
        let (client, _) = tools(era).await;
        let unknown = rpc_error(client.call_tool("nope", json!({})).await);
        assert_eq!(
            as_json(&unknown),
            json!({"code": -32602, "message": "Unknown tool: nope"}),
            "{era:?}"
        );
    }
}
