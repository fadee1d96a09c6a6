//! The stdio transport against tiny shell servers: `Auto` probing a server that exits on any
//! message before `initialize` (it is started once more, on 2025-11-25), a server that starts
//! slowly (the probe's clock starts at its first output: it is started once), a silent
//! legacy server (the probe gives up), and the end of a dying child's stderr in the error.

use super::{Client, ClientError, EraChoice, StdioServer};
use crate::protocol::Era;
use std::time::Duration;

/// A 2025-11-25-only server that exits unless the first message is `initialize`.
const STRICT_LEGACY: &str = r#"
read -r first
case "$first" in
  *'"method":"initialize"'*) ;;
  *) echo "expected initialize" >&2; exit 1 ;;
esac
id=$(echo "$first" | sed 's/.*"id":\([0-9]*\).*/\1/')
printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"strict","version":"1"}}}\n' "$id"
while read -r line; do
  case "$line" in
    *'"method":"ping"'*)
      id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
      printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
  esac
done
"#;

fn sh(script: &str) -> StdioServer {
    StdioServer::new("sh").args(["-c", script])
}

#[tokio::test]
async fn auto_starts_a_server_that_exits_on_the_probe_again_with_initialize() {
    let starts = starts_file("strict");
    let script = format!("echo started >> '{}'\n{STRICT_LEGACY}", starts.display());
    let client = Client::builder()
        .era(EraChoice::Auto)
        .probe_timeout(Duration::from_secs(5))
        .connect_stdio(sh(&script))
        .await
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().info.unwrap().name, "strict");
    client.ping().await.unwrap();
    assert_eq!(
        std::fs::read_to_string(&starts).unwrap(),
        "started\nstarted\n"
    );
    let _ = std::fs::remove_file(&starts);
}

/// A fresh file for a script to count its starts in.
fn starts_file(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("mcpwire-starts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// A 2025-11-25 server that takes a while to start (like `npx` fetching it), then answers
/// `server/discover` with `-32601` and `initialize` as usual; it counts its starts.
fn slow_legacy(starts: &std::path::Path) -> String {
    format!(
        r#"
echo started >> '{}'
sleep 1.5
echo 'slow server ready' >&2
while read -r line; do
  id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  case "$line" in
    *'"method":"server/discover"'*)
      printf '{{"jsonrpc":"2.0","id":%s,"error":{{"code":-32601,"message":"Method not found"}}}}\n' "$id" ;;
    *'"method":"initialize"'*)
      printf '{{"jsonrpc":"2.0","id":%s,"result":{{"protocolVersion":"2025-11-25","capabilities":{{}},"serverInfo":{{"name":"slow","version":"1"}}}}}}\n' "$id" ;;
    *'"method":"ping"'*)
      printf '{{"jsonrpc":"2.0","id":%s,"result":{{}}}}\n' "$id" ;;
  esac
done
"#,
        starts.display()
    )
}

#[tokio::test]
async fn a_slow_starting_server_is_probed_once_on_its_own_process() {
    let starts = starts_file("slow");
    // The probe limit is shorter than the start: the clock starts at the first output.
    let client = Client::builder()
        .probe_timeout(Duration::from_millis(500))
        .connect_stdio(sh(&slow_legacy(&starts)))
        .await
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().info.unwrap().name, "slow");
    client.ping().await.unwrap();
    assert_eq!(std::fs::read_to_string(&starts).unwrap(), "started\n");
    let _ = std::fs::remove_file(&starts);
}

/// A 2025-11-25 server that says it is up on stderr and ignores anything but `initialize`.
const SILENT_ON_DISCOVER: &str = r#"
echo 'up' >&2
while read -r line; do
  id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  case "$line" in
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"quiet","version":"1"}}}\n' "$id" ;;
  esac
done
"#;

#[tokio::test]
async fn a_probe_without_answer_falls_back_after_the_probe_timeout_not_the_call_timeout() {
    let client = Client::builder()
        .timeout(Duration::from_secs(60))
        .probe_timeout(Duration::from_millis(300))
        .connect_stdio(sh(SILENT_ON_DISCOVER));
    let client = tokio::time::timeout(Duration::from_secs(20), client)
        .await
        .expect("the probe gives up long before the call timeout")
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().info.unwrap().name, "quiet");
}

#[tokio::test]
async fn a_dying_child_shows_the_end_of_its_stderr() {
    let script = "echo 'config file missing' >&2; sleep 0.2; exit 3";
    let error = Client::builder()
        .era(EraChoice::Legacy)
        .connect_stdio(sh(script))
        .await
        .err()
        .unwrap();
    let ClientError::Closed(Some(detail)) = &error else {
        panic!("{error:?}");
    };
    assert!(detail.contains("config file missing"), "{detail}");
}

#[tokio::test]
async fn a_missing_program_is_a_transport_error() {
    let error = Client::builder()
        .era(EraChoice::Legacy)
        .connect_stdio(StdioServer::new("/nonexistent/mcp-server"))
        .await
        .err()
        .unwrap();
    assert!(matches!(error, ClientError::Transport(_)), "{error:?}");
}

#[tokio::test]
async fn close_lets_the_child_exit_on_end_of_input() {
    let client = Client::builder()
        .era(EraChoice::Legacy)
        .connect_stdio(sh(STRICT_LEGACY))
        .await
        .unwrap();
    let started = std::time::Instant::now();
    client.close().await;
    // The strict server exits when its stdin closes, well within the grace period.
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(matches!(client.ping().await, Err(ClientError::Closed(_))));
}

/// Answers `initialize`, reads `notifications/initialized`, and exits.
const EXITS_AFTER_HANDSHAKE: &str = r#"
read -r first
id=$(echo "$first" | sed 's/.*"id":\([0-9]*\).*/\1/')
printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"brief","version":"1"}}}\n' "$id"
read -r initialized
echo 'bye' >&2
"#;

#[tokio::test]
async fn calls_after_the_child_exits_fail_at_once() {
    let client = Client::builder()
        .era(EraChoice::Legacy)
        .timeout(Duration::from_secs(30))
        .connect_stdio(sh(EXITS_AFTER_HANDSHAKE))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    let error = client.list_tools().await.unwrap_err();
    let ClientError::Closed(Some(detail)) = &error else {
        panic!("{error:?}");
    };
    assert!(detail.contains("bye"), "{detail}");
    assert!(started.elapsed() < Duration::from_secs(1));
}
