//! Values are checked against the schema the server advertises, not only by type: tool
//! arguments (generated schemas with constraints on parameters, and hand-written
//! `input_schema`s) and elicitation answers (the form a resolver asks with `Elicit<M>`), on both
//! protocol revisions.

mod support;

use mcpwire::prelude::*;
use mcpwire::transport::MemoryClient;
use serde_json::{Value, json};
use support::{call, connect, exchange, is_error, modern_call, modern_meta, text};

/// Calls `tool` with `arguments` on both revisions and returns both answers (legacy first).
async fn call_both(client: &mut MemoryClient, id: u64, tool: &str, arguments: Value) -> [Value; 2] {
    let legacy = exchange(client, call(id, tool, arguments.clone())).await;
    let modern = exchange(
        client,
        modern_call(id + 1, tool, arguments, modern_meta(json!({}))),
    )
    .await;
    [legacy, modern]
}

// ---- hand-written input schemas ------------------------------------------------------------

fn sku_schema() -> schemars::Schema {
    json!({
        "type": "object",
        "properties": {
            "sku": {"type": "string", "pattern": "^SKU-[0-9]{4}$"},
            "quantity": {"type": "integer", "exclusiveMinimum": 0}
        },
        "required": ["sku"],
        "additionalProperties": false
    })
    .try_into()
    .unwrap()
}

/// Looks a product up by its SKU.
#[tool(input_schema = "sku_schema")]
async fn find_product(sku: String, quantity: Option<i64>) -> String {
    format!("{sku} x{}", quantity.unwrap_or(1))
}

#[tokio::test]
async fn a_hand_written_input_schema_is_enforced_on_both_revisions() {
    let mut client = connect(McpServer::new("v").tool(find_product).unwrap()).await;
    let cases = [
        (
            json!({"sku": "sku-1"}),
            "sku: must match the pattern ^SKU-[0-9]{4}$ (pattern)",
        ),
        (
            json!({"sku": "SKU-0001", "quantity": 0}),
            "quantity: must be greater than 0 (exclusiveMinimum)",
        ),
        (
            json!({"sku": "SKU-0001", "colour": "red"}),
            "colour: is not allowed (additionalProperties)",
        ),
    ];
    let mut id = 1;
    for (arguments, why) in cases {
        for answer in call_both(&mut client, id, "find_product", arguments.clone()).await {
            assert!(is_error(&answer), "{arguments}: {answer}");
            assert_eq!(
                text(&answer),
                format!("Error executing tool find_product: invalid arguments: {why}"),
                "{arguments}"
            );
        }
        id += 2;
    }
    for answer in call_both(&mut client, id, "find_product", json!({"sku": "SKU-0042"})).await {
        assert!(!is_error(&answer), "{answer}");
        assert_eq!(text(&answer), "SKU-0042 x1");
    }
}
