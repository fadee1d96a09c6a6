//! The extension seam (`mcpwire::extension`), driven by the crate's own client over HTTP on both
//! revisions: an extension's capability entry is declared where it is offered, its methods are
//! served there and nowhere else, what it refuses at admission never reaches a layer, and a
//! broken installation fails when the server is built, naming what is wrong.

use crate::support;
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::context::Grant;
use mcpwire::extension::{Admission, Eras, ExtensionMethod, ExtensionRequest, MethodFuture};
use mcpwire::layer::{self, McpRequest, Next};
use mcpwire::prelude::*;
use mcpwire::server::{Extension, Install};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use support::http::*;

const LEDGER: &str = "example.com/ledger";
const NEWS: &str = "example.com/news";

/// An extension offered on both revisions: `ledger/balance` for anyone, `ledger/audit` only
/// for clients that declared the extension and hold `audit:read`.
struct Ledger;

impl Extension for Ledger {
    const ID: &'static str = LEDGER;

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        install
            .settings(json!({ "currency": "EUR" }))
            .method("ledger/balance", |request: ExtensionRequest| async move {
                let account: Value = request.params()?;
                Ok(json!({
                    "account": account["account"],
                    "balance": 42,
                    "negotiated": request.negotiated(),
                }))
            })
            .method("ledger/audit", Audit);
        Ok(())
    }
}

/// `ledger/audit`: refused at admission unless declared and granted.
struct Audit;

impl ExtensionMethod for Audit {
    fn admit(&self, request: ExtensionRequest) -> Admission {
        Box::pin(async move {
            request.require_negotiated()?;
            request.authorize(&["audit:read"])?;
            let serve: MethodFuture = Box::pin(async move { Ok(json!({ "entries": [] })) });
            Ok(serve)
        })
    }
}

/// An extension offered on 2026-07-28 only.
struct News;

impl Extension for News {
    const ID: &'static str = NEWS;

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        install
            .offered_on(Eras::MODERN)
            .method("news/latest", |_request: ExtensionRequest| async move {
                Ok(json!({ "headline": "extensions land" }))
            });
        Ok(())
    }
}

/// The methods every request that reached the server-wide layer named, in order.
type Seen = Arc<Mutex<Vec<String>>>;

fn server(seen: &Seen, grant: Option<Grant>) -> McpServer {
    let seen = Arc::clone(seen);
    let server = McpServer::new("ledger")
        .extension(Ledger)
        .unwrap()
        .extension(News)
        .unwrap()
        .layer(layer::from_fn(move |request: McpRequest, next: Next| {
            seen.lock().unwrap().push(request.method().to_owned());
            next.run(request)
        }));
    match grant {
        Some(grant) => server.local_grant(grant),
        None => server,
    }
}

async fn client(url: &str, era: EraChoice, declares: bool) -> Client {
    let builder = Client::builder().era(era);
    let builder = match declares {
        true => builder.extension(LEDGER, json!({})),
        false => builder,
    };
    builder.connect_http(url).await.unwrap()
}

fn extensions_of(client: &Client) -> Value {
    let capabilities = serde_json::to_value(client.server().capabilities).unwrap();
    capabilities["extensions"].clone()
}

fn code_of(error: ClientError) -> Option<i32> {
    error.rpc_code()
}

#[tokio::test]
async fn an_extension_is_declared_and_served_where_it_is_offered_on_both_revisions() {
    let seen = Seen::default();
    let running = start(server(&seen, None)).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era, true).await;
        let declared = extensions_of(&client);
        assert_eq!(declared[LEDGER], json!({ "currency": "EUR" }), "{era:?}");
        let news_declared = declared.get(NEWS).is_some();
        assert_eq!(
            news_declared,
            era == EraChoice::Modern,
            "{era:?}: {declared}"
        );

        let balance = client
            .request("ledger/balance", json!({ "account": "A-1" }))
            .await
            .unwrap();
        assert_eq!(balance["account"], "A-1");
        assert_eq!(balance["balance"], 42);
        assert_eq!(balance["negotiated"], true, "{era:?}");

        let news = client.request("news/latest", json!({})).await;
        match era {
            EraChoice::Modern => assert_eq!(news.unwrap()["headline"], "extensions land"),
            _ => assert_eq!(news.map_err(code_of).unwrap_err(), Some(-32601)),
        }
        let unknown = client.request("ledger/nothing", json!({})).await;
        assert_eq!(unknown.map_err(code_of).unwrap_err(), Some(-32601));
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_client_that_did_not_declare_the_extension_is_told_so_and_the_params_are_checked() {
    let seen = Seen::default();
    let running = start(server(&seen, None)).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era, false).await;
        let balance = client.request("ledger/balance", json!({})).await.unwrap();
        assert_eq!(balance["negotiated"], false, "{era:?}");
        let refused = client.request("ledger/audit", json!({})).await.unwrap_err();
        assert_eq!(refused.rpc_code(), Some(-32021), "{era:?}: {refused}");
        assert!(refused.to_string().contains(LEDGER), "{refused}");

        let client = self::client(&running.url, era, true).await;
        let malformed = client.request("ledger/balance", json!([1, 2])).await;
        assert!(malformed.is_err(), "{era:?}: params that are not an object");
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_request_an_extension_refuses_at_admission_never_reaches_a_layer() {
    let seen = Seen::default();
    let running = start(server(&seen, None)).await;
    let client = client(&running.url, EraChoice::Modern, false).await;
    seen.lock().unwrap().clear();
    let refused = client.request("ledger/audit", json!({})).await.unwrap_err();
    assert_eq!(refused.rpc_code(), Some(-32021));
    client.request("ledger/balance", json!({})).await.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["ledger/balance"]);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn the_scope_decision_is_the_cores_own() {
    for (scopes, allowed) in [(vec!["audit:read"], true), (vec!["books:read"], false)] {
        let seen = Seen::default();
        let server = server(&seen, Some(Grant::new(scopes.clone())));
        let client = Client::builder()
            .era(EraChoice::Modern)
            .extension(LEDGER, json!({}))
            .connect_memory(server)
            .await
            .unwrap();
        let audit = client.request("ledger/audit", json!({})).await;
        match allowed {
            true => assert_eq!(audit.unwrap()["entries"], json!([])),
            false => {
                let refused = audit.unwrap_err();
                assert_eq!(refused.rpc_code(), Some(-32003), "{refused}");
                assert!(refused.to_string().contains("audit:read"), "{refused}");
                assert!(!seen.lock().unwrap().iter().any(|m| m == "ledger/audit"));
            }
        }
    }
}

/// Binds one method, whatever it is called.
struct Binds(&'static str);

impl Extension for Binds {
    const ID: &'static str = "example.com/binds";

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        install.method(
            self.0,
            |_request: ExtensionRequest| async move { Ok(json!({})) },
        );
        Ok(())
    }
}

/// Binds `ledger/balance` under another identifier.
struct Squatter;

impl Extension for Squatter {
    const ID: &'static str = "example.com/squatter";

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        install.method("ledger/balance", |_request: ExtensionRequest| async move {
            Ok(json!({}))
        });
        Ok(())
    }
}

/// Why installing was refused.
fn refusal(installed: Result<McpServer, InvalidSignature>) -> InvalidSignature {
    match installed {
        Ok(_) => panic!("the installation was accepted"),
        Err(refused) => refused,
    }
}

#[test]
fn a_broken_installation_fails_naming_what_is_wrong() {
    let core = refusal(McpServer::new("x").extension(Binds("tools/call")));
    assert!(
        core.message()
            .contains("'tools/call' is a method of the core protocol"),
        "{core}"
    );

    let twice = refusal(
        McpServer::new("x")
            .extension(Ledger)
            .unwrap()
            .extension(Ledger),
    );
    assert!(twice.message().contains("installed twice"), "{twice}");

    let taken = refusal(
        McpServer::new("x")
            .extension(Ledger)
            .unwrap()
            .extension(Squatter),
    );
    assert!(
        taken
            .message()
            .contains("'ledger/balance' is served by 'example.com/ledger'"),
        "{taken}"
    );
}

#[tokio::test]
async fn the_tasks_extension_keeps_its_methods_from_others() {
    /// A tool that takes tasks: the server offers the tasks extension.
    #[tool(task = "optional")]
    async fn slow() -> String {
        "done".into()
    }
    let server = McpServer::new("x")
        .tool(slow)
        .unwrap()
        .extension(Binds("tasks/get"))
        .unwrap();
    let refused = Client::builder().connect_memory(server).await.unwrap_err();
    assert!(
        refused.to_string().contains("'tasks/get' is served by"),
        "{refused}"
    );
}
