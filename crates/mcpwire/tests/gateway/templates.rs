//! Which backend a read under a template reaches when two backends' templates match the URI: a
//! backend without a namespace serves `docs://{+path}`, which also matches every URI of the
//! backend `shop`'s `docs://shop/{+path}`. The more specific template (the longer literal text
//! before its first variable) answers, whichever backend is listed first, on both revisions in
//! front.

#![cfg(feature = "gateway")]

use crate::serving::{front_client, serve};
use mcpwire::client::EraChoice;
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::protocol::ResourceContents;
use std::time::Duration;

/// Every wait of these tests is bounded by this.
const BOUND: Duration = Duration::from_secs(20);

/// A document of the backend without a namespace.
#[resource(uri = "docs://{+path}", mime_type = "text/plain")]
async fn plain_doc(path: String) -> String {
    format!("plain:{path}")
}

/// A document of the shop.
#[resource(uri = "docs://{+path}", mime_type = "text/plain")]
async fn shop_doc(path: String) -> String {
    format!("shop:{path}")
}

fn text(contents: &[ResourceContents]) -> &str {
    match contents {
        [ResourceContents::Text { text, .. }] => text,
        other => panic!("one text content expected: {other:?}"),
    }
}

#[tokio::test]
async fn a_read_reaches_the_backend_of_the_more_specific_template_whatever_their_order() {
    let plain = serve(McpServer::new("plain").resource(plain_doc).unwrap()).await;
    let shop = serve(McpServer::new("shop").resource(shop_doc).unwrap()).await;
    for plain_first in [true, false] {
        let unprefixed = Backend::http("plain", &plain.url).namespace("");
        let prefixed = Backend::http("shop", &shop.url);
        let backends = if plain_first {
            [unprefixed, prefixed]
        } else {
            [prefixed, unprefixed]
        };
        let mut gateway = Gateway::new();
        for entry in backends {
            gateway = gateway.backend(entry);
        }
        let gateway = gateway.start(McpServer::new("gateway")).await.unwrap();
        let gateway = serve(gateway).await;
        for era in [EraChoice::Legacy, EraChoice::Modern] {
            let client = front_client(era, &gateway).await;
            let case = format!("{era:?}, the backend without a namespace first: {plain_first}");
            let read = |uri: &'static str| {
                let client = &client;
                async move {
                    tokio::time::timeout(BOUND, client.read_resource(uri))
                        .await
                        .expect("bounded")
                        .unwrap()
                        .contents
                }
            };
            assert_eq!(
                text(&read("docs://shop/guide/intro").await),
                "shop:guide/intro",
                "{case}"
            );
            assert_eq!(
                text(&read("docs://guide/intro").await),
                "plain:guide/intro",
                "{case}"
            );
        }
    }
}
