//! Skills (SEP-2640) through the gateway, with the crate's own client on both revisions in
//! front: a backend's skills are listed (pages through every backend that declares the
//! extension), got, read and their folders listed under its namespace (`skill://docs/…`),
//! names, front matter, digests and sizes as the backend serves them; a backend without a
//! namespace keeps its URIs; a skill two backends would serve at one URI refuses the start,
//! naming both.
#![cfg(feature = "skills")]

use super::serving::serve;
use crate::support::skills::read_checked;
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::skills::{EXTENSION, Skills};
use serde_json::{Value, json};

const FIND: &str = "---\nname: find-a-book\ndescription: How to find a book.\n---\n\nRead `references/index.md`.\n";
const INDEX: &str = "# Index\n\nDune, Emma.\n";
const REVIEW: &str = "---\nname: code-review\ndescription: Review code.\n---\n\nRead the diff.\n";

fn docs() -> McpServer {
    let files = [
        ("find-a-book/SKILL.md", FIND),
        ("find-a-book/references/index.md", INDEX),
    ];
    let skills = Skills::from_files("docs", files).unwrap();
    McpServer::new("docs").extension(skills).unwrap()
}

fn reviewer() -> McpServer {
    let skills = Skills::from_files("review", [("code-review/SKILL.md", REVIEW)]).unwrap();
    McpServer::new("reviewer").extension(skills).unwrap()
}

/// Adds two numbers (a backend without skills).
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

async fn client(url: &str, era: EraChoice) -> Client {
    Client::builder().era(era).connect_http(url).await.unwrap()
}

fn rpc_code<T: std::fmt::Debug>(outcome: Result<T, ClientError>) -> i64 {
    match outcome {
        Err(ClientError::Rpc(error)) => error.code.into(),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_backends_skills_are_served_under_its_namespace_on_both_revisions() {
    let docs_backend = serve(docs()).await;
    let plain = serve(McpServer::new("calc").tool(add).unwrap()).await;
    let review_backend = serve(reviewer()).await;
    let direct = client(&docs_backend.url, EraChoice::Legacy).await;
    let direct_skills = direct.list_skills().await.unwrap();
    direct.close().await;

    let front = Gateway::new()
        .backend(Backend::http("docs", &docs_backend.url))
        .backend(Backend::http("calc", &plain.url))
        .backend(Backend::http("review", &review_backend.url).namespace(""))
        .start(McpServer::new("gateway"))
        .await
        .unwrap();
    let gateway = serve(front).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&gateway.url, era).await;
        let capabilities = serde_json::to_value(client.server().capabilities).unwrap();
        assert_eq!(
            capabilities["extensions"][EXTENSION],
            json!({ "directoryRead": true }),
            "{era:?}"
        );
        // One page per backend that has skills; the client follows the cursors.
        let first = client.request("skills/list", json!({})).await.unwrap();
        assert_eq!(first["nextCursor"], "2:", "{era:?}: {first}");
        let skills = client.list_skills().await.unwrap();
        let uris: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
        assert_eq!(
            uris,
            [
                "skill://docs/find-a-book/SKILL.md",
                "skill://code-review/SKILL.md"
            ],
            "{era:?}"
        );
        let mut expected = serde_json::to_value(&direct_skills[0]).unwrap();
        expected["uri"] = json!("skill://docs/find-a-book/SKILL.md");
        for file in expected["resources"].as_array_mut().unwrap() {
            let uri = file["uri"]
                .as_str()
                .unwrap()
                .replacen("skill://", "skill://docs/", 1);
            file["uri"] = json!(uri);
        }
        assert_eq!(
            serde_json::to_value(&skills[0]).unwrap(),
            expected,
            "{era:?}"
        );
        assert_eq!(read_checked(&client, &skills[0]).await, FIND, "{era:?}");
        assert_eq!(read_checked(&client, &skills[1]).await, REVIEW, "{era:?}");

        let got = client
            .get_skill("skill://docs/find-a-book/SKILL.md")
            .await
            .unwrap();
        assert_eq!(got, skills[0], "{era:?}");
        let got = client.get_skill("skill://code-review/SKILL.md").await;
        assert_eq!(got.unwrap(), skills[1], "{era:?}");
        let unknown = client.get_skill("skill://docs/nope/SKILL.md").await;
        assert_eq!(rpc_code(unknown), -32602, "{era:?}");
        let elsewhere = client.get_skill("skill://calc/add/SKILL.md").await;
        assert_eq!(rpc_code(elsewhere), -32602, "{era:?}");

        let params = json!({ "uri": "skill://docs/find-a-book" });
        let root: Value = client
            .request("resources/directory/read", params)
            .await
            .unwrap();
        assert_eq!(
            root["resources"],
            json!([
                {"uri": "skill://docs/find-a-book/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown", "size": FIND.len()},
                {"uri": "skill://docs/find-a-book/references", "name": "references", "mimeType": "inode/directory"},
            ]),
            "{era:?}"
        );
        let params = json!({ "uri": "skill://docs/find-a-book/SKILL.md" });
        let not_folder = client.request("resources/directory/read", params).await;
        assert_eq!(rpc_code(not_folder), -32602, "{era:?}");
        let forged = client.request("skills/list", json!({"cursor": "9:"})).await;
        assert_eq!(rpc_code(forged), -32602, "{era:?}");
        client.close().await;
    }
}

#[tokio::test]
async fn a_skill_two_backends_would_serve_at_one_uri_refuses_the_start() {
    // `skill://docs/find-a-book/SKILL.md`: the backend `docs`'s, and a nested skill of the
    // backend without a namespace.
    let nested = Skills::from_files("nested", [("docs/find-a-book/SKILL.md", FIND)]).unwrap();
    let nested = serve(McpServer::new("nested").extension(nested).unwrap()).await;
    let docs_backend = serve(docs()).await;
    let refused = Gateway::new()
        .backend(Backend::http("nested", &nested.url).namespace(""))
        .backend(Backend::http("docs", &docs_backend.url))
        .start(McpServer::new("gateway"))
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(
        refused.contains("skill://docs/find-a-book/SKILL.md"),
        "{refused}"
    );
    assert!(
        refused.contains("'nested'") && refused.contains("'docs'"),
        "{refused}"
    );
}
