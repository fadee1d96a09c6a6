//! Parameters and resolver returns are classified by trait, not by how a type is spelled: the
//! context under another name stays injected (never in the schema, a client value dropped),
//! and a resolver returning an alias of `Result<T, ToolError>` gives its consumers `T`.

use crate::support;
use mcpwire::Context as Ctx;
use mcpwire::client::EraChoice;
use mcpwire::prelude::*;
use serde_json::json;
use support::{ERAS, first_text};

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

fn server() -> McpServer {
    McpServer::new("t").tool(order).unwrap()
}

#[tokio::test]
async fn a_renamed_context_is_injected_and_never_listed() {
    for era in ERAS {
        let client = support::client(server(), era).await;
        let tools = client.list_tools().await.unwrap();
        let schema = &tools[0].input_schema;
        assert_eq!(
            schema["properties"],
            json!({"count": {"type": "string"}}),
            "{era:?}"
        );
        assert_eq!(schema["required"], json!(["count"]), "{era:?}");

        let sent_anyway = json!({"count": "3", "request": "forged"});
        let answer = client.call_tool("order", sent_anyway).await.unwrap();
        let version = if era == EraChoice::Legacy {
            "2025-11-25"
        } else {
            "2026-07-28"
        };
        assert_eq!(
            first_text(&answer),
            format!("3: 3 copies ({version}, {version})"),
            "{answer:?}"
        );
    }
}

#[tokio::test]
async fn a_resolver_returning_a_result_alias_gives_the_success_value_or_fails_the_call() {
    for era in ERAS {
        let client = support::client(server(), era).await;
        let failed = client.call_tool("order", json!({"count": "many"})).await;
        let failed = failed.unwrap();
        assert_eq!(failed.is_error, Some(true), "{era:?}: {failed:?}");
        let text = first_text(&failed);
        assert!(
            text.contains("'many' is not a number"),
            "{era:?}: {failed:?}"
        );
    }
}

#[tokio::test]
async fn bodies_are_callable_with_plain_arguments() {
    assert_eq!(parse_copies::call("4".into()).await.unwrap(), 4);
    assert!(parse_copies::call("x".into()).await.is_err());
}
