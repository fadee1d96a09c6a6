//! The accept loop of `HttpServer::serve` and its kin, seen from raw TCP connections from
//! distinct loopback addresses: what it holds (`max_connections`, `max_connections_per_peer`,
//! `header_read_timeout`: one address cannot take every connection, a connection cannot hold its
//! place by sending nothing, its request head a byte at a time or half a body, and a request
//! that takes long is answered), how it stops (kept connections closed, the server ended), and
//! what it makes of an HTTP/2 client.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::transport::HttpServer;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use support::http::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Answers after a second.
#[tool]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(1)).await;
    "finished".to_owned()
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

const SLOW: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

/// A 2026-07-28 POST of `body` (a `tools/list`, or a call of `name`), as bytes on the wire.
fn post(body: &str, method: &str, name: Option<&str>) -> Vec<u8> {
    let name = name.map_or(String::new(), |name| format!("Mcp-Name: {name}\r\n"));
    format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: {method}\r\n{name}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn list() -> Vec<u8> {
    post(LIST, "tools/list", None)
}

/// A server with the `slow` tool, configured by `settings`, and the address it listens on.
async fn serving(settings: impl FnOnce(HttpServer) -> HttpServer) -> (Running, SocketAddr) {
    let server = McpServer::new("connections").tool(slow).unwrap().http();
    let running = start_http(settings(server)).await;
    let url = running
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    let addr = url.parse().unwrap();
    (running, addr)
}

/// A connection to `server` from the loopback address `from` (127.0.0.x).
async fn connect_from(from: [u8; 4], server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(IpAddr::from(from), 0)).unwrap();
    socket.connect(server).await.unwrap()
}

/// Reads one response (head and a body of its `Content-Length`), within 10 s; `None` when
/// the connection closes first.
async fn response(tcp: &mut TcpStream) -> Option<String> {
    let mut read = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&read).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if read.len() >= end + 4 + length {
                return Some(text);
            }
        }
        let n = tokio::time::timeout(Duration::from_secs(10), tcp.read(&mut buffer))
            .await
            .expect("an answer or the close within 10 s")
            .unwrap_or(0);
        if n == 0 {
            return None;
        }
        read.extend_from_slice(&buffer[..n]);
    }
}

/// Sends `request` on `tcp` and reads the answer, which must come.
async fn answered(tcp: &mut TcpStream, request: &[u8]) -> String {
    tcp.write_all(request).await.unwrap();
    response(tcp).await.expect("an answer")
}

/// Whether a `tools/list` on `tcp` is answered `200`.
async fn listed(tcp: &mut TcpStream) -> bool {
    answered(tcp, &list()).await.starts_with("HTTP/1.1 200")
}

/// Whether the server closes `tcp` within 10 s, with nothing sent on it.
async fn closed_silently(tcp: &mut TcpStream) -> bool {
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut rest)).await;
    matches!(read, Ok(Ok(0)))
}

#[tokio::test]
async fn one_address_holds_at_most_its_connections_and_other_addresses_are_served() {
    let (running, addr) = serving(|http| http.max_connections_per_peer(2)).await;
    let mut first = connect_from([127, 0, 0, 2], addr).await;
    let mut second = connect_from([127, 0, 0, 2], addr).await;
    for tcp in [&mut first, &mut second] {
        assert!(listed(tcp).await);
    }
    // A third from the same address is told why, and closed, before it sends anything.
    let mut third = connect_from([127, 0, 0, 2], addr).await;
    let refusal = response(&mut third).await.expect("a refusal");
    assert!(refusal.starts_with("HTTP/1.1 503"), "{refusal}");
    assert!(refusal.contains("retry-after: 1"), "{refusal}");
    assert!(
        closed_silently(&mut third).await,
        "the refused connection was left open"
    );
    // Another address has its own share, and the first two are still served.
    let mut other = connect_from([127, 0, 0, 3], addr).await;
    assert!(listed(&mut other).await);
    assert!(listed(&mut first).await);
    // Once one of the two ends, the address gets its place back.
    drop(second);
    let mut again = None;
    for _ in 0..100 {
        let mut tcp = connect_from([127, 0, 0, 2], addr).await;
        tcp.write_all(&list()).await.unwrap();
        match response(&mut tcp).await {
            Some(answer) if answer.starts_with("HTTP/1.1 200") => {
                again = Some(answer);
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    assert!(again.is_some(), "the address never got its place back");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn beyond_the_total_a_connection_waits_until_one_ends() {
    let (running, addr) = serving(|http| http.max_connections(2)).await;
    let mut first = connect_from([127, 0, 0, 4], addr).await;
    let mut second = connect_from([127, 0, 0, 5], addr).await;
    for tcp in [&mut first, &mut second] {
        assert!(listed(tcp).await);
    }
    // The third is not accepted: its request waits in the backlog, unanswered.
    let mut third = connect_from([127, 0, 0, 6], addr).await;
    third.write_all(&list()).await.unwrap();
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(300), third.read(&mut byte)).await;
    assert!(early.is_err(), "answered beyond the total");
    // One ends: the third is accepted and answered.
    drop(first);
    let answer = response(&mut third)
        .await
        .expect("an answer once a connection ended");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_connection_that_sends_nothing_or_its_head_a_byte_at_a_time_is_closed() {
    let timeout = Duration::from_millis(300);
    let (running, addr) = serving(|http| http.header_read_timeout(timeout)).await;
    // Nothing at all.
    let mut silent = connect_from([127, 0, 0, 7], addr).await;
    assert!(
        closed_silently(&mut silent).await,
        "a silent connection was left open"
    );
    // A head a byte every 20 ms, that would take 8 s: closed within twice the timeout.
    let mut trickle = connect_from([127, 0, 0, 8], addr).await;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Pad: {}\r\n",
        "a".repeat(400)
    );
    let mut sent = 0;
    for byte in head.as_bytes() {
        if trickle.write_all(std::slice::from_ref(byte)).await.is_err() {
            break;
        }
        sent += 1;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        sent < head.len() / 2,
        "the trickled head was read for {sent} bytes"
    );
    // Meanwhile, and after, a client that sends its request is served.
    let mut prompt = connect_from([127, 0, 0, 9], addr).await;
    assert!(listed(&mut prompt).await);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_kept_connection_idle_for_the_timeout_is_closed() {
    let timeout = Duration::from_millis(300);
    let (running, addr) = serving(|http| http.header_read_timeout(timeout)).await;
    let mut tcp = connect_from([127, 0, 0, 10], addr).await;
    for _ in 0..3 {
        assert!(listed(&mut tcp).await);
    }
    assert!(
        closed_silently(&mut tcp).await,
        "an idle connection was left open"
    );
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_request_that_runs_longer_than_the_timeout_is_answered() {
    let timeout = Duration::from_millis(200);
    let (running, addr) = serving(|http| http.header_read_timeout(timeout)).await;
    let mut tcp = connect_from([127, 0, 0, 11], addr).await;
    // The tool takes a second, five timeouts: the connection is busy, not idle.
    let call = post(SLOW, "tools/call", Some("slow"));
    let answer = answered(&mut tcp, &call).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("finished"), "{answer}");
    // And the connection serves the next request.
    assert!(listed(&mut tcp).await);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_trusted_proxys_kept_connection_is_not_timed_out_nor_counted_per_peer() {
    let timeout = Duration::from_millis(200);
    let (running, addr) = serving(|http| {
        (http.trusted_proxies(["127.0.0.12"]))
            .header_read_timeout(timeout)
            .max_connections_per_peer(1)
    })
    .await;
    let mut proxied = connect_from([127, 0, 0, 12], addr).await;
    let mut also_proxied = connect_from([127, 0, 0, 12], addr).await;
    assert!(listed(&mut proxied).await);
    assert!(listed(&mut also_proxied).await);
    // Idle for four timeouts, then used again: still open.
    tokio::time::sleep(timeout * 4).await;
    assert!(listed(&mut proxied).await);
    // Any other peer's idle connection is closed.
    let mut direct = connect_from([127, 0, 0, 13], addr).await;
    assert!(listed(&mut direct).await);
    assert!(
        closed_silently(&mut direct).await,
        "an idle connection was left open"
    );
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_request_body_that_stalls_closes_its_connection_and_one_that_trickles_is_served() {
    // Long enough that a loaded machine's pause between two of the trickled writes below
    // (100 ms apart) does not reach it.
    let timeout = Duration::from_millis(500);
    let (running, addr) = serving(|http| http.header_read_timeout(timeout)).await;
    let request = list();
    let split = request.len() - LIST.len() + 10;
    // The head and ten bytes of the body, then nothing.
    let mut stalled = connect_from([127, 0, 0, 14], addr).await;
    stalled.write_all(&request[..split]).await.unwrap();
    assert!(
        closed_silently(&mut stalled).await,
        "a stalled body was waited for"
    );
    // The body five bytes at a time, every 100 ms: three seconds, six timeouts, in all.
    let mut trickled = connect_from([127, 0, 0, 15], addr).await;
    trickled.write_all(&request[..split]).await.unwrap();
    for chunk in request[split..].chunks(5) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        trickled.write_all(chunk).await.unwrap();
    }
    let answer = response(&mut trickled).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    running.shut_down().await.unwrap();
}

/// Stops `running` and sees `tcp` closed by it and the server end, each within 10 s.
async fn stop_and_see_closed(running: Running, mut tcp: TcpStream) {
    let stopping = tokio::spawn(running.shut_down());
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the connection was left open");
    let served = stopping.await.expect("the shutdown did not panic");
    assert!(served.is_ok(), "{served:?}");
}

#[tokio::test]
async fn a_kept_connection_is_closed_when_the_server_stops_and_the_server_ends() {
    let (running, addr) = serving(|http| http).await;
    let mut tcp = connect_from([127, 0, 0, 16], addr).await;
    for _ in 0..2 {
        assert!(listed(&mut tcp).await);
    }
    // The idle kept connection is closed by the server: the read ends.
    stop_and_see_closed(running, tcp).await;
    assert!(TcpStream::connect(addr).await.is_err(), "still accepting");
}

#[tokio::test]
async fn a_connection_halfway_through_a_request_head_is_closed_when_the_server_stops() {
    let (running, addr) = serving(|http| http).await;
    let mut tcp = connect_from([127, 0, 0, 17], addr).await;
    assert!(listed(&mut tcp).await);
    // Half of the next request's head: the connection waits for the rest.
    tcp.write_all(b"POST /mcp HTTP/1.1\r\nHost: local")
        .await
        .unwrap();
    stop_and_see_closed(running, tcp).await;
}

#[tokio::test]
async fn an_http2_client_is_refused_and_the_server_serves_on() {
    let (running, addr) = serving(|http| http).await;
    let mut h2 = connect_from([127, 0, 0, 18], addr).await;
    h2.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    // hyper's HTTP/1.1 connection reads the preface as a malformed request line, and closes
    // the connection without an answer.
    assert!(
        closed_silently(&mut h2).await,
        "the HTTP/2 connection was answered or left open"
    );
    let mut tcp = connect_from([127, 0, 0, 18], addr).await;
    assert!(listed(&mut tcp).await);
    running.shut_down().await.unwrap();
}
