//! `McpServer::mount`: a catalogue server mounted in a shop under `books`, driven over HTTP by
//! the crate's own client on both revisions. The mounted tool's resolver still asks its
//! question (answered by the client), its resource template and prompt are served under the
//! namespace, the mounted server's layer wraps its own handlers and no other, its completer
//! answers for its own prompts and templates (nested mounts included), its MCP Apps views are
//! served under the namespace with its tools pointing at them (and called by the names the views
//! know, as aliases), and what cannot be mounted is
//! refused at registration, naming the cause.

use crate::support;
use mcpwire::apps::{self, Apps, View};
use mcpwire::client::{Client, EraChoice};
use mcpwire::layer::{self, McpRequest, Next};
use mcpwire::prelude::*;
use mcpwire::protocol::{
    CompleteParams, Completion, CompletionReference, Content, ElicitResult, ResourceContents,
};
use mcpwire::server::{CompletionFuture, Extension, Install};
use serde_json::json;
use std::sync::{Arc, Mutex};
use support::http::start;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Copies {
    /// How many copies.
    copies: u32,
}

/// How many copies to reserve, asked of the user.
#[resolver]
async fn how_many() -> Elicit<Copies> {
    Elicit::ask("How many copies?")
}

/// Reserves copies of a book.
#[tool]
async fn reserve(title: String, #[resolve(how_many)] copies: Copies) -> String {
    format!("reserved {} of {title}", copies.copies)
}

/// A book's stock.
#[resource(uri = "shop://stock/{isbn}", mime_type = "text/plain")]
async fn stock(isbn: String) -> String {
    format!("3 copies of {isbn}")
}

/// A blurb for a book.
#[prompt]
async fn blurb(title: String) -> String {
    format!("Write a blurb for {title}.")
}

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The names of the handlers a layer saw, in order.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

fn catalogue(seen: &Seen) -> McpServer {
    let seen = seen.clone();
    McpServer::new("catalogue")
        .tool(reserve)
        .unwrap()
        .resource(stock)
        .unwrap()
        .prompt(blurb)
        .unwrap()
        .layer(layer::from_fn(move |request: McpRequest, next: Next| {
            seen.0
                .lock()
                .unwrap()
                .push(request.target().unwrap_or("").to_owned());
            next.run(request)
        }))
}

fn shop(seen: &Seen) -> McpServer {
    McpServer::new("shop")
        .tool(add)
        .unwrap()
        .mount("books", catalogue(seen))
        .unwrap()
}

async fn connect(url: &str, era: EraChoice) -> Client {
    Client::builder()
        .era(era)
        .on_form_elicitation(|_question| async {
            let answer = json!({"action": "accept", "content": {"copies": 2}});
            serde_json::from_value::<ElicitResult>(answer).unwrap()
        })
        .connect_http(url)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_mounted_server_is_served_under_its_namespace_on_both_revisions() {
    let seen = Seen::default();
    let running = start(shop(&seen)).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = connect(&running.url, era).await;
        let mut tools: Vec<String> = (client.list_tools().await.unwrap())
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        tools.sort();
        assert_eq!(tools, ["add", "books_reserve"], "{era:?}");

        // The mounted tool's resolver asks the client, as it did in its own server.
        let reserved = client
            .call_tool("books_reserve", json!({"title": "Dune"}))
            .await
            .unwrap();
        let expected = Content::text("reserved 2 of Dune");
        assert_eq!(reserved.content, vec![expected], "{era:?}");
        let sum = client.call_tool("add", json!({"a": 2, "b": 3})).await;
        assert_eq!(sum.unwrap().content, vec![Content::text("5")], "{era:?}");

        let templates = client.list_resource_templates().await.unwrap();
        let uris: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
        assert_eq!(uris, ["shop://books/stock/{isbn}"], "{era:?}");
        let read = client.read_resource("shop://books/stock/42").await.unwrap();
        match &read.contents[..] {
            [ResourceContents::Text { uri, text, .. }] => {
                assert_eq!(
                    (uri.as_str(), text.as_str()),
                    ("shop://books/stock/42", "3 copies of 42")
                );
            }
            other => panic!("{era:?}: {other:?}"),
        }

        let prompts = client.list_prompts().await.unwrap();
        assert_eq!(prompts[0].name, "books_blurb", "{era:?}");
        let prompt = client
            .get_prompt("books_blurb", [("title", "Dune")])
            .await
            .unwrap();
        let text = serde_json::to_value(&prompt.messages[0].content).unwrap();
        assert_eq!(text["text"], "Write a blurb for Dune.", "{era:?}");
        client.close().await;
    }
    // The catalogue's layer saw its own handlers (a call answered in rounds passes it once a
    // round) and never `add`.
    let seen = seen.0.lock().unwrap().clone();
    assert!(!seen.iter().any(|target| target == "add"), "{seen:?}");
    for target in ["books_reserve", "shop://books/stock/42", "books_blurb"] {
        assert!(seen.iter().any(|t| t == target), "{target} in {seen:?}");
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn with_no_namespace_the_entries_keep_their_names() {
    let server = McpServer::new("shop").mount("", catalogue(&Seen::default()));
    let running = start(server.unwrap()).await;
    let client = connect(&running.url, EraChoice::Modern).await;
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools[0].name, "reserve");
    let read = client.read_resource("shop://stock/7").await.unwrap();
    assert_eq!(read.contents.len(), 1);
    client.close().await;
    running.shut_down().await.unwrap();
}

/// A summary of an old edition.
#[prompt]
async fn summary(title: String) -> String {
    format!("Summarize {title}.")
}

/// A greeting.
#[prompt]
async fn greet(name: String) -> String {
    format!("Greet {name}.")
}

/// A completer that answers with what it was asked about, as `{server}:{reference}`.
fn echoing(server: &'static str) -> impl Fn(CompleteParams, Context) -> CompletionFuture {
    move |request: CompleteParams, _ctx: Context| {
        let about = match request.reference {
            CompletionReference::Prompt { name, .. } => name,
            CompletionReference::Resource { uri } => uri,
        };
        Box::pin(async move { Completion::from_values([format!("{server}:{about}")]) })
    }
}

#[tokio::test]
async fn a_mounted_servers_completer_answers_for_its_own_entries_under_their_names_there() {
    // archive (summary) mounted in catalogue (blurb, stock) under `old`, catalogue in the shop
    // (greet) under `books`; each with a completer of its own, the shop's set after the mount.
    let archive = McpServer::new("archive")
        .prompt(summary)
        .unwrap()
        .completion(echoing("archive"));
    let catalogue = catalogue(&Seen::default())
        .completion(echoing("catalogue"))
        .mount("old", archive)
        .unwrap();
    let shop = McpServer::new("shop")
        .prompt(greet)
        .unwrap()
        .mount("books", catalogue)
        .unwrap()
        .completion(echoing("shop"));
    let running = start(shop).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = connect(&running.url, era).await;
        let prompt = |name: &str| CompletionReference::Prompt {
            name: name.into(),
            title: None,
        };
        let template = CompletionReference::Resource {
            uri: "shop://books/stock/{isbn}".into(),
        };
        for (reference, argument, answer) in [
            (prompt("greet"), "name", "shop:greet"),
            (prompt("books_blurb"), "title", "catalogue:blurb"),
            (template, "isbn", "catalogue:shop://stock/{isbn}"),
            (prompt("books_old_summary"), "title", "archive:summary"),
        ] {
            let asked = format!("{reference:?}");
            let completed = client.complete(reference, argument, "").await;
            let completed = completed.unwrap_or_else(|e| panic!("{era:?} {asked}: {e}"));
            assert_eq!(completed.completion.values, [answer], "{era:?} {asked}");
        }
        client.close().await;
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_mounted_completer_gives_a_server_without_one_the_capability() {
    let catalogue = catalogue(&Seen::default()).completion(echoing("catalogue"));
    let shop = McpServer::new("shop").prompt(greet).unwrap();
    let running = start(shop.mount("books", catalogue).unwrap()).await;
    let client = connect(&running.url, EraChoice::Modern).await;
    let prompt = |name: &str| CompletionReference::Prompt {
        name: name.into(),
        title: None,
    };
    let mounted = client.complete(prompt("books_blurb"), "title", "").await;
    assert_eq!(mounted.unwrap().completion.values, ["catalogue:blurb"]);
    // The shop's own prompt has no completer: nothing is suggested.
    let own = client.complete(prompt("greet"), "name", "").await;
    assert!(own.unwrap().completion.values.is_empty());
    client.close().await;
    running.shut_down().await.unwrap();
}

/// Shows the catalogue (a view).
#[tool(read_only)]
async fn browse() -> String {
    "2 books".into()
}

/// The shop's own page (a view of the outer server).
#[tool(read_only)]
async fn front_page() -> String {
    "welcome".into()
}

const CATALOGUE_HTML: &str = "<!doctype html><html><body>catalogue</body></html>";
const FRONT_HTML: &str = "<!doctype html><html><body>front</body></html>";

#[tokio::test]
async fn a_mounted_servers_views_are_served_under_the_namespace_and_its_tools_point_at_them() {
    let catalogue = McpServer::new("catalogue")
        .tool(browse)
        .unwrap()
        .extension(
            Apps::new()
                .view(View::html("ui://catalogue/list.html", CATALOGUE_HTML).prefers_border(true))
                .tool("browse", "ui://catalogue/list.html"),
        )
        .unwrap();
    // The shop has views of its own: the two sets are served side by side.
    let shop = McpServer::new("shop")
        .tool(front_page)
        .unwrap()
        .extension(
            Apps::new()
                .view(View::html("ui://shop/front.html", FRONT_HTML))
                .tool("front_page", "ui://shop/front.html"),
        )
        .unwrap()
        .mount("books", catalogue)
        .unwrap();
    // A server that has none gets the extension's entry from the mounted one.
    let bare = McpServer::new("bare").mount(
        "books",
        McpServer::new("catalogue")
            .tool(browse)
            .unwrap()
            .extension(
                Apps::new()
                    .view(View::html("ui://catalogue/list.html", CATALOGUE_HTML))
                    .tool("browse", "ui://catalogue/list.html"),
            )
            .unwrap(),
    );
    for server in [shop, bare.unwrap()] {
        let running = start(server).await;
        for era in [EraChoice::Legacy, EraChoice::Modern] {
            let client = connect(&running.url, era).await;
            let capabilities = serde_json::to_value(client.server().capabilities).unwrap();
            assert_eq!(
                capabilities["extensions"][apps::EXTENSION],
                json!({}),
                "{era:?}"
            );
            let tools = client.list_tools().await.unwrap();
            let browse = tools.iter().find(|t| t.name == "books_browse").unwrap();
            let meta = serde_json::to_value(&browse.meta).unwrap();
            assert_eq!(
                meta["ui"]["resourceUri"], "ui://books/catalogue/list.html",
                "{era:?}"
            );
            assert_eq!(meta["ui/resourceUri"], "ui://books/catalogue/list.html");
            // Its view calls `browse` by the name it was written with: an alias, never listed.
            assert!(tools.iter().all(|t| t.name != "browse"), "{era:?}");
            let called = client.call_tool("browse", json!({})).await.unwrap();
            let text = serde_json::to_value(&called.content).unwrap()[0]["text"].clone();
            assert_eq!(text, "2 books", "{era:?}");
            let read = (client.read_resource("ui://books/catalogue/list.html").await).unwrap();
            match &read.contents[..] {
                [ResourceContents::Text { uri, text, .. }] => {
                    assert_eq!(uri, "ui://books/catalogue/list.html");
                    assert_eq!(text, CATALOGUE_HTML, "{era:?}");
                }
                other => panic!("{era:?}: {other:?}"),
            }
            // The old URI is not served.
            assert!(
                client
                    .read_resource("ui://catalogue/list.html")
                    .await
                    .is_err()
            );
            if let Some(front) = tools.iter().find(|t| t.name == "front_page") {
                let meta = serde_json::to_value(&front.meta).unwrap();
                assert_eq!(meta["ui"]["resourceUri"], "ui://shop/front.html");
                let read = client.read_resource("ui://shop/front.html").await.unwrap();
                assert!(matches!(&read.contents[..],
                    [ResourceContents::Text { text, .. }] if text == FRONT_HTML));
            }
            client.close().await;
        }
        running.shut_down().await.unwrap();
    }
}

/// An extension of the test's own, which says nothing of being mounted.
struct Hello;

impl Extension for Hello {
    const ID: &'static str = "example.com/hello";

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        install.settings(json!({"greeting": "hello"}));
        Ok(())
    }
}

#[test]
fn extensions_that_cannot_be_mounted_or_clash_are_refused_naming_them() {
    let error = refusal(
        McpServer::new("shop").mount("hi", McpServer::new("greeter").extension(Hello).unwrap()),
    );
    assert!(error.contains("example.com/hello"), "{error}");
    assert!(error.contains("cannot be mounted"), "{error}");

    // One view URI both servers would serve.
    let view = || View::html("ui://x/a.html", FRONT_HTML);
    let outer = McpServer::new("shop")
        .extension(Apps::new().view(View::html("ui://x/a.html", FRONT_HTML)))
        .unwrap();
    let inner = McpServer::new("inner")
        .extension(Apps::new().view(view()))
        .unwrap();
    let error = refusal(outer.mount("", inner));
    assert!(error.contains("ui://x/a.html"), "{error}");
}

/// The error text `McpServer::mount` refuses with.
fn refusal(mounted: Result<McpServer, InvalidSignature>) -> String {
    match mounted {
        Ok(_) => panic!("the mount was accepted"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn what_cannot_be_mounted_is_refused_naming_the_cause() {
    let seen = Seen::default();
    // A name taken in the outer server: both named.
    let taken = McpServer::new("shop").tool(add).unwrap();
    let inner = McpServer::new("calc").tool(add).unwrap();
    let error = refusal(taken.mount("", inner));
    assert!(error.contains("mounting 'calc' under ''"), "{error}");
    assert!(error.contains("tool 'add' would be 'add'"), "{error}");

    let error = refusal(McpServer::new("shop").mount("books/x", catalogue(&seen)));
    assert!(error.contains("namespace"), "{error}");

    let outer_layered =
        McpServer::new("calc").outer_layer(layer::from_fn(|request: McpRequest, next: Next| {
            next.run(request)
        }));
    let error = refusal(McpServer::new("shop").mount("calc", outer_layered));
    assert!(error.contains("outer layer"), "{error}");

    let error = refusal(
        McpServer::new("shop")
            .state(7_u32)
            .mount("calc", McpServer::new("calc").state(8_u32)),
    );
    assert!(error.contains("shared state"), "{error}");
}
