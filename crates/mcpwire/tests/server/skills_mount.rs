//! `McpServer::mount` of a server with Skills, driven over HTTP by the crate's own client on
//! both revisions: the mounted skills are served under the namespace (`skill://docs/…`, names,
//! front matter and files as they were, so every file reads back with its listed digest)
//! beside the outer server's own, listed, got, read and their folders listed; a mount without a
//! namespace keeps the URIs; the merged skills are listed in pages, and a mount of a mount
//! nests the namespaces; two skills that would be served at one place are refused, naming both.
#![cfg(feature = "skills")]

use crate::support;
use mcpwire::client::{Client, EraChoice};
use mcpwire::prelude::*;
use mcpwire::skills::{EXTENSION, Skills};
use serde_json::{Value, json};
use support::http::start;
use support::skills::read_checked;

const FIND: &str = "---\nname: find-a-book\ndescription: How to find a book in the shop.\n---\n\nCall `search` with the title.\n";
const DOCS_FIND: &str = "---\nname: find-a-book\ndescription: How to find a book in the docs.\n---\n\nRead `references/index.md`.\n";
const INDEX: &str = "# Index\n\nDune, Emma.\n";
const REVIEW: &str = "---\nname: code-review\ndescription: Review code.\n---\n\nRead the diff.\n";
const DOCS: &str = "---\nname: docs\ndescription: The docs themselves.\n---\n\nRead them.\n";

fn own_skills() -> Skills {
    Skills::from_files("shop", [("find-a-book/SKILL.md", FIND)]).unwrap()
}

fn docs_skills() -> Skills {
    let files = [
        ("find-a-book/SKILL.md", DOCS_FIND),
        ("find-a-book/references/index.md", INDEX),
        ("code-review/SKILL.md", REVIEW),
    ];
    Skills::from_files("docs", files).unwrap()
}

fn docs() -> McpServer {
    McpServer::new("docs").extension(docs_skills()).unwrap()
}

async fn client(url: &str, era: EraChoice) -> Client {
    Client::builder().era(era).connect_http(url).await.unwrap()
}

async fn folder(client: &Client, uri: &str) -> Value {
    let params = json!({ "uri": uri });
    client
        .request("resources/directory/read", params)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_mounted_servers_skills_are_served_under_the_namespace_beside_the_outer_ones() {
    // What the docs server lists on its own, to compare with what the mount serves.
    let alone = start(docs()).await;
    let direct = client(&alone.url, EraChoice::Legacy).await;
    let direct_skills = direct.list_skills().await.unwrap();
    direct.close().await;
    alone.shut_down().await.unwrap();

    let shop = McpServer::new("shop").extension(own_skills()).unwrap();
    let running = start(shop.mount("docs", docs()).unwrap()).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era).await;
        let capabilities = serde_json::to_value(client.server().capabilities).unwrap();
        assert_eq!(
            capabilities["extensions"][EXTENSION],
            json!({ "directoryRead": true }),
            "{era:?}"
        );
        let skills = client.list_skills().await.unwrap();
        let uris: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
        assert_eq!(
            uris,
            [
                "skill://docs/code-review/SKILL.md",
                "skill://docs/find-a-book/SKILL.md",
                "skill://find-a-book/SKILL.md",
            ],
            "{era:?}"
        );
        // The mounted entries are the docs server's own, their URIs under the namespace.
        for skill in &skills[..2] {
            let there = skill.uri.replacen("skill://docs/", "skill://", 1);
            let mut expected = (direct_skills.iter())
                .find(|direct| direct.uri == there)
                .unwrap()
                .clone();
            let mut moved = serde_json::to_value(&expected).unwrap();
            moved["uri"] = json!(skill.uri);
            for file in moved["resources"].as_array_mut().unwrap() {
                let uri = file["uri"]
                    .as_str()
                    .unwrap()
                    .replacen("skill://", "skill://docs/", 1);
                file["uri"] = json!(uri);
            }
            expected = serde_json::from_value(moved).unwrap();
            assert_eq!(skill, &expected, "{era:?}");
        }
        // Every file reads back with its digest and size; each SKILL.md is the one it was.
        assert_eq!(
            read_checked(&client, &skills[1]).await,
            DOCS_FIND,
            "{era:?}"
        );
        assert_eq!(read_checked(&client, &skills[2]).await, FIND, "{era:?}");
        assert_eq!(read_checked(&client, &skills[0]).await, REVIEW, "{era:?}");

        let got = client
            .get_skill("skill://docs/find-a-book/SKILL.md")
            .await
            .unwrap();
        assert_eq!(got, skills[1], "{era:?}");
        assert_eq!(got.name(), Some("find-a-book"), "{era:?}");
        let unknown = client.get_skill("skill://find-a-book/nope/SKILL.md").await;
        assert_eq!(support::rpc_error(unknown).code, -32602, "{era:?}");

        let root = folder(&client, "skill://docs/find-a-book").await;
        assert_eq!(
            root["resources"],
            json!([
                {"uri": "skill://docs/find-a-book/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown", "size": DOCS_FIND.len()},
                {"uri": "skill://docs/find-a-book/references", "name": "references", "mimeType": "inode/directory"},
            ]),
            "{era:?}"
        );
        let own = folder(&client, "skill://find-a-book").await;
        assert_eq!(own["resources"].as_array().unwrap().len(), 1, "{era:?}");
        let listed = client.list_resources().await.unwrap();
        let mut listed: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
        listed.sort();
        assert_eq!(
            listed,
            [
                "skill://docs/code-review/SKILL.md",
                "skill://docs/find-a-book/SKILL.md",
                "skill://find-a-book/SKILL.md",
            ],
            "{era:?}"
        );
        client.close().await;
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn without_a_namespace_mounted_skills_keep_their_uris_on_both_revisions() {
    let review = Skills::from_files("review", [("code-review/SKILL.md", REVIEW)]).unwrap();
    let reviewer = McpServer::new("reviewer").extension(review).unwrap();
    // Into a server with skills of its own, and into one without.
    let with_own = McpServer::new("shop").extension(own_skills()).unwrap();
    let mounted = with_own.mount("", reviewer).unwrap();
    let bare = McpServer::new("bare").mount("docs", docs()).unwrap();
    for (server, expected) in [
        (
            mounted,
            vec![
                "skill://code-review/SKILL.md",
                "skill://find-a-book/SKILL.md",
            ],
        ),
        (
            bare,
            vec![
                "skill://docs/code-review/SKILL.md",
                "skill://docs/find-a-book/SKILL.md",
            ],
        ),
    ] {
        let running = start(server).await;
        for era in [EraChoice::Legacy, EraChoice::Modern] {
            let client = client(&running.url, era).await;
            let skills = client.list_skills().await.unwrap();
            let uris: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
            assert_eq!(uris, expected, "{era:?}");
            for skill in &skills {
                read_checked(&client, skill).await;
            }
            client.close().await;
        }
        running.shut_down().await.unwrap();
    }
}

/// The error text `McpServer::mount` refuses with.
fn refusal(mounted: Result<McpServer, InvalidSignature>) -> String {
    match mounted {
        Ok(_) => panic!("the mount was accepted"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn skills_that_would_be_served_at_one_place_are_refused_naming_both() {
    let shop = || McpServer::new("shop").extension(own_skills()).unwrap();
    // One URI for both `find-a-book`s.
    let error = refusal(shop().mount("", docs()));
    assert!(error.contains("mounting 'docs' under ''"), "{error}");
    assert!(error.contains("skill://find-a-book/SKILL.md"), "{error}");

    // The mounted skills inside the folder of the outer skill `docs`.
    let with_docs = McpServer::new("shop")
        .extension(Skills::from_files("shop", [("docs/SKILL.md", DOCS)]).unwrap())
        .unwrap();
    let error = refusal(with_docs.mount("docs", docs()));
    assert!(
        error.contains("skill 'docs' (skill://docs/SKILL.md)"),
        "{error}"
    );
    assert!(
        error.contains("skill 'code-review' (skill://docs/code-review/SKILL.md)"),
        "{error}"
    );
}

/// `count` skills `{prefix}-{n}`, embedded.
fn many(prefix: &str, count: usize) -> Skills {
    let files: Vec<(String, String)> = (0..count)
        .map(|n| {
            let name = format!("{prefix}-{n}");
            let text = format!("---\nname: {name}\ndescription: Skill {n}.\n---\n");
            (format!("{name}/SKILL.md"), text)
        })
        .collect();
    Skills::from_files(prefix, files).unwrap()
}

#[tokio::test]
async fn the_merged_skills_are_listed_in_pages_and_a_mount_of_a_mount_nests_the_namespaces() {
    // 30 of the shop's own and 30 mounted: more than one page of 50.
    let shelf = McpServer::new("shelf")
        .extension(many("shelf", 30))
        .unwrap();
    let mid = McpServer::new("mid").mount("shelf", shelf).unwrap();
    let shop = McpServer::new("shop").extension(many("own", 30)).unwrap();
    let running = start(shop.mount("lib", mid).unwrap()).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era).await;
        let first = client.request("skills/list", json!({})).await.unwrap();
        assert_eq!(first["skills"].as_array().unwrap().len(), 50, "{era:?}");
        assert!(first["nextCursor"].is_string(), "{era:?}");
        let skills = client.list_skills().await.unwrap();
        assert_eq!(skills.len(), 60, "{era:?}");
        let nested = (skills.iter())
            .filter(|skill| skill.uri.starts_with("skill://lib/shelf/shelf-"))
            .count();
        assert_eq!(nested, 30, "{era:?}");
        let got = client.get_skill("skill://lib/shelf/shelf-7/SKILL.md").await;
        assert_eq!(got.unwrap().name(), Some("shelf-7"), "{era:?}");
        let seven = skills
            .iter()
            .find(|s| s.uri == "skill://lib/shelf/shelf-7/SKILL.md");
        read_checked(&client, seven.unwrap()).await;
        client.close().await;
    }
    running.shut_down().await.unwrap();
}
