//! Parameters and resolver returns are classified by trait, not by how a type is spelled: the
//! context under another name stays injected (never in the schema, a client value dropped),
//! and a resolver returning an alias of `Result<T, ToolError>` gives its consumers `T`.

use crate::support;
use mcpwire::Context as Ctx;
use mcpwire::prelude::*;
use serde_json::json;
use support::{call, connect, exchange, is_error, text};

type Fallible<T> = Result<T, ToolError>;

#[resolver]
async fn parse_copies(count: String) -> Fallible<u32> {
    count
        .parse()
        .map_err(|_| ToolError::new(format!("'{count}' is not a number")))
}

#[resolver]
async fn revision(ctx: Ctx) -> String {
    ctx.protocol_version().to_owned()
}

/// Orders copies of a book.
#[tool]
async fn order(
    count: String,
    request: Ctx,
    #[resolve(parse_copies)] copies: u32,
    #[resolve(revision)] revision: String,
) -> String {
    format!(
        "{count}: {copies} copies ({revision}, {})",
        request.protocol_version()
    )
}

fn tools_list(id: u64) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/list"}).to_string()
}

async fn initialized() -> mcpwire::transport::MemoryClient {
    let mut client = connect(McpServer::new("t").tool(order).unwrap()).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}});
    exchange(&mut client, init.to_string()).await;
    client.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}).to_string());
    client
}

#[tokio::test]
async fn a_renamed_context_is_injected_and_never_listed() {
    let mut client = initialized().await;
    let listed = exchange(&mut client, tools_list(1)).await;
    let schema = &listed["result"]["tools"][0]["inputSchema"];
    assert_eq!(schema["properties"], json!({"count": {"type": "string"}}));
    assert_eq!(schema["required"], json!(["count"]));

    let sent_anyway = json!({"count": "3", "request": "forged"});
    let answer = exchange(&mut client, call(2, "order", sent_anyway)).await;
    assert_eq!(
        text(&answer),
        "3: 3 copies (2025-11-25, 2025-11-25)",
        "{answer}"
    );
}

#[tokio::test]
async fn a_resolver_returning_a_result_alias_gives_the_success_value_or_fails_the_call() {
    let mut client = initialized().await;
    let failed = exchange(&mut client, call(1, "order", json!({"count": "many"}))).await;
    assert!(is_error(&failed), "{failed}");
    assert!(text(&failed).contains("'many' is not a number"), "{failed}");
}

#[tokio::test]
async fn bodies_are_callable_with_plain_arguments() {
    assert_eq!(parse_copies::call("4".into()).await.unwrap(), 4);
    assert!(parse_copies::call("x".into()).await.is_err());
}
