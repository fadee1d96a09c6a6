//! `mcpwire-cli gateway --config FILE`: a host's `mcpServers` file served as one server. A bad
//! file is refused before anything starts, naming the key; a good one serves its servers under
//! their keys (driven by the CLI itself, over stdio), and over HTTP it says where it listens.

mod common;

use common::{HttpServer, cli, run, stdio_example};

fn config(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut file, text.as_bytes()).expect("write the configuration");
    file
}

#[test]
fn an_unknown_key_is_refused_naming_it() {
    let file =
        config(r#"{"mcpServers": {"shop": {"url": "http://127.0.0.1:1/mcp", "timeout": 5}}}"#);
    let path = file.path().display().to_string();
    let out = run(&["gateway", "--config", &path]);
    assert_eq!(out.code(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("mcpServers.shop.timeout: is not a known key"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_bad_value_is_refused_naming_its_key() {
    let file =
        config(r#"{"mcpServers": {"shop": {"url": "http://127.0.0.1:1/mcp", "separator": ":"}}}"#);
    let path = file.path().display().to_string();
    let out = run(&["gateway", "--config", &path]);
    assert_eq!(out.code(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("mcpServers.shop.separator:"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_servers_of_a_host_file_are_served_under_their_keys() {
    let conformance = stdio_example("conformance");
    let text = serde_json::json!({"mcpServers": {
        "conf": {"command": conformance, "allowTools": ["test_simple_text"]},
        "bare": {"command": conformance, "namespace": "", "denyTools": ["test_simple_text"], "allowTools": ["test_simple_text", "test_image_content"]}
    }})
    .to_string();
    let file = config(&text);
    let gateway = format!(
        "{} gateway --config {}",
        cli().get_program().to_string_lossy(),
        file.path().display()
    );
    let out = run(&["tools", "--stdio", &gateway]);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let mut names: Vec<&str> = (out.stdout.lines())
        .filter(|line| !line.starts_with(' '))
        .map(|line| line.split('(').next().unwrap_or(line))
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["conf_test_simple_text", "test_image_content"],
        "{}",
        out.stdout
    );
    let out = run(&["call", "--stdio", &gateway, "conf_test_simple_text"]);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    assert!(!out.stdout.is_empty());
}

#[test]
fn over_http_it_prints_the_url_it_serves() {
    let conformance = stdio_example("conformance");
    let text = serde_json::json!({"mcpServers": {
        "conf": {"command": conformance, "allowTools": ["test_simple_text"]}
    }})
    .to_string();
    let file = config(&text);
    let mut command = cli();
    command.args(["gateway", "--config"]).arg(file.path());
    command.args(["--http", "127.0.0.1:0"]);
    let gateway = HttpServer::start(command);
    assert!(
        !gateway.url.contains(":0/"),
        "the bound port: {}",
        gateway.url
    );
    let out = run(&["tools", "--url", &gateway.url]);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("conf_test_simple_text"),
        "{}",
        out.stdout
    );
}
