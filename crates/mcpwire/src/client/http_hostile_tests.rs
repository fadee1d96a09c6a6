//! The HTTP client against a hostile server (raw TCP, every byte chosen): an event with no end
//! of line, an event of endless short lines, an endless JSON answer, each far over the client's
//! `max_message_bytes`, and a flood of events. The call fails with `TooLarge`, the server sees
//! its connection closed long before it has sent everything, the client's next call is served;
//! the flood is delivered whole and in order, never more than the inbox's capacity held. And a
//! server that never answers a notification holds the client no longer than its timeout.

use super::transport::http::{self, HttpOptions};
use super::transport::{INBOX_CAPACITY, Kind, Outgoing, Sent, Transport};
use super::{Client, ClientError, EraChoice};
use crate::protocol::version;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// What a channel's `recv` brings, failing the test after 30 s instead of hanging it.
async fn within<T>(received: impl std::future::Future<Output = Option<T>>) -> T {
    tokio::time::timeout(std::time::Duration::from_secs(30), received)
        .await
        .expect("within 30 s")
        .expect("the sender is alive")
}

/// How the server answers the first request after `server/discover`.
#[derive(Clone, Copy, Debug)]
enum Attack {
    /// `data: ` and then bytes with no newline.
    EndlessLine,
    /// `data: <100 bytes>` lines, never a blank line ending the event.
    EndlessEvent,
    /// A JSON answer that never ends (no `Content-Length`).
    EndlessJson,
    /// A JSON answer whose `Content-Length` is over the limit.
    DeclaredJson,
    /// `FLOOD` notifications on the event stream, then the answer.
    Flood,
    /// Never answers a notification (`notifications/initialized`): no status, no body.
    Silent,
}

/// What the server wrote of its attack before the connection failed or it was done.
#[derive(Debug)]
struct Report {
    written: usize,
    all: bool,
}

/// How much the attacks send: far more than the kernel's socket buffers hold, so a client that
/// stops reading makes the server's writes fail before the end.
const ATTACK_BYTES: usize = 32 * 1024 * 1024;
/// The client's limit in these tests.
const LIMIT: usize = 64 * 1024;
/// The notifications of the flood.
const FLOOD: usize = 4 * INBOX_CAPACITY;

struct Hostile {
    url: String,
    reports: mpsc::UnboundedReceiver<Report>,
}

async fn hostile(attack: Attack) -> Hostile {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (report, reports) = mpsc::unbounded_channel();
    let attacked = Arc::new(AtomicBool::new(false));
    tokio::spawn(async move {
        loop {
            let (socket, _) = listener.accept().await.unwrap();
            let (report, attacked) = (report.clone(), attacked.clone());
            tokio::spawn(serve(socket, attack, attacked, report));
        }
    });
    Hostile { url, reports }
}

/// One connection: requests one after another until one is attacked or the client leaves.
async fn serve(
    mut socket: TcpStream,
    attack: Attack,
    attacked: Arc<AtomicBool>,
    report: mpsc::UnboundedSender<Report>,
) {
    while let Some(message) = read_request(&mut socket).await {
        let id = message.get("id").cloned();
        if matches!(attack, Attack::Silent) && id.is_none() {
            std::future::pending::<()>().await;
        }
        let result = match message["method"].as_str() {
            Some("server/discover") => json!({
                "supportedVersions": [version::MODERN], "capabilities": {},
                "serverInfo": {"name": "hostile", "version": "1"}}),
            Some("initialize") => json!({
                "protocolVersion": "2025-11-25", "capabilities": {},
                "serverInfo": {"name": "hostile", "version": "1"}}),
            Some(_) if id.is_some() && !attacked.swap(true, Ordering::SeqCst) => {
                let outcome = run(&mut socket, attack, id.unwrap_or(Value::Null)).await;
                let _ = report.send(outcome);
                return;
            }
            _ => json!({"tools": []}),
        };
        let response = match id {
            Some(id) => {
                let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                )
            }
            None => "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n".to_owned(),
        };
        if socket.write_all(response.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// Reads one request's head and body; `None` once the client closed the connection.
async fn read_request(socket: &mut TcpStream) -> Option<Value> {
    let mut buffer = Vec::new();
    let head_end = loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        let mut chunk = [0; 4096];
        let read = socket.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .map_or(0, |value| value.trim().parse().unwrap());
    let mut body = buffer[head_end..].to_vec();
    while body.len() < length {
        let mut chunk = [0; 4096];
        let read = socket.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..read]);
    }
    Some(serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// Sends the attack as the answer to the request `id`.
async fn run(socket: &mut TcpStream, attack: Attack, id: Value) -> Report {
    let stream_head =
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
    let json_head =
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n";
    let mut written = 0;
    let (head, start, unit): (String, String, Vec<u8>) = match attack {
        Attack::EndlessLine => (stream_head.into(), "data: ".into(), vec![b'a'; 64 * 1024]),
        Attack::EndlessEvent => {
            let line = format!("data: {}\n", "a".repeat(100));
            (
                stream_head.into(),
                String::new(),
                line.repeat(640).into_bytes(),
            )
        }
        Attack::EndlessJson => {
            let start = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"pad":""#);
            (json_head.into(), start, vec![b'a'; 64 * 1024])
        }
        Attack::DeclaredJson => {
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {ATTACK_BYTES}\r\nconnection: close\r\n\r\n"
            );
            let start = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"pad":""#);
            (head, start, vec![b'a'; 64 * 1024])
        }
        Attack::Silent => return Report { written, all: true },
        Attack::Flood => {
            let mut events = String::new();
            for n in 0..FLOOD {
                let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
                                  "params": {"level": "info", "data": n}});
                events.push_str(&format!("event: message\ndata: {note}\n\n"));
            }
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": {}});
            events.push_str(&format!("data: {answer}\n\n"));
            let written = events.len();
            let sent = socket.write_all(stream_head.as_bytes()).await.is_ok()
                && socket.write_all(events.as_bytes()).await.is_ok()
                && socket.shutdown().await.is_ok();
            return Report { written, all: sent };
        }
    };
    if socket.write_all(head.as_bytes()).await.is_err()
        || socket.write_all(start.as_bytes()).await.is_err()
    {
        return Report {
            written,
            all: false,
        };
    }
    while written < ATTACK_BYTES {
        if socket.write_all(&unit).await.is_err() {
            return Report {
                written,
                all: false,
            };
        }
        written += unit.len();
    }
    let _ = socket.shutdown().await;
    Report { written, all: true }
}

/// The client meets `attack` on its first `tools/list`: the call fails with `TooLarge`, the
/// server's connection was closed before it sent everything, and the next call is answered.
async fn refused_and_recovered(attack: Attack) {
    let mut server = hostile(attack).await;
    let client = Client::builder()
        .era(EraChoice::Modern)
        .max_message_bytes(LIMIT)
        .connect_http(&server.url)
        .await
        .unwrap();
    let error = client.list_tools().await.unwrap_err();
    assert!(
        matches!(error, ClientError::TooLarge { limit: LIMIT }),
        "{attack:?}: {error}"
    );
    assert!(error.to_string().contains("max_message_bytes"), "{error}");
    let report = within(server.reports.recv()).await;
    assert!(
        !report.all,
        "{attack:?}: the client read all {} bytes",
        report.written
    );
    assert!(client.list_tools().await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_with_no_end_of_line_is_refused_and_its_connection_closed() {
    refused_and_recovered(Attack::EndlessLine).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_of_endless_short_lines_is_refused_and_its_connection_closed() {
    refused_and_recovered(Attack::EndlessEvent).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_json_answer_is_refused_and_its_connection_closed() {
    refused_and_recovered(Attack::EndlessJson).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_answer_declared_over_the_limit_is_refused_unread() {
    refused_and_recovered(Attack::DeclaredJson).await;
}

/// The transport alone (nobody reading its inbox while the server floods): the stream reader
/// stops at the inbox's capacity (back-pressure), and nothing is lost once the inbox is read.
#[tokio::test(flavor = "current_thread")]
async fn a_flood_of_events_waits_for_the_reader_and_loses_nothing() {
    let mut server = hostile(Attack::Flood).await;
    #[cfg(feature = "auth")]
    let started = http::start(&server.url, HttpOptions::new(), LIMIT, None);
    #[cfg(not(feature = "auth"))]
    let started = http::start(&server.url, HttpOptions::new(), LIMIT);
    let (http, mut inbox) = started.unwrap();
    let ping = json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}).to_string();
    let outgoing = Outgoing {
        body: ping,
        kind: Kind::Request,
        protocol_version: Some(version::MODERN.to_owned()),
        headers: Vec::new(),
        call: Some(7),
    };
    let Sent::Stream(guard) = http.send(outgoing).await.unwrap() else {
        panic!("the flood comes on an event stream");
    };
    // The whole flood is in the client's socket (it fits in the kernel's buffers).
    let report = within(server.reports.recv()).await;
    assert!(report.all, "{report:?}");
    // Give the stream's reader every chance to run ahead of a reader that does not read.
    for _ in 0..10_000 {
        tokio::task::yield_now().await;
        if inbox.len() > FLOOD {
            break;
        }
    }
    assert!(
        inbox.len() <= INBOX_CAPACITY,
        "{} messages held",
        inbox.len()
    );
    for n in 0..FLOOD {
        let received = within(inbox.recv()).await;
        // Each came on the request's own stream, and says so.
        assert_eq!(received.during, Some(7));
        let message: Value = serde_json::from_str(&received.text).unwrap();
        assert_eq!(message["params"]["data"], n);
        assert!(inbox.len() <= INBOX_CAPACITY);
    }
    let answer: Value = serde_json::from_str(&within(inbox.recv()).await.text).unwrap();
    assert_eq!(answer["id"], 7);
    drop(guard);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_answers_a_notification_holds_the_client_no_longer_than_its_timeout() {
    let server = hostile(Attack::Silent).await;
    let timeout = std::time::Duration::from_millis(300);
    let refused = Client::builder()
        .era(EraChoice::Legacy)
        .timeout(timeout)
        .connect_http(&server.url)
        .await;
    match refused {
        Err(ClientError::Timeout(waited)) => assert_eq!(waited, timeout),
        Err(other) => panic!("expected a timeout, got {other}"),
        Ok(_) => panic!("expected a timeout, got a connection"),
    }
}
