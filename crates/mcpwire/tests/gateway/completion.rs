//! `completion/complete` through the gateway, with the crate's own client on both revisions: a
//! reference to a proxied prompt or template is answered by the backend serving it (under its
//! name there), and one to the front server's own prompt by the front's own completer.

use mcpwire::client::{Client, EraChoice};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::protocol::{Completion, CompletionReference};

/// Reviews code in a language (the backend's).
#[prompt]
async fn review(language: String) -> String {
    format!("Review this {language} code.")
}

/// A book's page (the backend's template).
#[resource(uri = "shop://books/{isbn}")]
async fn book(isbn: String) -> String {
    format!("book {isbn}")
}

/// Greets someone (the front server's own).
#[prompt]
async fn greet(name: String) -> String {
    format!("Hello, {name}.")
}

/// The backend's completer: says which reference it was asked about, as the backend names it.
fn backend() -> McpServer {
    let server = McpServer::new("backend").prompt(review).unwrap();
    let server = server.resource(book).unwrap();
    server.completion(|request, _ctx| async move {
        let asked = match request.reference {
            CompletionReference::Prompt { name, .. } => name,
            CompletionReference::Resource { uri } => uri,
        };
        Completion::from_values([format!("{asked}:{}", request.argument.value)])
    })
}

async fn serve(server: McpServer) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = server
        .http()
        .serve_listener(listener, std::future::pending::<()>());
    tokio::spawn(serving);
    url
}

fn values(result: mcpwire::protocol::CompleteResult) -> Vec<String> {
    result.completion.values
}

#[tokio::test]
async fn completions_reach_the_backend_serving_the_reference_and_the_front_keeps_its_own() {
    let backend = serve(backend()).await;
    let front = McpServer::new("gateway").prompt(greet).unwrap();
    let front = front.completion(|request, _ctx| async move {
        Completion::from_values([format!("front:{}", request.argument.value)])
    });
    let gateway = Gateway::new()
        .backend(Backend::http("shop", backend))
        .start(front)
        .await
        .expect("the gateway starts");
    let url = serve(gateway).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = Client::builder().era(era).connect_http(&url).await.unwrap();
        let prompt = CompletionReference::Prompt {
            name: "shop_review".into(),
            title: None,
        };
        let got = client.complete(prompt, "language", "ru").await.unwrap();
        assert_eq!(values(got), ["review:ru"], "{era:?}");
        let template = CompletionReference::Resource {
            uri: "shop://shop/books/{isbn}".into(),
        };
        let got = client.complete(template, "isbn", "97").await.unwrap();
        assert_eq!(values(got), ["shop://books/{isbn}:97"], "{era:?}");
        let own = CompletionReference::Prompt {
            name: "greet".into(),
            title: None,
        };
        let got = client.complete(own, "name", "Ad").await.unwrap();
        assert_eq!(values(got), ["front:Ad"], "{era:?}");
        client.close().await;
    }
}
