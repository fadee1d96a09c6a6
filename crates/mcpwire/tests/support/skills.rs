//! Checking what a client is served as skills: every file a skill lists reads back with the
//! digest and size listed (the bytes hashed by the system's `sha256sum`, not by the crate).

use mcpwire::client::Client;
use mcpwire::protocol::ResourceContents;
use mcpwire::protocol::skills::{Skill, SkillResources};

/// `sha256:` and the hex SHA-256 of `bytes`, by `sha256sum`.
pub fn sha256(bytes: &[u8]) -> String {
    use std::io::Write as _;
    let output = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(bytes)?;
            child.wait_with_output()
        })
        .unwrap();
    let hex = String::from_utf8(output.stdout).unwrap();
    format!("sha256:{}", hex.split_whitespace().next().unwrap())
}

/// Reads every file `skill` lists and checks it against its digest and size; the text of its
/// `SKILL.md`.
pub async fn read_checked(client: &Client, skill: &Skill) -> String {
    let SkillResources::Listed(files) = &skill.resources else {
        panic!("{} lists no files", skill.uri);
    };
    let mut manifest = None;
    for file in files {
        let read = client.read_resource(&file.uri).await.unwrap();
        let bytes = match &read.contents[..] {
            [ResourceContents::Text { uri, text, .. }] => {
                assert_eq!(uri, &file.uri);
                if uri == &skill.uri {
                    manifest = Some(text.clone());
                }
                text.as_bytes().to_vec()
            }
            other => panic!("{}: {other:?}", file.uri),
        };
        assert_eq!(bytes.len() as u64, file.size, "{}", file.uri);
        assert_eq!(sha256(&bytes), file.digest, "{}", file.uri);
    }
    manifest.unwrap_or_else(|| panic!("{} does not list its SKILL.md", skill.uri))
}
