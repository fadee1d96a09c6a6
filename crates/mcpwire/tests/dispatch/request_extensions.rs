//! Typed values a layer attaches to a request (`McpRequest::insert_extension`,
//! `Context::extension`), over HTTP with the crate's own client on both revisions: an inner
//! layer, a resolver and the tool see what the outer layer attached, and so does the task a
//! call becomes; a server without the layer attaches nothing.

use crate::support;
use mcpwire::client::{Client, EraChoice};
use mcpwire::layer::{self, McpRequest, Next};
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use support::http::start;
use support::tasks::Caller;

/// The caller's tenant, as the outer layer decided it.
#[derive(Clone, Debug, PartialEq)]
struct Tenant(String);

/// What the tool's own layer saw, in order.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<Option<Tenant>>>>);

fn named(tenant: Option<Tenant>) -> String {
    tenant.map_or_else(|| "none".to_owned(), |tenant| tenant.0)
}

/// The tenant, through a resolver.
#[resolver]
async fn tenant(ctx: Context) -> String {
    named(ctx.extension::<Tenant>())
}

/// Names the caller's tenant, read directly and through a resolver.
#[tool(task = "optional")]
async fn whose(#[resolve(tenant)] resolved: String, ctx: Context) -> String {
    format!("{}/{resolved}", named(ctx.extension::<Tenant>()))
}

/// A server whose outer layer attaches a new tenant to each request (`tenant-1`, `tenant-2`,
/// …), and whose tool's own layer records what it sees; without `attach`, no outer layer.
fn server(seen: &Seen, attach: bool) -> McpServer {
    let seen = seen.clone();
    let recording = layer::from_fn(move |request: McpRequest, next: Next| {
        seen.0.lock().unwrap().push(request.extension::<Tenant>());
        next.run(request)
    });
    let server = McpServer::new("tenants")
        .tool(whose)
        .unwrap()
        .tool_layer("whose", recording)
        .unwrap();
    if !attach {
        return server;
    }
    let counter = Arc::new(AtomicU32::new(0));
    server.layer(layer::from_fn(move |request: McpRequest, next: Next| {
        let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
        let replaced = request.insert_extension(Tenant(format!("tenant-{n}")));
        assert_eq!(replaced, None, "a fresh request carries no tenant");
        next.run(request)
    }))
}

async fn connect(url: &str, era: EraChoice) -> Client {
    Client::builder().era(era).connect_http(url).await.unwrap()
}

/// What `whose` answers.
async fn text_of(client: &Client) -> String {
    let result = client.call_tool("whose", json!({})).await.unwrap();
    let result = serde_json::to_value(result).unwrap();
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn what_a_layer_attaches_reaches_the_inner_layers_the_resolvers_and_the_tool() {
    let seen = Seen::default();
    let running = start(server(&seen, true)).await;
    let mut tenants = Vec::new();
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let text = text_of(&connect(&running.url, era).await).await;
        let (direct, resolved) = text.split_once('/').unwrap();
        assert_eq!(direct, resolved, "{era:?}: {text}");
        assert!(direct.starts_with("tenant-"), "{era:?}: {text}");
        tenants.push(Some(Tenant(direct.to_owned())));
    }
    // The tool's own layer saw, for each call, the tenant its tool saw.
    assert_eq!(*seen.0.lock().unwrap(), tenants);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn without_the_layer_nothing_is_attached() {
    let seen = Seen::default();
    let running = start(server(&seen, false)).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let text = text_of(&connect(&running.url, era).await).await;
        assert_eq!(text, "none/none", "{era:?}");
    }
    assert_eq!(*seen.0.lock().unwrap(), [None, None]);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn the_task_a_call_becomes_keeps_what_the_layers_attached() {
    let seen = Seen::default();
    let running = start(server(&seen, true)).await;
    let caller = Caller::new(&running.url);
    let task = caller.start_task("whose", json!({})).await;
    let done = caller.wait_for(&task, "completed").await;
    let text = support::tasks::text(&done["result"]).to_owned();
    let attached = named(seen.0.lock().unwrap()[0].clone());
    assert!(attached.starts_with("tenant-"), "{attached}");
    assert_eq!(text, format!("{attached}/{attached}"));
    running.shut_down().await.unwrap();
}
