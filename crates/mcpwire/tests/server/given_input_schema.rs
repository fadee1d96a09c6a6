//! `#[tool(input_schema = "…")]`: an input schema the author wrote is listed exactly as written
//! (JSON Schema 2020-12: `$schema`, `$defs`, `$anchor`, `$ref`, composition and conditional
//! keywords, `additionalProperties`), while the arguments are still parsed into the parameters.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{ERAS, first_text};

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

fn look_ahead_schema() -> schemars::Schema {
    json!({"type": "object",
        "properties": {"password": {"type": "string", "pattern": "^(?=.*[0-9]).{8,}$"}}})
    .try_into()
    .unwrap()
}

/// Cannot be registered: `pattern` is matched without look-around.
#[tool(input_schema = "look_ahead_schema")]
async fn set_password(password: String) -> String {
    password.len().to_string()
}

#[tokio::test]
async fn a_given_schema_is_listed_verbatim_and_arguments_still_parse() {
    for era in ERAS {
        let server = McpServer::new("schemas").tool(save_contact).unwrap();
        let client = support::client(server, era).await;
        let tools = client.list_tools().await.unwrap();
        assert_eq!(tools[0].input_schema, contact_schema_json(), "{era:?}");
        let arguments = json!({"name": "Ada", "email": "ada@example.com"});
        let saved = client.call_tool("save_contact", arguments).await.unwrap();
        assert_eq!(first_text(&saved), "saved Ada <ada@example.com>", "{era:?}");
    }
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

#[test]
fn a_pattern_with_look_around_is_refused_at_registration() {
    let Err(error) = McpServer::new("schemas").tool(set_password) else {
        panic!("registered a tool whose pattern needs look-around");
    };
    let message = error.message();
    assert!(
        message.contains("tool 'set_password': its input schema cannot be checked")
            && message.contains("/properties/password/pattern"),
        "{message}"
    );
}
