//! The layering rule, checked on the sources: the client imports nothing of the server side
//! (`server`, `dispatch`, `resolve`, `context`, `request_state`, `transport`) except `McpServer` for the
//! in-memory transport (`transport/memory.rs` serves it; `builder.rs`'s `connect_memory` takes
//! it), and the server side never names the client.

use std::path::{Path, PathBuf};

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn the_client_and_the_server_do_not_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let server_side = [
        "server",
        "dispatch",
        "resolve",
        "context",
        "request_state",
        "transport",
    ];
    for file in sources(&src.join("client")) {
        let name = file.file_name().unwrap().to_str().unwrap();
        if name == "layering_tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for module in server_side {
            for line in text
                .lines()
                .filter(|l| l.contains(&format!("crate::{module}")))
            {
                let allowed = matches!(name, "memory.rs" | "builder.rs")
                    && line.trim() == "use crate::server::McpServer;";
                assert!(allowed, "{}: {line}", file.display());
            }
        }
    }
    for module in server_side {
        let dir = src.join(module);
        for file in sources(&dir) {
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(
                !text.contains("crate::client"),
                "{} names the client",
                file.display()
            );
        }
    }
}
