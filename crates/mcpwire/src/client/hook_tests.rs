//! Request hooks over real Streamable HTTP, against this crate's own server behind an axum
//! middleware that records every JSON-RPC request as it arrived: what each hook sees at each
//! stage (one call, one request per round; the handshake at the request stage only), the
//! order of several hooks, `_meta` entries a hook adds reaching the server (beside the client's
//! own), a call-stage edit reaching every round, and a hook that answers without sending.

use super::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook, Stage};
use super::{Client, ClientError, EraChoice};
use crate::prelude::*;
use crate::protocol::{ElicitAction, ElicitResult, ErrorObject};
use axum::body::Body;
use axum::extract::Request;
use axum::middleware::{self, Next as AxumNext};
use axum::response::Response;
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Go on?
    confirm: bool,
}

#[resolver]
async fn ask(title: String) -> Elicit<Confirm> {
    Elicit::ask(format!("Order {title}?"))
}

/// Orders after asking.
#[tool]
async fn order(title: String, #[resolve(ask)] answer: Confirm) -> String {
    format!("Ordered {title}: {}.", answer.confirm)
}

/// What arrived at the server: each JSON-RPC request's method and params.
type Arrived = Arc<Mutex<Vec<(String, Value)>>>;

/// The server over HTTP on a free port, behind a middleware that records each request; its URL.
async fn serve(arrived: Arrived) -> String {
    let router = McpServer::new("hooked")
        .tool(add)
        .unwrap()
        .tool(order)
        .unwrap()
        .into_router()
        .await
        .unwrap()
        .layer(middleware::from_fn(
            move |request: Request, next: AxumNext| {
                let arrived = arrived.clone();
                async move {
                    let (parts, body) = request.into_parts();
                    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
                    if let Ok(message) = serde_json::from_slice::<Value>(&bytes)
                        && let (Some(method), Some(_)) =
                            (message["method"].as_str(), message.get("id"))
                    {
                        let params = message.get("params").cloned().unwrap_or(Value::Null);
                        arrived.lock().unwrap().push((method.to_owned(), params));
                    }
                    let response: Response = next
                        .run(Request::from_parts(parts, Body::from(bytes)))
                        .await;
                    response
                }
            },
        ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// One `wrap` as a hook saw it.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    hook: &'static str,
    stage: Stage,
    method: String,
    version: Option<String>,
    /// Whether the params carried `inputResponses` (a round after the first).
    answering: bool,
    /// How the request ended, when the hook saw it end.
    ended: Option<bool>,
}

type Log = Arc<Mutex<Vec<Seen>>>;

/// Records what it sees, tags each request with its name in `_meta` (at the request stage)
/// and each call (at the call stage), and notes how each request ended.
struct Recorder {
    name: &'static str,
    log: Log,
}

impl RequestHook for Recorder {
    fn wrap<'a>(
        &'a self,
        mut request: HookedRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, RawReply> {
        let seen = Seen {
            hook: self.name,
            stage: request.stage(),
            method: request.method().to_owned(),
            version: request.version().map(str::to_owned),
            answering: request.params().contains_key("inputResponses"),
            ended: None,
        };
        let key = match request.stage() {
            Stage::Call => format!("example.com/call-{}", self.name),
            _ => format!("example.com/request-{}", self.name),
        };
        request.meta_mut().insert(key, json!(true));
        self.log.lock().unwrap().push(seen.clone());
        Box::pin(async move {
            let reply = next.run(request).await;
            self.log.lock().unwrap().push(Seen {
                ended: Some(reply.is_ok()),
                ..seen
            });
            reply
        })
    }
}

async fn connect(url: &str, era: EraChoice, log: &Log) -> Client {
    Client::builder()
        .era(era)
        .hook(Recorder {
            name: "a",
            log: log.clone(),
        })
        .hook(Recorder {
            name: "b",
            log: log.clone(),
        })
        .on_form_elicitation(|_question| async {
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"confirm": true}).as_object().cloned(),
            }
        })
        .connect_http(url)
        .await
        .unwrap()
}

/// The log's entries, from the start; emptied.
fn take(log: &Log) -> Vec<(&'static str, Stage, String, Option<bool>)> {
    std::mem::take(&mut *log.lock().unwrap())
        .into_iter()
        .map(|s| (s.hook, s.stage, s.method, s.ended))
        .collect()
}

fn meta_of(params: &Value) -> &Map<String, Value> {
    params["_meta"].as_object().expect("a _meta object")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hooks_wrap_each_call_and_each_request_of_it() {
    use Stage::{Call, Request};
    let arrived = Arrived::default();
    let url = serve(arrived.clone()).await;
    let log = Log::default();

    // 2026-07-28. The handshake is no call: the request stage only (the revision pinned).
    let client = connect(&url, EraChoice::Modern, &log).await;
    let discover = std::mem::take(&mut *log.lock().unwrap());
    assert_eq!(discover.len(), 4, "{discover:?}");
    assert!(
        discover.iter().all(|s| s.stage == Request
            && s.method == "server/discover"
            && s.version.as_deref() == Some("2026-07-28")),
        "{discover:?}"
    );
    arrived.lock().unwrap().clear();

    // One call, one request: both stages, the hooks in the order installed, each around the next.
    let sum = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"result": 5})));
    let t = "tools/call".to_owned();
    assert_eq!(
        take(&log),
        [
            ("a", Call, t.clone(), None),
            ("b", Call, t.clone(), None),
            ("a", Request, t.clone(), None),
            ("b", Request, t.clone(), None),
            ("b", Request, t.clone(), Some(true)),
            ("a", Request, t.clone(), Some(true)),
            ("b", Call, t.clone(), Some(true)),
            ("a", Call, t.clone(), Some(true)),
        ]
    );
    let requests = std::mem::take(&mut *arrived.lock().unwrap());
    assert_eq!(requests.len(), 1, "{requests:?}");
    let (method, params) = &requests[0];
    assert_eq!(method, "tools/call");
    let meta = meta_of(params);
    for key in ["call-a", "call-b", "request-a", "request-b"] {
        assert_eq!(meta[&format!("example.com/{key}")], true, "{meta:?}");
    }
    // Beside the client's own entries.
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );

    // Two rounds (input_required, then the answer): one call, two requests, the second
    // answering; the call-stage entries in both rounds' `_meta`.
    let full = std::mem::take(&mut *log.lock().unwrap());
    assert!(full.is_empty());
    let ordered = client
        .call_tool("order", json!({"title": "Dune"}))
        .await
        .unwrap();
    assert_eq!(ordered.content, [Content::text("Ordered Dune: true.")]);
    let seen = std::mem::take(&mut *log.lock().unwrap());
    let of_a: Vec<_> = seen
        .iter()
        .filter(|s| s.hook == "a" && s.ended.is_none())
        .map(|s| (s.stage, s.answering, s.version.as_deref()))
        .collect();
    assert_eq!(
        of_a,
        [
            (Call, false, Some("2026-07-28")),
            (Request, false, Some("2026-07-28")),
            (Request, true, Some("2026-07-28")),
        ],
        "{seen:?}"
    );
    // The call ends last, after both rounds.
    let last = seen.last().unwrap();
    assert_eq!((last.hook, last.stage, last.ended), ("a", Call, Some(true)));
    let requests = std::mem::take(&mut *arrived.lock().unwrap());
    assert_eq!(requests.len(), 2, "{requests:?}");
    for (round, (method, params)) in requests.iter().enumerate() {
        assert_eq!(method, "tools/call");
        let meta = meta_of(params);
        for key in ["call-a", "call-b", "request-a", "request-b"] {
            assert_eq!(
                meta[&format!("example.com/{key}")],
                true,
                "round {round}: {meta:?}"
            );
        }
        assert_eq!(params.get("inputResponses").is_some(), round == 1);
    }

    // 2025-11-25: `initialize` at the request stage only; the question comes from the server
    // inside the call and is no request of the client's.
    let client = connect(&url, EraChoice::Legacy, &log).await;
    let handshake = take(&log);
    assert_eq!(
        handshake,
        [
            ("a", Request, "initialize".into(), None),
            ("b", Request, "initialize".into(), None),
            ("b", Request, "initialize".into(), Some(true)),
            ("a", Request, "initialize".into(), Some(true)),
        ]
    );
    arrived.lock().unwrap().clear();
    let ordered = client
        .call_tool("order", json!({"title": "Dune"}))
        .await
        .unwrap();
    assert_eq!(ordered.content, [Content::text("Ordered Dune: true.")]);
    let seen = std::mem::take(&mut *log.lock().unwrap());
    let calls: Vec<_> = seen
        .iter()
        .filter(|s| s.ended.is_none())
        .map(|s| (s.hook, s.stage, s.version.as_deref()))
        .collect();
    assert_eq!(
        calls,
        [
            ("a", Call, Some("2025-11-25")),
            ("b", Call, Some("2025-11-25")),
            ("a", Request, Some("2025-11-25")),
            ("b", Request, Some("2025-11-25")),
        ]
    );
    let requests = std::mem::take(&mut *arrived.lock().unwrap());
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(meta_of(&requests[0].1)["example.com/request-b"], true);
}

/// Refuses calls of `add` with a JSON-RPC error of its own, without sending them.
struct NoAdding;

impl RequestHook for NoAdding {
    fn wrap<'a>(&'a self, request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply> {
        if request.params().get("name").and_then(Value::as_str) == Some("add") {
            let refused = ErrorObject::new(-32000, "no adding here");
            return Box::pin(async move { Err(ClientError::Rpc(refused)) });
        }
        next.run(request)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hook_may_answer_without_sending() {
    let arrived = Arrived::default();
    let url = serve(arrived.clone()).await;
    let client = Client::builder()
        .era(EraChoice::Modern)
        .hook(NoAdding)
        .connect_http(&url)
        .await
        .unwrap();
    arrived.lock().unwrap().clear();
    let refused = client.call_tool("add", json!({"a": 1, "b": 1})).await;
    assert!(
        matches!(&refused, Err(ClientError::Rpc(error)) if error.message == "no adding here"),
        "{refused:?}"
    );
    assert!(arrived.lock().unwrap().is_empty(), "nothing was sent");
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(arrived.lock().unwrap().len(), 1);
}
