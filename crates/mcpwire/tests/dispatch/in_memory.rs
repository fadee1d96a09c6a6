//! The dispatcher over the in-memory transport: both revisions, concurrency, cancellation,
//! progress and log messages. Concurrency and paging are driven by the crate's own client on
//! both revisions; cancellation, the revisions' handshakes, progress and log notifications and
//! per-request validation are asserted on the wire, in raw JSON-RPC lines.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::protocol::LoggingLevel;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use support::{
    ERAS, call, client, connect, exchange, first_text, modern_call, modern_meta, next, rpc_error,
    text,
};
use tokio::sync::Notify;

struct Gate {
    opened: Notify,
    dropped: AtomicBool,
}

struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Waits until the gate opens.
#[tool]
async fn wait(ctx: Context) -> String {
    let gate = ctx.state::<Gate>();
    let _guard = SetOnDrop(&gate.dropped);
    gate.opened.notified().await;
    "opened".into()
}

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

/// Reports whether `wait` was stopped.
#[tool]
async fn was_dropped(ctx: Context) -> String {
    ctx.state::<Gate>()
        .dropped
        .load(Ordering::SeqCst)
        .to_string()
}

fn gated_server() -> McpServer {
    let gate = Gate {
        opened: Notify::new(),
        dropped: AtomicBool::new(false),
    };
    McpServer::new("t")
        .state(gate)
        .tool(wait)
        .unwrap()
        .tool(quick)
        .unwrap()
        .tool(was_dropped)
        .unwrap()
}

#[tokio::test]
async fn a_slow_request_does_not_block_a_fast_one() {
    for era in ERAS {
        let client = client(gated_server(), era).await;
        let slow = client.clone();
        let waiting = tokio::spawn(async move { slow.call_tool("wait", json!({})).await });
        let fast = client.call_tool("quick", json!({})).await.unwrap();
        assert_eq!(first_text(&fast), "quick", "{era:?}");
        assert!(
            !waiting.is_finished(),
            "{era:?}: the slow one is still waiting"
        );
        waiting.abort();
    }
}

#[tokio::test]
async fn a_cancelled_request_stops_and_gets_no_response() {
    let mut client = connect(gated_server()).await;
    client.send(call(1, "wait", json!({})));
    // Let the request start before cancelling it.
    assert_eq!(
        text(&exchange(&mut client, call(2, "quick", json!({}))).await),
        "quick"
    );
    client.send(
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})
            .to_string(),
    );
    let dropped = exchange(&mut client, call(3, "was_dropped", json!({}))).await;
    assert_eq!(
        dropped["id"], 3,
        "no response for the cancelled request came first"
    );
    assert_eq!(text(&dropped), "true", "the handler was stopped");
}

#[tokio::test]
async fn legacy_and_modern_requests_share_one_connection() {
    let mut client = connect(gated_server()).await;
    let init = exchange(
        &mut client,
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})
        .to_string(),
    )
    .await;
    assert_eq!(
        init["result"]["protocolVersion"], "2025-06-18",
        "a served version is echoed"
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "t");

    let legacy = exchange(&mut client, call(1, "quick", json!({}))).await;
    assert_eq!(
        legacy["result"],
        json!({"content":[{"type":"text","text":"quick"}]})
    );

    let modern = exchange(
        &mut client,
        modern_call(2, "quick", json!({}), modern_meta(json!({}))),
    )
    .await;
    assert_eq!(modern["result"]["resultType"], "complete");
    assert_eq!(
        modern["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "t"
    );
}

#[tokio::test]
async fn an_unknown_legacy_version_gets_the_newest_legacy_one() {
    let mut client = connect(gated_server()).await;
    let init = exchange(
        &mut client,
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})
        .to_string(),
    )
    .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
}

#[tokio::test]
async fn tools_list_pages_with_a_cursor_and_rejects_a_foreign_one() {
    for era in ERAS {
        let client = client(gated_server().page_size(2), era).await;
        let first = client.request("tools/list", json!({})).await.unwrap();
        let names: Vec<&str> = first["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["wait", "quick"], "{era:?}: registration order");
        let cursor = first["nextCursor"].as_str().unwrap().to_owned();
        let second = client.request("tools/list", json!({"cursor": cursor}));
        let second = second.await.unwrap();
        assert_eq!(second["tools"][0]["name"], "was_dropped", "{era:?}");
        assert_eq!(second.get("nextCursor"), None, "{era:?}");
        let foreign = client.request("tools/list", json!({"cursor": "not-a-cursor"}));
        assert_eq!(rpc_error(foreign.await).code, -32602, "{era:?}");
        // The client follows the pages.
        let all: Vec<String> = client
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(all, ["wait", "quick", "was_dropped"], "{era:?}");
    }
}

/// Reports progress twice and logs once.
#[tool]
async fn chatty(ctx: Context) -> String {
    ctx.report_progress(1.0, Some(2.0), Some("half".into()))
        .await;
    ctx.report_progress(2.0, Some(2.0), None).await;
    ctx.log(LoggingLevel::Warning, Some("shop"), json!("low stock"))
        .await;
    ctx.log(LoggingLevel::Debug, None, json!("detail")).await;
    "done".into()
}

async fn collect_until_response(
    client: &mut mcpwire::transport::MemoryClient,
) -> (Vec<Value>, Value) {
    let mut notifications = Vec::new();
    loop {
        let message = next(client).await;
        if message.get("id").is_some() {
            return (notifications, message);
        }
        notifications.push(message);
    }
}

#[tokio::test]
async fn progress_goes_only_to_requests_with_a_token_and_logs_follow_the_revision() {
    let mut client = connect(McpServer::new("t").tool(chatty).unwrap()).await;

    // Modern with a token and logLevel=info: two progress notifications, the warning only.
    let mut meta = modern_meta(json!({}));
    meta["progressToken"] = json!("p-1");
    meta["io.modelcontextprotocol/logLevel"] = json!("info");
    client.send(modern_call(1, "chatty", json!({}), meta));
    let (notes, response) = collect_until_response(&mut client).await;
    assert_eq!(text(&response), "done");
    assert_eq!(
        notes,
        vec![
            json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":1.0,"total":2.0,"message":"half"}}),
            json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":2.0,"total":2.0}}),
            json!({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"shop","data":"low stock"}}),
        ]
    );

    // Modern without token or logLevel: nothing but the result.
    client.send(modern_call(2, "chatty", json!({}), modern_meta(json!({}))));
    let (notes, _) = collect_until_response(&mut client).await;
    assert!(notes.is_empty(), "{notes:?}");

    // Legacy after logging/setLevel error: no progress (no token), no log below error.
    let set =
        json!({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}});
    assert_eq!(
        exchange(&mut client, set.to_string()).await["result"],
        json!({})
    );
    client.send(call(4, "chatty", json!({})));
    let (notes, _) = collect_until_response(&mut client).await;
    assert!(notes.is_empty(), "{notes:?}");
}

#[tokio::test]
async fn modern_requests_are_validated_per_request() {
    let mut client = connect(gated_server()).await;
    let no_caps = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
    let error = exchange(&mut client, modern_call(1, "quick", json!({}), no_caps)).await;
    assert_eq!(error["error"]["code"], -32602);

    let old = json!({"io.modelcontextprotocol/protocolVersion": "2025-11-25",
                     "io.modelcontextprotocol/clientCapabilities": {}});
    let error = exchange(&mut client, modern_call(2, "quick", json!({}), old)).await;
    assert_eq!(error["error"]["code"], -32022);
    assert_eq!(
        error["error"]["data"],
        json!({"supported":["2026-07-28"],"requested":"2025-11-25"})
    );

    let set_level = json!({"jsonrpc":"2.0","id":3,"method":"logging/setLevel",
        "params":{"level":"info","_meta":modern_meta(json!({}))}});
    let error = exchange(&mut client, set_level.to_string()).await;
    assert_eq!(
        error["error"]["code"], -32601,
        "logging/setLevel is gone in 2026-07-28"
    );

    let discover = json!({"jsonrpc":"2.0","id":4,"method":"server/discover",
        "params":{"_meta":modern_meta(json!({}))}});
    let result = exchange(&mut client, discover.to_string()).await["result"].clone();
    assert_eq!(result["supportedVersions"][0], "2026-07-28");
    assert_eq!(
        result["capabilities"]["tools"],
        json!({}),
        "no catalog: the tool list never changes"
    );
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["resultType"], "complete");
}
