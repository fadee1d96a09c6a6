//! The stdio transport against tiny shell servers: `Auto` probing a server that exits on any
//! message before `initialize` (the probe runs on a sibling, the real child is never upset),
//! and the end of a dying child's stderr in the error.

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
async fn auto_probes_a_sibling_and_falls_back_to_initialize() {
    let client = Client::builder()
        .era(EraChoice::Auto)
        .probe_timeout(Duration::from_secs(5))
        .connect_stdio(sh(STRICT_LEGACY))
        .await
        .unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().info.unwrap().name, "strict");
    client.ping().await.unwrap();
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
