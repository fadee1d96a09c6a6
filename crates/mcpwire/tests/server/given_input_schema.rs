//! `#[tool(input_schema = "…")]`: an input schema the author wrote is listed exactly as written
//! (JSON Schema 2020-12: `$schema`, `$defs`, `$anchor`, `$ref`, composition and conditional
//! keywords, `additionalProperties`), while the arguments are still parsed into the parameters.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{call, connect, exchange, text};

fn contact_schema_json() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"name": {"const": "Ada"}}, "required": ["name"]},
        "then": {"required": ["email"]},
        "else": {"required": ["phone"]},
        "additionalProperties": false
    })
}

fn contact_schema() -> schemars::Schema {
    contact_schema_json().try_into().unwrap()
}

/// Saves a contact.
#[tool(input_schema = "contact_schema")]
async fn save_contact(name: Option<String>, email: Option<String>) -> String {
    format!(
        "saved {} <{}>",
        name.unwrap_or_default(),
        email.unwrap_or_default()
    )
}

fn array_schema() -> schemars::Schema {
    json!({"type": "array"}).try_into().unwrap()
}

/// Cannot be registered: a tool's arguments are an object.
#[tool(input_schema = "array_schema")]
async fn not_an_object() -> String {
    String::new()
}

#[tokio::test]
async fn a_given_schema_is_listed_verbatim_and_arguments_still_parse() {
    let mut client = connect(McpServer::new("schemas").tool(save_contact).unwrap()).await;
    let list = exchange(
        &mut client,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
    )
    .await;
    assert_eq!(
        list["result"]["tools"][0]["inputSchema"],
        contact_schema_json()
    );
    let saved = exchange(
        &mut client,
        call(
            2,
            "save_contact",
            json!({"name": "Ada", "email": "ada@example.com"}),
        ),
    )
    .await;
    assert_eq!(text(&saved), "saved Ada <ada@example.com>");
}

#[test]
fn a_given_schema_must_still_be_an_object() {
    let Err(error) = McpServer::new("schemas").tool(not_an_object) else {
        panic!("registered a tool whose input schema is an array");
    };
    assert!(
        error
            .message()
            .contains("tool 'not_an_object': the input schema's root must be `type: object`"),
        "{}",
        error.message()
    );
}
