//! The authorization decision cannot be dodged: a property test over random requests against a
//! server whose tools, prompts, resources and completions need scopes, behind the application's
//! own middleware (it inserts the `Grant` an `x-scopes` header names, as `context/grant.rs`
//! documents).
//!
//! Each case draws a method, a target (a name or URI of any kind, known or not), extra fields in
//! `params`, `Mcp-Method`/`Mcp-Name` headers (absent, right or wrong, plain or Base64), the era
//! (a 2025-11-25 session, or a stateless 2026-07-28 request) and a grant. The property: a
//! handler runs only if the grant holds its scopes; a refused request runs nothing, not even the
//! server's middleware (a server-wide layer counts what reaches it); a request the grant does not
//! cover is refused with `403 insufficient_scope` (on 2026-07-28 a header that disagrees with
//! the body is refused first, with `400`, as the spec orders).

use crate::support;
use base64::Engine as _;
use mcpwire::prelude::*;
use mcpwire::protocol::Completion;
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::http::*;

/// How many handlers (tool and prompt bodies, resource readers, the completer) have run.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// How many requests have reached the server's layer.
static LAYERED: AtomicUsize = AtomicUsize::new(0);

fn ran() -> &'static str {
    RUNS.fetch_add(1, Ordering::SeqCst);
    "ran"
}

/// Needs nothing.
#[tool]
async fn open_tool() -> String {
    ran().into()
}

/// Needs `a`.
#[tool(scopes = ["a"])]
async fn scoped_tool() -> String {
    ran().into()
}

/// Needs `a` and `b`.
#[tool(scopes = ["a", "b"])]
async fn both_tool() -> String {
    ran().into()
}

/// Needs nothing.
#[prompt]
async fn open_prompt(topic: String) -> String {
    format!("{} {topic}", ran())
}

/// Needs `b`.
#[prompt(scopes = ["b"])]
async fn scoped_prompt(topic: String) -> String {
    format!("{} {topic}", ran())
}

/// Needs nothing.
#[resource(uri = "shop://open")]
async fn open_resource() -> String {
    ran().into()
}

/// Needs `a`.
#[resource(uri = "shop://secret", scopes = ["a"])]
async fn secret() -> String {
    ran().into()
}

/// Needs `b`.
#[resource(uri = "shop://items/{id}", scopes = ["b"])]
async fn item(id: String) -> String {
    format!("{} {id}", ran())
}

/// Every name and URI a request may target; the last ones are unknown.
const TARGETS: &[&str] = &[
    "open_tool",
    "scoped_tool",
    "both_tool",
    "open_prompt",
    "scoped_prompt",
    "shop://open",
    "shop://secret",
    "shop://items/7",
    "shop://items/{id}",
    "ghost",
    "shop://ghost",
];

const METHODS: &[&str] = &[
    "tools/call",
    "prompts/get",
    "resources/read",
    "resources/subscribe",
    "completion/complete",
];

/// The scopes `method` on `target` needs, or `None` when nothing serves it.
fn needed(method: &str, target: &str) -> Option<&'static [&'static str]> {
    match (method, target) {
        ("tools/call", "open_tool") => Some(&[]),
        ("tools/call", "scoped_tool") => Some(&["a"]),
        ("tools/call", "both_tool") => Some(&["a", "b"]),
        ("prompts/get" | "completion/complete", "open_prompt") => Some(&[]),
        ("prompts/get" | "completion/complete", "scoped_prompt") => Some(&["b"]),
        ("resources/read" | "resources/subscribe", "shop://open") => Some(&[]),
        ("resources/read" | "resources/subscribe", "shop://secret") => Some(&["a"]),
        // The template matches its own text too (`id` = `{id}`).
        ("resources/read" | "resources/subscribe", "shop://items/7" | "shop://items/{id}") => {
            Some(&["b"])
        }
        ("completion/complete", "shop://items/{id}") => Some(&["b"]),
        _ => None,
    }
}

/// Whether the request runs a handler when admitted (a subscription runs none).
fn runs_a_handler(method: &str) -> bool {
    method != "resources/subscribe"
}

/// A header value as drawn: absent, or a value sent plain or Base64-encoded.
#[derive(Clone, Debug)]
enum Sent {
    Absent,
    Plain(String),
    Encoded(String),
}

impl Sent {
    fn value(&self) -> Option<String> {
        match self {
            Sent::Absent => None,
            Sent::Plain(value) => Some(value.clone()),
            Sent::Encoded(value) => Some(format!(
                "=?base64?{}?=",
                base64::engine::general_purpose::STANDARD.encode(value)
            )),
        }
    }

    fn decoded(&self) -> Option<&str> {
        match self {
            Sent::Absent => None,
            Sent::Plain(value) | Sent::Encoded(value) => Some(value),
        }
    }
}

/// A header drawn: absent, the right value, or any other one; plain or encoded.
fn header(right: String, others: &'static [&'static str]) -> impl Strategy<Value = Sent> {
    let value = prop_oneof![
        Just(right),
        prop::sample::select(others).prop_map(String::from)
    ];
    prop_oneof![
        1 => Just(Sent::Absent),
        3 => value.clone().prop_map(Sent::Plain),
        2 => value.prop_map(Sent::Encoded),
    ]
}

#[derive(Clone, Debug)]
struct Case {
    modern: bool,
    method: &'static str,
    target: &'static str,
    extra: Vec<(&'static str, Value)>,
    mcp_method: Sent,
    mcp_name: Sent,
    scopes: Vec<&'static str>,
}

/// Extra fields a request may carry besides its own, with values of the wrong type or naming
/// something else.
fn extras() -> impl Strategy<Value = Vec<(&'static str, Value)>> {
    let field = prop_oneof![
        Just(("uri", json!(0))),
        Just(("uri", json!("shop://open"))),
        Just(("name", json!(5))),
        Just(("name", json!("open_tool"))),
        Just(("taskId", json!("t-1"))),
        Just(("ref", json!({"type": "ref/prompt", "name": "open_prompt"}))),
        Just(("arguments", json!({"topic": "x", "admin": true}))),
        Just(("cursor", json!(null))),
    ];
    prop::collection::vec(field, 0..3)
}

fn cases() -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        prop::sample::select(METHODS),
        prop::sample::select(TARGETS),
        extras(),
        prop::sample::subsequence(vec!["a", "b", "c"], 0..=3),
    )
        .prop_flat_map(|(modern, method, target, extra, scopes)| {
            let mcp_method = header(method.to_owned(), METHODS);
            let mcp_name = header(target.to_owned(), TARGETS);
            (mcp_method, mcp_name).prop_map(move |(mcp_method, mcp_name)| Case {
                modern,
                method,
                target,
                extra: extra.clone(),
                mcp_method,
                mcp_name,
                scopes: scopes.clone(),
            })
        })
        // `resources/subscribe` is a 2025-11-25 method.
        .prop_filter("subscribe is a session method", |case| {
            !(case.modern && case.method == "resources/subscribe")
        })
}

impl Case {
    /// The request's `params`: its own fields, then the extra ones that do not replace them.
    fn params(&self) -> Value {
        let mut params = Map::new();
        match self.method {
            "tools/call" => {
                params.insert("name".into(), json!(self.target));
                params.insert("arguments".into(), json!({}));
            }
            "prompts/get" => {
                params.insert("name".into(), json!(self.target));
                params.insert("arguments".into(), json!({"topic": "x"}));
            }
            "resources/read" | "resources/subscribe" => {
                params.insert("uri".into(), json!(self.target));
            }
            _ => {
                let reference = if self.target.starts_with("shop://") {
                    json!({"type": "ref/resource", "uri": self.target})
                } else {
                    json!({"type": "ref/prompt", "name": self.target})
                };
                let argument = if self.target.starts_with("shop://") {
                    "id"
                } else {
                    "topic"
                };
                params.insert("ref".into(), reference);
                params.insert("argument".into(), json!({"name": argument, "value": "x"}));
            }
        }
        for (key, value) in &self.extra {
            params.entry(*key).or_insert_with(|| value.clone());
        }
        if self.modern {
            params.insert("_meta".into(), meta());
        }
        Value::Object(params)
    }

    /// The value `Mcp-Name` mirrors for this method, if it mirrors one.
    fn mirrored_name(&self) -> Option<&str> {
        matches!(self.method, "tools/call" | "prompts/get" | "resources/read")
            .then_some(self.target)
    }

    /// Whether the headers disagree with the body as the revision reads them: on 2026-07-28
    /// both are required; on a session each one sent must agree.
    fn headers_disagree(&self) -> bool {
        let method_wrong = match self.mcp_method.decoded() {
            None => self.modern,
            Some(sent) => sent != self.method,
        };
        let name_wrong = match (self.mirrored_name(), self.mcp_name.decoded()) {
            (None, _) => false,
            (Some(_), None) => self.modern,
            (Some(name), Some(sent)) => sent != name,
        };
        method_wrong || name_wrong
    }
}

/// The server, its session (opened once), and the runtime they run on.
struct World {
    runtime: tokio::runtime::Runtime,
    server: Running,
    session: String,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (server, session) = runtime.block_on(async {
            let server = McpServer::new("scoped")
                .tool(open_tool)
                .unwrap()
                .tool(scoped_tool)
                .unwrap()
                .tool(both_tool)
                .unwrap()
                .prompt(open_prompt)
                .unwrap()
                .prompt(scoped_prompt)
                .unwrap()
                .resource(open_resource)
                .unwrap()
                .resource(secret)
                .unwrap()
                .resource(item)
                .unwrap()
                .completion(|_request, _ctx| async {
                    ran();
                    Completion::default()
                })
                .layer(mcpwire::layer::from_fn(
                    |request: mcpwire::layer::McpRequest, next: mcpwire::layer::Next| {
                        LAYERED.fetch_add(1, Ordering::SeqCst);
                        next.run(request)
                    },
                ));
            let router = server.http().into_router().await.unwrap();
            let running =
                start_router(router.layer(axum::middleware::from_fn(grant_from_header))).await;
            let session = running.initialize_with(&[("x-scopes", "")]).await;
            (running, session)
        });
        World {
            runtime,
            server,
            session,
        }
    })
}

/// The application's own authentication: the caller is `p`, granted the scopes `x-scopes`
/// names (space-separated).
async fn grant_from_header(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let scopes = request
        .headers()
        .get("x-scopes")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
    if let Some(scopes) = scopes {
        let extensions = request.extensions_mut();
        extensions.insert(mcpwire::context::Principal("p".into()));
        extensions.insert(mcpwire::context::Grant::new(scopes));
    }
    next.run(request).await
}

/// Sends `case`; returns the status and the JSON-RPC response.
fn send(case: &Case) -> (u16, Value) {
    let world = world();
    world.runtime.block_on(async {
        let body =
            json!({"jsonrpc": "2.0", "id": 9, "method": case.method, "params": case.params()});
        let scopes = case.scopes.join(" ");
        let mut headers: Vec<(&str, String)> = vec![("x-scopes", scopes)];
        if case.modern {
            headers.push(("mcp-protocol-version", MODERN.to_owned()));
        } else {
            headers.push(("mcp-protocol-version", LEGACY.to_owned()));
            headers.push(("mcp-session-id", world.session.clone()));
        }
        if let Some(value) = case.mcp_method.value() {
            headers.push(("mcp-method", value));
        }
        if let Some(value) = case.mcp_name.value() {
            headers.push(("mcp-name", value));
        }
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let response = world.server.post_raw(body.to_string(), &headers).await;
        status_and_message(response).await
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_scoped_handler_runs_only_when_the_grant_allows_it(case in cases()) {
        let (before, layered_before) = (RUNS.load(Ordering::SeqCst), LAYERED.load(Ordering::SeqCst));
        let (status, answer) = send(&case);
        let runs = RUNS.load(Ordering::SeqCst) - before;
        let layered = LAYERED.load(Ordering::SeqCst) - layered_before;
        let needed = needed(case.method, case.target);
        let allowed = needed.is_some_and(|needed| needed.iter().all(|s| case.scopes.contains(s)));
        let code = answer["error"]["code"].as_i64();
        if case.modern && case.headers_disagree() {
            // The spec's order on 2026-07-28: a header mismatch wins over any other error.
            prop_assert_eq!((status, code), (400, Some(-32020)), "{:?}: {}", case, answer);
            prop_assert_eq!(runs, 0);
        } else if needed.is_some() && !allowed {
            prop_assert_eq!(status, 403, "{:?}: {}", case, answer);
            prop_assert_eq!(code, Some(-32003), "{:?}: {}", case, answer);
            prop_assert_eq!(runs, 0, "a refused request ran a handler: {:?}", case);
            prop_assert_eq!(layered, 0, "a refused request reached a layer: {:?}", case);
        } else if case.headers_disagree() || needed.is_none() {
            prop_assert!(code.is_some(), "{:?}: {}", case, answer);
            prop_assert_eq!(runs, 0, "{:?}", case);
        } else {
            prop_assert_eq!(status, 200, "{:?}: {}", case, answer);
            prop_assert!(answer.get("result").is_some(), "{:?}: {}", case, answer);
            let expected_runs = usize::from(runs_a_handler(case.method));
            prop_assert_eq!(runs, expected_runs, "{:?}: {}", case, answer);
            prop_assert_eq!(layered, 1, "{:?}: {}", case, answer);
        }
    }
}
