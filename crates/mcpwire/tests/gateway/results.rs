//! A backend tool's result through the gateway, on every pair of revisions: passed on as the
//! backend wrote it, text with quotes, backslashes and non-ASCII characters included (a result
//! that names no resource is read straight from the backend's bytes, one whose text holds a
//! `\u` escape through a `Value`), while a resource it names (a `resource_link`, an embedded
//! resource) is shown under the backend's namespace, as the gateway's resources are.

#![cfg(feature = "gateway")]

use crate::serving::{PAIRS, Serving, behind_gateway, front_client};
use mcpwire::client::{Client, EraChoice};
use mcpwire::gateway::Backend;
use mcpwire::prelude::*;
use mcpwire::protocol::ResourceContents;
use std::time::Duration;

/// Every wait of these tests is bounded by this.
const BOUND: Duration = Duration::from_secs(20);

/// Text with quotes and non-ASCII characters, written without a `\u` escape.
const QUOTED: &str = "say \"hi\" — café 書";
/// Text with a backslash, and the six characters `\u0041`.
const ESCAPED: &str = "a \\ b \\u0041";

/// Answers with `QUOTED`.
#[tool]
async fn quoted() -> String {
    QUOTED.to_owned()
}

/// Answers with `ESCAPED`.
#[tool]
async fn escaped() -> String {
    ESCAPED.to_owned()
}

/// Links to the catalog's view, and embeds a note.
#[tool]
async fn linked() -> Vec<Content> {
    vec![
        Content::text("see"),
        Content::ResourceLink {
            uri: "ui://catalog/view".into(),
            name: "view".into(),
            description: None,
            mime_type: None,
            annotations: None,
        },
        Content::Resource {
            resource: ResourceContents::Text {
                uri: "ui://notes/1".into(),
                mime_type: None,
                text: "a note".into(),
                meta: None,
            },
            annotations: None,
        },
    ]
}

/// A backend pinned to `backend`, a gateway in front of it under the namespace `shop`.
async fn setup(backend: EraChoice) -> (Serving, Serving) {
    let server = McpServer::new("results")
        .tool(quoted)
        .and_then(|s| s.tool(escaped))
        .and_then(|s| s.tool(linked))
        .unwrap();
    behind_gateway(server, |url| Backend::http("shop", url).era(backend)).await
}

async fn call(client: &Client, tool: &str) -> Vec<Content> {
    let called = client.call_tool(tool, serde_json::json!({}));
    let result = tokio::time::timeout(BOUND, called).await.unwrap().unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.content
}

#[tokio::test]
async fn a_result_passes_as_written_and_the_resources_it_names_are_shown_in_front() {
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let (_backend, gateway) = setup(backend_era).await;
        let client = front_client(front_era, &gateway).await;
        for (tool, text) in [("shop_quoted", QUOTED), ("shop_escaped", ESCAPED)] {
            assert_eq!(call(&client, tool).await, [Content::text(text)], "{pair}");
        }
        let linked = call(&client, "shop_linked").await;
        assert_eq!(linked[0], Content::text("see"), "{pair}");
        match &linked[1] {
            Content::ResourceLink { uri, name, .. } => {
                assert_eq!(
                    (uri.as_str(), name.as_str()),
                    ("ui://shop/catalog/view", "view")
                );
            }
            other => panic!("{pair}: {other:?}"),
        }
        match &linked[2] {
            Content::Resource {
                resource: ResourceContents::Text { uri, text, .. },
                ..
            } => assert_eq!(
                (uri.as_str(), text.as_str()),
                ("ui://shop/notes/1", "a note")
            ),
            other => panic!("{pair}: {other:?}"),
        }
        client.close().await;
    }
}
