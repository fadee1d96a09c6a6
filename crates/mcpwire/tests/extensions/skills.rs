//! The Skills extension (`mcpwire::skills`) from the crate's own client over HTTP, on both
//! revisions: the skills listed with their files' digests and sizes (which match the bytes a
//! read serves), one got by its URI, the files read as resources, the folders listed, the
//! errors a client can act on; and folders that break the Agent Skills rules refused at
//! start-up, naming the file.
#![cfg(all(feature = "skills", feature = "client"))]

use crate::support;
use mcpwire::client::{Client, EraChoice};
use mcpwire::prelude::*;
use mcpwire::protocol::ResourceContents;
use mcpwire::protocol::skills::SkillResources;
use mcpwire::skills::{EXTENSION, Skills};
use serde_json::json;
use std::path::{Path, PathBuf};
use support::http::*;

const REVIEW: &str = "---\nname: code-review\ndescription: Review code using the team's checklist.\nmetadata:\n  owner: shop\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
const CHECKLIST: &str = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
const REFUNDS: &str = "---\nname: refunds\ndescription: Refund an order.\n---\n\nCall `refund`.\n";
/// Bytes that are not UTF-8: served as base64.
const LOGO: &[u8] = &[0x89, b'P', b'N', b'G', 0xff, 0x00];

/// A folder of its own under the system's temporary folder, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(files: &[(&str, &[u8])]) -> Self {
        let root = std::env::temp_dir().join(format!(
            "mcpwire-skills-{}-{}",
            std::process::id(),
            rand_suffix()
        ));
        for (path, bytes) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        Self(root)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rand_suffix() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    u64::from_le_bytes(bytes)
}

fn shop() -> Folder {
    Folder::new(&[
        ("code-review/SKILL.md", REVIEW.as_bytes()),
        ("code-review/references/checklist.md", CHECKLIST.as_bytes()),
        ("code-review/assets/logo.png", LOGO),
        ("billing/refunds/SKILL.md", REFUNDS.as_bytes()),
        ("billing/README.txt", b"not part of any skill"),
        ("code-review/.hidden", b"skipped"),
    ])
}

async fn client(url: &str, era: EraChoice) -> Client {
    Client::builder().era(era).connect_http(url).await.unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let output = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(bytes)?;
            child.wait_with_output()
        })
        .unwrap();
    let hex = String::from_utf8(output.stdout).unwrap();
    let mut digest = String::new();
    write!(digest, "sha256:{}", hex.split_whitespace().next().unwrap()).unwrap();
    digest
}

#[tokio::test]
async fn a_client_lists_the_skills_and_reads_every_file_it_lists_on_both_revisions() {
    let folder = shop();
    let server = McpServer::new("shop")
        .extension(Skills::from_dir(folder.path()).unwrap())
        .unwrap();
    let running = start(server).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era).await;
        let capabilities = serde_json::to_value(client.server().capabilities).unwrap();
        assert_eq!(
            capabilities["extensions"][EXTENSION],
            json!({ "directoryRead": true })
        );
        assert!(capabilities.get("resources").is_some(), "{capabilities}");

        let skills = client.list_skills().await.unwrap();
        let uris: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
        assert_eq!(
            uris,
            [
                "skill://billing/refunds/SKILL.md",
                "skill://code-review/SKILL.md"
            ],
            "{era:?}"
        );
        let review = &skills[1];
        assert_eq!(review.name(), Some("code-review"));
        assert_eq!(review.frontmatter["metadata"], json!({ "owner": "shop" }));
        let SkillResources::Listed(files) = &review.resources else {
            panic!("the files are listed");
        };
        assert_eq!(files.len(), 3, "{files:?}");
        assert_eq!(files[0].uri, review.uri, "SKILL.md comes first");
        for file in files {
            let read = client.read_resource(&file.uri).await.unwrap();
            let bytes = match &read.contents[0] {
                ResourceContents::Text {
                    text, mime_type, ..
                } => {
                    if file.uri.ends_with(".md") {
                        assert_eq!(mime_type.as_deref(), Some("text/markdown"));
                    }
                    text.as_bytes().to_vec()
                }
                ResourceContents::Blob {
                    blob, mime_type, ..
                } => {
                    assert_eq!(mime_type.as_deref(), Some("image/png"));
                    base64_decode(blob)
                }
            };
            assert_eq!(file.size, bytes.len() as u64, "{}", file.uri);
            assert_eq!(file.digest, sha256(&bytes), "{}", file.uri);
        }

        let got = client
            .get_skill("skill://code-review/SKILL.md")
            .await
            .unwrap();
        assert_eq!(&got, review);
        let unknown = client
            .get_skill("skill://nothing/SKILL.md")
            .await
            .unwrap_err();
        assert_eq!(unknown.rpc_code(), Some(-32602), "{unknown}");
        assert!(unknown.to_string().contains("skill://nothing/SKILL.md"));

        let listed = client.list_resources().await.unwrap();
        let listed_review = listed.iter().find(|r| r.uri == review.uri).unwrap();
        assert_eq!(listed_review.name, "code-review");
        assert_eq!(listed_review.mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(
            listed_review.description.as_deref(),
            Some("Review code using the team's checklist.")
        );
        let not_a_skill_file = client.read_resource("skill://billing/README.txt").await;
        assert!(
            not_a_skill_file.is_err(),
            "files outside a skill are not served"
        );

        let root = client
            .request(
                "resources/directory/read",
                json!({ "uri": "skill://code-review" }),
            )
            .await
            .unwrap();
        let children: Vec<(&str, &str)> = (root["resources"].as_array().unwrap().iter())
            .map(|child| {
                (
                    child["name"].as_str().unwrap(),
                    child["mimeType"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            children,
            [
                ("SKILL.md", "text/markdown"),
                ("assets", "inode/directory"),
                ("references", "inode/directory")
            ]
        );
        let not_a_folder = client
            .request("resources/directory/read", json!({ "uri": review.uri }))
            .await
            .unwrap_err();
        assert_eq!(not_a_folder.rpc_code(), Some(-32602));

        let page = client.request("skills/list", json!({})).await.unwrap();
        match era {
            EraChoice::Modern => {
                assert_eq!(page["cacheScope"], "public");
                assert!(page["ttlMs"].as_u64().is_some(), "{page}");
            }
            _ => assert!(page.get("ttlMs").is_none(), "{page}"),
        }
    }
    running.shut_down().await.unwrap();
}

fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for byte in text.bytes().filter(|b| *b != b'=') {
        bits = (bits << 6) | ALPHABET.iter().position(|a| *a == byte).unwrap() as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

#[tokio::test]
async fn many_skills_come_in_pages_the_client_follows() {
    let skills: Vec<(String, String)> = (0..120)
        .map(|n| {
            let name = format!("skill-{n:03}");
            let text = format!("---\nname: {name}\ndescription: Skill {n}.\n---\n");
            (format!("{name}/SKILL.md"), text)
        })
        .collect();
    let skills = Skills::from_files(
        "generated",
        skills.iter().map(|(p, t)| (p.clone(), t.as_bytes())),
    )
    .unwrap();
    let client = Client::builder()
        .era(EraChoice::Modern)
        .connect_memory(McpServer::new("many").extension(skills).unwrap())
        .await
        .unwrap();
    let first = client.request("skills/list", json!({})).await.unwrap();
    assert_eq!(first["skills"].as_array().unwrap().len(), 50);
    assert!(first["nextCursor"].is_string(), "{first}");
    let all = client.list_skills().await.unwrap();
    assert_eq!(all.len(), 120);
    assert_eq!(all[119].name(), Some("skill-119"));
    let bad = client
        .request("skills/list", json!({ "cursor": "7" }))
        .await
        .unwrap_err();
    assert_eq!(bad.rpc_code(), Some(-32602));
}

#[test]
fn a_folder_that_breaks_the_rules_fails_at_start_up_naming_the_file() {
    let refused = |folder: &Folder| {
        Skills::from_dir(folder.path())
            .unwrap_err()
            .message()
            .to_owned()
    };

    let misnamed = Folder::new(&[("review/SKILL.md", REVIEW.as_bytes())]);
    let why = refused(&misnamed);
    assert!(why.contains("review/SKILL.md"), "{why}");
    assert!(
        why.contains("differs from its folder's name 'review'"),
        "{why}"
    );

    let no_front_matter = Folder::new(&[("code-review/SKILL.md", b"# Code review\n")]);
    let why = refused(&no_front_matter);
    assert!(
        why.contains("code-review/SKILL.md: it does not start with a front matter"),
        "{why}"
    );

    let long = format!(
        "---\nname: code-review\ndescription: {}\n---\n",
        "x".repeat(2000)
    );
    let too_long = Folder::new(&[("code-review/SKILL.md", long.as_bytes())]);
    assert!(refused(&too_long).contains("2000 characters"));

    let empty = Folder::new(&[("notes/todo.md", b"- nothing")]);
    assert!(refused(&empty).contains("no skill"));

    let missing = Skills::from_dir("/nonexistent/skills").unwrap_err();
    assert!(
        missing.message().contains("/nonexistent/skills"),
        "{missing}"
    );

    let linked = shop();
    std::os::unix::fs::symlink("/etc/hostname", linked.path().join("code-review/host")).unwrap();
    let why = refused(&linked);
    assert!(why.contains("code-review/host: a symbolic link"), "{why}");
}

#[tokio::test]
async fn the_skills_are_installed_once() {
    let folder = shop();
    let server = McpServer::new("shop")
        .extension(Skills::from_dir(folder.path()).unwrap())
        .unwrap();
    let twice = server.extension(Skills::from_dir(folder.path()).unwrap());
    assert!(matches!(twice, Err(error) if error.message().contains("installed twice")));
}
