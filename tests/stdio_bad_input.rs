//! Bad input on the `bookshop` example's stdio, written as raw lines: each gets its JSON-RPC
//! error, and the same process still answers the next valid `tools/call add`.

mod common;

use common::{Collector, MODERN, example_bin, wait_until};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// The longest we wait for one response or for the server to read one line.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest the server may take to exit once its stdin is closed.
const EXIT_TIMEOUT: Duration = Duration::from_secs(5);

/// A `bookshop` process spoken to line by line.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Stdout lines, read by a background thread; `None` once stdout is closed.
    lines: Receiver<Option<String>>,
    stderr: Collector,
}

impl Server {
    /// Starts `bookshop` with stdout and stderr captured (`RUST_LOG` as given, if any).
    fn start(rust_log: Option<&str>) -> Self {
        let mut command = Command::new(example_bin("bookshop"));
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match rust_log {
            Some(filter) => command.env("RUST_LOG", filter),
            None => command.env_remove("RUST_LOG"),
        };
        let mut child = command.spawn().expect("start the bookshop example");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = Collector::start(child.stderr.take().expect("piped stderr"));
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        Server {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
        }
    }

    /// Starts `bookshop` and completes a legacy `initialize` handshake.
    fn initialized() -> Self {
        let mut server = Server::start(None);
        server.send(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-test","version":"1"}}}"#,
        );
        let response = server.recv();
        assert_eq!(response["id"], 0, "{response}");
        assert_eq!(
            response["result"]["serverInfo"]["name"], "Bookshop",
            "{response}"
        );
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    /// Writes `line` and a newline to the server's stdin (failing after [`IO_TIMEOUT`]).
    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").into_bytes());
    }

    /// Writes raw `bytes` to the server's stdin (failing after [`IO_TIMEOUT`]).
    fn send_bytes(&mut self, bytes: Vec<u8>) {
        let mut stdin = self.stdin.take().expect("stdin is already closed");
        let len = bytes.len();
        let (done, finished) = mpsc::channel();
        thread::spawn(move || {
            let result = stdin.write_all(&bytes).and_then(|()| stdin.flush());
            let _ = done.send((stdin, result));
        });
        match finished.recv_timeout(IO_TIMEOUT) {
            Ok((stdin, Ok(()))) => self.stdin = Some(stdin),
            Ok((_, Err(error))) => {
                let status = wait_until(&mut self.child, Instant::now() + EXIT_TIMEOUT);
                let unread: Vec<String> = self.lines.try_iter().flatten().collect();
                panic!(
                    "writing {len} bytes to the server failed: {error}; the server closed its \
                     stdin (exit status: {status:?}); unread stdout: {unread:#?}\n--- stderr:\n{}",
                    self.stderr.text()
                )
            }
            Err(_) => panic!("the server did not read {len} bytes within {IO_TIMEOUT:?}"),
        }
    }

    /// The next stdout line, which must be a JSON-RPC 2.0 message.
    fn recv(&mut self) -> Value {
        let line = match self.lines.recv_timeout(IO_TIMEOUT) {
            Ok(Some(line)) => line,
            Ok(None) => panic!(
                "the server closed stdout; status {:?}\n--- stderr:\n{}",
                self.child.try_wait(),
                self.stderr.text()
            ),
            Err(_) => panic!(
                "no response within {IO_TIMEOUT:?}\n--- stderr:\n{}",
                self.stderr.text()
            ),
        };
        jsonrpc_message(&line)
    }

    /// Sends `request` and returns the response (the next line).
    fn request(&mut self, request: &str) -> Value {
        self.send(request);
        self.recv()
    }

    /// Closes stdin, reads stdout to its end, and waits at most [`EXIT_TIMEOUT`] for the exit.
    fn close(mut self) -> Closed {
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_TIMEOUT;
        let mut rest = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Some(line)) => rest.push(line),
                Ok(None) => break,
                Err(_) => panic!("stdout still open {EXIT_TIMEOUT:?} after stdin closed"),
            }
        }
        let status = wait_until(&mut self.child, deadline).unwrap_or_else(|| {
            panic!("the server still runs {EXIT_TIMEOUT:?} after its stdin closed")
        });
        assert!(
            self.stderr.wait_closed(deadline),
            "stderr still open after the exit"
        );
        Closed {
            status,
            rest,
            stderr: self.stderr.text(),
        }
    }

    /// Checks that a valid `tools/call add` (legacy, or with modern `_meta`) still gets 2 + 3.
    fn assert_still_serving(&mut self, id: u64, modern: bool) {
        let response = self.request(&add_request(id, modern));
        assert_eq!(response["id"], id, "{response}");
        assert_eq!(
            response["result"]["structuredContent"],
            json!({"result": 5}),
            "the server stopped serving: {response}"
        );
    }
}

/// What a server left behind after its stdin closed.
struct Closed {
    status: ExitStatus,
    /// Stdout lines not yet read when stdin closed.
    rest: Vec<String>,
    stderr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses a stdout line, which must be a JSON object with `"jsonrpc":"2.0"`.
fn jsonrpc_message(line: &str) -> Value {
    let message: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
    assert_eq!(
        message["jsonrpc"], "2.0",
        "not a JSON-RPC 2.0 message: {line}"
    );
    message
}

/// The `_meta` of a 2026-07-28 request at `version`, with or without client capabilities.
fn modern_meta(version: &str, with_capabilities: bool) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"},
    });
    if with_capabilities {
        meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
    }
    meta
}

/// `tools/call add {"a":2,"b":3}` with `id`, legacy or modern.
fn add_request(id: u64, modern: bool) -> String {
    let mut params = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    if modern {
        params["_meta"] = modern_meta(MODERN, true);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
}

/// The `error` of `response`, after checking its `id` and `code`.
fn expect_error(response: &Value, id: Value, code: i64) -> &Value {
    assert_eq!(response["id"], id, "{response}");
    assert_eq!(response["error"]["code"], code, "{response}");
    assert_eq!(response.get("result"), None, "{response}");
    &response["error"]
}

#[test]
fn malformed_json_gets_parse_error_with_null_id() {
    let mut server = Server::initialized();
    let response = server.request(r#"{"jsonrpc":"2.0","id":1,"method":"#);
    expect_error(&response, Value::Null, -32700);
    assert!(
        response.as_object().unwrap().contains_key("id"),
        "a parse error must carry \"id\": null: {response}"
    );
    server.assert_still_serving(2, false);
}

#[test]
fn request_without_jsonrpc_field_gets_invalid_request() {
    let mut server = Server::initialized();
    let response = server.request(r#"{"id":4,"method":"ping"}"#);
    expect_error(&response, json!(4), -32600);
    server.assert_still_serving(5, false);
}

#[test]
fn unknown_method_gets_method_not_found() {
    let mut server = Server::initialized();
    let response = server.request(r#"{"jsonrpc":"2.0","id":3,"method":"books/burn"}"#);
    let error = expect_error(&response, json!(3), -32601);
    assert_eq!(
        error["message"], "Method not found: books/burn",
        "{response}"
    );
    server.assert_still_serving(4, false);
}

#[test]
fn tool_name_of_wrong_type_gets_invalid_params() {
    let mut server = Server::initialized();
    let response =
        server.request(r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":5}}"#);
    expect_error(&response, json!(6), -32602);
    server.assert_still_serving(7, false);
}

#[test]
fn oversized_line_gets_invalid_request_and_server_keeps_serving() {
    let mut server = Server::initialized();
    let padding = "a".repeat(5 * 1024 * 1024); // over the 4 MiB default limit
    server.send(&format!(
        r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"add","arguments":{{"pad":"{padding}"}}}}}}"#
    ));
    let response = server.recv();
    expect_error(&response, Value::Null, -32600);
    server.assert_still_serving(9, false);
}

#[test]
fn modern_request_without_client_capabilities_gets_invalid_params() {
    let mut server = Server::start(None);
    let request = json!({
        "jsonrpc": "2.0", "id": 10, "method": "tools/list",
        "params": {"_meta": modern_meta(MODERN, false)},
    });
    let response = server.request(&request.to_string());
    let error = expect_error(&response, json!(10), -32602);
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("io.modelcontextprotocol/clientCapabilities"),
        "the error should name the missing key: {response}"
    );
    server.assert_still_serving(11, true);
}

#[test]
fn unsupported_protocol_version_gets_32022_with_supported_list() {
    let mut server = Server::start(None);
    let request = json!({
        "jsonrpc": "2.0", "id": 12, "method": "tools/list",
        "params": {"_meta": modern_meta("2027-01-01", true)},
    });
    let response = server.request(&request.to_string());
    let error = expect_error(&response, json!(12), -32022);
    assert_eq!(error["data"]["supported"], json!([MODERN]), "{response}");
    assert_eq!(error["data"]["requested"], "2027-01-01", "{response}");
    server.assert_still_serving(13, true);
}

/// With every log level enabled, the logs go to stderr and stdout holds nothing but one JSON-RPC
/// response per request, up to and after the end of input.
#[test]
fn stdout_carries_only_jsonrpc_lines() {
    let mut server = Server::start(Some("trace"));
    let requests = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-test","version":"1"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        "not json at all".to_owned(),
        r#"{"jsonrpc":"2.0","id":77,"result":{}}"#.to_owned(), // a response nobody asked for
        r#"{"jsonrpc":"2.0","id":2,"method":"books/burn"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#.to_owned(),
        add_request(4, false),
        add_request(5, true),
    ];
    for request in &requests {
        server.send(request);
    }
    let Closed {
        status,
        rest: lines,
        stderr,
    } = server.close();
    let messages: Vec<Value> = lines.iter().map(|line| jsonrpc_message(line)).collect();
    let mut ids: Vec<String> = messages.iter().map(|m| m["id"].to_string()).collect();
    ids.sort();
    assert_eq!(
        ids,
        ["1", "2", "3", "4", "5", "null"],
        "one response per request (and one for the unparsable line): {lines:#?}"
    );
    assert!(status.success(), "exit status {status}");
    // The logs exist (so the check above is not vacuous) and went to stderr.
    assert!(
        !stderr.trim().is_empty(),
        "RUST_LOG=trace produced no logs on stderr"
    );
}

#[test]
fn closing_stdin_exits_with_status_zero() {
    let mut server = Server::initialized();
    server.assert_still_serving(1, false);
    let Closed { status, rest, .. } = server.close();
    assert_eq!(
        rest,
        Vec::<String>::new(),
        "nothing more on stdout after the last response"
    );
    assert!(status.success(), "exit status {status}");
}

#[test]
fn a_line_that_is_not_utf8_gets_a_parse_error_and_the_session_goes_on() {
    let mut server = Server::initialized();
    let mut line = br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":""#.to_vec();
    line.extend_from_slice(&[0xff, 0xfe]);
    line.extend_from_slice(b"\"}}\n");
    server.send_bytes(line);
    let response = server.recv();
    assert_eq!(response["error"]["code"], -32700, "{response}");
    assert_eq!(response["id"], Value::Null, "{response}");
    server.assert_still_serving(8, false);
    server.assert_still_serving(9, true);
}
