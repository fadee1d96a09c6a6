//! What `#[tool]` derives from a function: names, titles, hints, schemas, defaults, optional
//! arguments, structured output, sync bodies, `Result` returns.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{call, connect, exchange, is_error, text};

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

async fn tools() -> (mcpwire::transport::MemoryClient, Vec<Value>) {
    let server = McpServer::new("t")
        .tool(quote)
        .and_then(|s| s.tool(divide))
        .and_then(|s| s.tool(listing))
        .and_then(|s| s.tool(text_or_error))
        .unwrap();
    let mut client = connect(server).await;
    let list = exchange(
        &mut client,
        r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#.into(),
    )
    .await;
    let tools = list["result"]["tools"].as_array().unwrap().clone();
    (client, tools)
}

#[tokio::test]
async fn the_definition_comes_from_the_function() {
    let (_, tools) = tools().await;
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
        })
    );
    assert_eq!(
        tools[2]["outputSchema"]["properties"]["result"]["type"], "array",
        "wrapped"
    );
    assert_eq!(
        tools[3].get("outputSchema"),
        None,
        "text results have no output schema"
    );
}

#[tokio::test]
async fn defaults_optional_arguments_and_renames_apply_when_called() {
    let (mut client, _) = tools().await;
    let minimal = exchange(
        &mut client,
        call(1, "price_quote", json!({"title": "Dune"})),
    )
    .await;
    assert_eq!(
        minimal["result"]["structuredContent"],
        json!({"title": "Dune", "cents": 1000})
    );
    assert_eq!(text(&minimal), r#"{"cents":1000,"title":"Dune"}"#);
    let full = exchange(
        &mut client,
        call(
            2,
            "price_quote",
            json!({"title": "Dune", "copies": 2, "giftWrap": true, "code": "X"}),
        ),
    )
    .await;
    assert_eq!(full["result"]["structuredContent"]["cents"], 1950);
}

#[tokio::test]
async fn results_errors_and_plain_functions() {
    let (mut client, _) = tools().await;
    let ok = exchange(&mut client, call(1, "divide", json!({"a": 7, "b": 2}))).await;
    assert_eq!(ok["result"]["structuredContent"], json!({"result": 3}));
    let err = exchange(&mut client, call(2, "divide", json!({"a": 7, "b": 0}))).await;
    assert!(is_error(&err));
    assert_eq!(text(&err), "Error executing tool divide: division by zero");
    assert_eq!(err["result"].get("structuredContent"), None);
    let listed = exchange(&mut client, call(3, "listing", json!({}))).await;
    assert_eq!(
        listed["result"]["structuredContent"],
        json!({"result": ["a", "b"]})
    );
    assert_eq!(text(&listed), r#"["a","b"]"#);
    let failed = exchange(&mut client, call(4, "text_or_error", json!({"fail": true}))).await;
    assert_eq!(
        text(&failed),
        "Error executing tool text_or_error: disk on fire"
    );
    let fine = exchange(
        &mut client,
        call(5, "text_or_error", json!({"fail": false})),
    )
    .await;
    assert_eq!(
        fine["result"],
        json!({"content": [{"type": "text", "text": "fine"}]})
    );
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let (mut client, _) = tools().await;
    let unknown = exchange(&mut client, call(1, "nope", json!({}))).await;
    assert_eq!(
        unknown["error"],
        json!({"code": -32602, "message": "Unknown tool: nope"})
    );
}
