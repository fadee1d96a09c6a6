//! MCP Apps (`mcpwire::apps`) from the crate's own client over HTTP, on both revisions: the
//! extension declared, tools pointing at their views in `tools/list` (both `_meta` keys, the
//! visibility), the views read and listed with their `_meta.ui`, an unserved view a clear error;
//! views read from disk once at start-up; installations that cannot work refused when the
//! server is built, naming what is wrong; and an app-only tool still guarded by its scopes.
#![cfg(feature = "client")]

use crate::support;
use mcpwire::apps::{self, Apps, Csp, EXTENSION, MIME_TYPE, Permissions, View, Visibility};
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::context::Grant;
use mcpwire::prelude::*;
use mcpwire::protocol::ResourceContents;
use mcpwire::protocol::apps::{UiResourceMeta, UiToolMeta};
use mcpwire::server::{Extension, Install};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Duration;
use support::http::*;

const CATALOG_URI: &str = "ui://shop/catalog.html";
const CATALOG: &str = "<!doctype html><html><head><title>Catalog</title></head>\
                       <body><div id=\"books\"></div></body></html>";
const RECEIPT_URI: &str = "ui://shop/receipt.html";
/// A document in Latin-1: not UTF-8, so served as a base64 blob.
const RECEIPT: &[u8] = b"<!doctype html><p>Re\xe7u</p>";

/// Shows the catalog.
#[tool(read_only)]
async fn browse_catalog() -> CallToolResult {
    CallToolResult {
        content: vec![Content::text("2 books: Dune (available), Emma (lent).")],
        structured_content: Some(json!({ "books": [
            { "id": "dune", "title": "Dune", "available": true },
            { "id": "emma", "title": "Emma", "available": false },
        ] })),
        ..Default::default()
    }
}

/// Reserves a book: the catalog's button.
#[tool]
async fn reserve_book(book_id: String) -> String {
    format!("Reserved {book_id}.")
}

/// Shows a receipt.
#[tool]
async fn show_receipt() -> String {
    "Receipt shown.".into()
}

/// Says whether the client can show views.
#[tool]
async fn can_show_views(ctx: Context) -> String {
    apps::client_supports_apps(&ctx).to_string()
}

/// Not part of any app.
#[tool]
async fn ping_shop() -> String {
    "pong".into()
}

fn csp() -> Csp {
    Csp {
        connect_domains: vec!["https://api.shop.example".into()],
        resource_domains: vec!["https://*.cdn.example".into()],
        frame_domains: vec![],
        base_uri_domains: vec!["https://shop.example".into()],
    }
}

fn apps() -> Apps {
    Apps::new()
        .view(
            View::html(CATALOG_URI, CATALOG)
                .title("Catalog")
                .description("The shop's books, with a button to reserve each.")
                .csp(csp())
                .permissions(Permissions {
                    clipboard_write: true,
                    ..Permissions::default()
                })
                .prefers_border(true),
        )
        .view(View::bytes(RECEIPT_URI, RECEIPT).prefers_border(false))
        .tool("browse_catalog", CATALOG_URI)
        .visibility("browse_catalog", [Visibility::Model, Visibility::App])
        .visibility("reserve_book", [Visibility::App])
        .tool("show_receipt", RECEIPT_URI)
}

fn shop() -> McpServer {
    McpServer::new("shop")
        .tool(browse_catalog)
        .unwrap()
        .tool(reserve_book)
        .unwrap()
        .tool(show_receipt)
        .unwrap()
        .tool(can_show_views)
        .unwrap()
        .tool(ping_shop)
        .unwrap()
        .extension(apps())
        .unwrap()
}

async fn client(url: &str, era: EraChoice) -> Client {
    Client::builder().era(era).connect_http(url).await.unwrap()
}

fn rpc(error: &ClientError) -> &mcpwire::protocol::ErrorObject {
    match error {
        ClientError::Rpc(error) => error,
        other => panic!("not a JSON-RPC error: {other}"),
    }
}

#[tokio::test]
async fn a_host_finds_each_tools_view_and_reads_it_on_both_revisions() {
    let running = start(shop()).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era).await;
        let capabilities = serde_json::to_value(client.server().capabilities).unwrap();
        assert_eq!(capabilities["extensions"][EXTENSION], json!({}), "{era:?}");
        assert!(capabilities.get("resources").is_some(), "{capabilities}");

        // tools/list: both keys, the visibility; a tool outside the app has no _meta.
        let tools = client.list_tools().await.unwrap();
        let tool = |name: &str| tools.iter().find(|t| t.name == name).unwrap().clone();
        let browse = tool("browse_catalog");
        let meta = serde_json::to_value(&browse.meta).unwrap();
        assert_eq!(
            meta,
            json!({
                "ui": { "resourceUri": CATALOG_URI, "visibility": ["model", "app"] },
                "ui/resourceUri": CATALOG_URI,
            }),
            "{era:?}"
        );
        let reserve = serde_json::to_value(tool("reserve_book").meta).unwrap();
        assert_eq!(reserve, json!({ "ui": { "visibility": ["app"] } }));
        let receipt = UiToolMeta::of(&tool("show_receipt")).unwrap();
        assert_eq!(receipt.resource_uri.as_deref(), Some(RECEIPT_URI));
        assert_eq!(receipt.visibility, None, "the host's default");
        assert_eq!(tool("ping_shop").meta, None);

        // resources/read of the view: the MIME type, the document, _meta.ui on the item.
        let read = client.read_resource(CATALOG_URI).await.unwrap();
        let [item] = read.contents.as_slice() else {
            panic!("one content item: {read:?}");
        };
        let ResourceContents::Text {
            uri,
            mime_type,
            text,
            meta,
        } = item
        else {
            panic!("the catalog is text: {item:?}");
        };
        assert_eq!(uri, CATALOG_URI);
        assert_eq!(mime_type.as_deref(), Some(MIME_TYPE));
        assert_eq!(text, CATALOG);
        let ui = json!({
            "csp": {
                "connectDomains": ["https://api.shop.example"],
                "resourceDomains": ["https://*.cdn.example"],
                "baseUriDomains": ["https://shop.example"],
            },
            "permissions": { "clipboardWrite": {} },
            "prefersBorder": true,
        });
        assert_eq!(serde_json::to_value(meta).unwrap(), json!({ "ui": ui }));
        let settings = UiResourceMeta::of(item.meta()).unwrap();
        assert_eq!(settings.csp, Some(csp()));
        assert_eq!(settings.prefers_border, Some(true));

        // A document that is not UTF-8 comes as a base64 blob, with its own _meta.ui.
        let read = client.read_resource(RECEIPT_URI).await.unwrap();
        let ResourceContents::Blob {
            mime_type,
            blob,
            meta,
            ..
        } = &read.contents[0]
        else {
            panic!("the receipt is a blob: {read:?}");
        };
        assert_eq!(mime_type.as_deref(), Some(MIME_TYPE));
        assert_eq!(blob, "PCFkb2N0eXBlIGh0bWw+PHA+UmXndTwvcD4=");
        assert_eq!(
            serde_json::to_value(meta).unwrap(),
            json!({ "ui": { "prefersBorder": false } })
        );

        // resources/list: the entry carries the same _meta.ui.
        let listed = client.list_resources().await.unwrap();
        let entry = listed.iter().find(|r| r.uri == CATALOG_URI).unwrap();
        assert_eq!(entry.mime_type.as_deref(), Some(MIME_TYPE));
        assert_eq!(entry.name, "shop/catalog.html");
        assert_eq!(entry.title.as_deref(), Some("Catalog"));
        assert_eq!(
            serde_json::to_value(&entry.meta).unwrap(),
            json!({ "ui": ui })
        );

        // A ui:// view the server does not serve: the core's "not found" for its revision.
        let missing = client
            .read_resource("ui://shop/missing.html")
            .await
            .unwrap_err();
        let expected = match era {
            EraChoice::Modern => -32602,
            _ => -32002,
        };
        assert_eq!(missing.rpc_code(), Some(expected), "{era:?}: {missing}");
        assert_eq!(rpc(&missing).message, "Resource not found");
        assert_eq!(
            rpc(&missing).data,
            Some(json!({ "uri": "ui://shop/missing.html" }))
        );

        // The tool's result keeps its text beside what the view renders.
        let result = client.call_tool("browse_catalog", json!({})).await.unwrap();
        assert!(matches!(&result.content[0], Content::Text { text, .. } if text.contains("Dune")));
        assert_eq!(result.structured_content.unwrap()["books"][0]["id"], "dune");

        // A view's reads may be reused (the document is fixed at start-up) on 2026-07-28.
        let raw = client
            .request("resources/read", json!({ "uri": CATALOG_URI }))
            .await
            .unwrap();
        match era {
            EraChoice::Modern => {
                assert_eq!(raw["cacheScope"], "public");
                assert_eq!(raw["ttlMs"], 300_000);
            }
            _ => assert!(raw.get("ttlMs").is_none(), "{raw}"),
        }
    }
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_tool_can_tell_whether_the_client_shows_views_on_both_revisions() {
    let running = start(shop()).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        for (declares, expected) in [(true, "true"), (false, "false")] {
            let builder = Client::builder().era(era);
            let builder = match declares {
                true => builder.extension(EXTENSION, json!({ "mimeTypes": [MIME_TYPE] })),
                false => builder,
            };
            let client = builder.connect_http(&running.url).await.unwrap();
            let answer = client.call_tool("can_show_views", json!({})).await.unwrap();
            let Content::Text { text, .. } = &answer.content[0] else {
                panic!("{answer:?}");
            };
            assert_eq!(text, expected, "{era:?}, declared: {declares}");
        }
    }
    running.shut_down().await.unwrap();
}

/// A file of its own under the system's temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> Self {
        let mut suffix = [0u8; 8];
        getrandom::fill(&mut suffix).unwrap();
        let folder = std::env::temp_dir().join(format!(
            "mcpwire-apps-{}-{}",
            std::process::id(),
            u64::from_le_bytes(suffix)
        ));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join(name);
        std::fs::write(&path, bytes).unwrap();
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

#[tokio::test]
async fn a_view_from_a_file_is_read_once_when_the_server_is_built() {
    let file = TempFile::new("catalog.html", CATALOG.as_bytes());
    let server = McpServer::new("shop")
        .tool(browse_catalog)
        .unwrap()
        .extension(
            Apps::new()
                .view(View::file(CATALOG_URI, &file.0).ttl(Duration::ZERO))
                .tool("browse_catalog", CATALOG_URI),
        )
        .unwrap();
    std::fs::write(&file.0, "<!doctype html><p>changed</p>").unwrap();
    let running = start(server).await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = client(&running.url, era).await;
        let read = client.read_resource(CATALOG_URI).await.unwrap();
        let ResourceContents::Text { text, meta, .. } = &read.contents[0] else {
            panic!("{read:?}");
        };
        assert_eq!(
            text, CATALOG,
            "read when the server was built, not per request"
        );
        assert_eq!(meta, &None, "a view with no settings has no _meta");
        let raw = client
            .request("resources/read", json!({ "uri": CATALOG_URI }))
            .await
            .unwrap();
        if era == EraChoice::Modern {
            assert_eq!(raw["ttlMs"], 0);
        }
    }
    running.shut_down().await.unwrap();
}

/// The catalog as a plain resource, at the view's URI.
#[resource(uri = "ui://shop/catalog.html")]
async fn catalog_resource() -> String {
    CATALOG.into()
}

/// Puts `_meta.ui` on a tool itself, before Apps does.
struct Squatter;

impl Extension for Squatter {
    const ID: &'static str = "example.com/squatter";

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        let meta = json!({ "ui": { "resourceUri": "ui://elsewhere" } });
        install.tool_meta("browse_catalog", meta.as_object().unwrap().clone())?;
        Ok(())
    }
}

#[test]
fn installations_that_cannot_work_fail_when_the_server_is_built_naming_what_is_wrong() {
    let refused = |server: McpServer, apps: Apps| -> String {
        let error = server.extension(apps).err().expect("refused");
        error.message().to_owned()
    };
    let with_tool = || McpServer::new("shop").tool(browse_catalog).unwrap();

    let why = refused(
        with_tool(),
        Apps::new().view(View::html("https://shop/catalog.html", CATALOG)),
    );
    assert!(why.contains(EXTENSION), "{why}");
    assert!(why.contains("view 'https://shop/catalog.html'"), "{why}");
    assert!(why.contains("must start with ui://"), "{why}");

    let why = refused(
        with_tool(),
        Apps::new().view(View::html("ui://shop/{page}.html", CATALOG)),
    );
    assert!(why.contains("cannot be a template"), "{why}");

    // The tool is registered after the extension, or not at all.
    let why = refused(
        McpServer::new("shop"),
        Apps::new()
            .view(View::html(CATALOG_URI, CATALOG))
            .tool("browse_catalog", CATALOG_URI),
    );
    assert!(
        why.contains("no tool is registered as 'browse_catalog'"),
        "{why}"
    );
    assert!(why.contains("register it first"), "{why}");
    let why = refused(
        with_tool(),
        Apps::new().visibility("reserve_book", [Visibility::App]),
    );
    assert!(why.contains("'reserve_book'"), "{why}");

    // The tool points at a view the extension does not serve.
    let why = refused(
        with_tool(),
        Apps::new()
            .view(View::html(CATALOG_URI, CATALOG))
            .tool("browse_catalog", "ui://shop/catalgo.html"),
    );
    assert!(
        why.contains("tool 'browse_catalog' points at 'ui://shop/catalgo.html'"),
        "{why}"
    );
    assert!(why.contains("not a view of the Apps extension"), "{why}");
    let why = refused(
        with_tool(),
        Apps::new().tool("browse_catalog", "https://shop.example/catalog"),
    );
    assert!(why.contains("not a ui:// view"), "{why}");

    let why = refused(
        with_tool(),
        Apps::new()
            .view(View::html(CATALOG_URI, CATALOG))
            .view(View::html(RECEIPT_URI, CATALOG))
            .tool("browse_catalog", CATALOG_URI)
            .tool("browse_catalog", RECEIPT_URI),
    );
    assert!(why.contains("points at two views"), "{why}");

    let why = refused(with_tool(), Apps::new().visibility("browse_catalog", []));
    assert!(why.contains("empty visibility"), "{why}");

    let why = refused(
        with_tool(),
        Apps::new()
            .view(View::html(CATALOG_URI, CATALOG))
            .view(View::html(CATALOG_URI, CATALOG)),
    );
    assert!(why.contains("added twice"), "{why}");

    let why = refused(with_tool(), Apps::new().view(View::html(CATALOG_URI, "")));
    assert!(why.contains("empty"), "{why}");

    let why = refused(
        with_tool(),
        Apps::new().view(View::html(CATALOG_URI, CATALOG).csp(Csp {
            connect_domains: vec!["https://a.example; script-src *".into()],
            ..Csp::default()
        })),
    );
    assert!(why.contains("csp.connectDomains"), "{why}");

    // A file that cannot be read is named.
    let why = refused(
        with_tool(),
        Apps::new().view(View::file(CATALOG_URI, "/nonexistent/views/catalog.html")),
    );
    assert!(
        why.contains("cannot read /nonexistent/views/catalog.html"),
        "{why}"
    );
    let empty = TempFile::new("empty.html", b"");
    let why = refused(
        with_tool(),
        Apps::new().view(View::file(CATALOG_URI, &empty.0)),
    );
    assert!(
        why.contains(&format!("{} is empty", empty.0.display())),
        "{why}"
    );

    // Installed twice; a view's URI taken by another resource; a tool's _meta.ui set by another
    // extension.
    let why = refused(with_tool().extension(Apps::new()).unwrap(), Apps::new());
    assert!(why.contains("installed twice"), "{why}");
    let why = refused(
        with_tool().resource(catalog_resource).unwrap(),
        Apps::new().view(View::html(CATALOG_URI, CATALOG)),
    );
    assert!(
        why.contains("resource 'ui://shop/catalog.html' is registered twice"),
        "{why}"
    );
    let why = refused(
        with_tool().extension(Squatter).unwrap(),
        Apps::new()
            .view(View::html(CATALOG_URI, CATALOG))
            .tool("browse_catalog", CATALOG_URI),
    );
    assert!(
        why.contains("'browse_catalog' has 'ui' in its _meta already"),
        "{why}"
    );
}

/// Places an order: the view's button; only for callers who may write orders.
#[tool(scopes = ["orders:write"])]
async fn place_order(book_id: String) -> String {
    format!("Ordered {book_id}.")
}

#[tokio::test]
async fn an_app_only_tool_is_still_guarded_by_its_scopes() {
    for (scopes, allowed) in [(vec!["orders:read"], false), (vec!["orders:write"], true)] {
        for era in [EraChoice::Legacy, EraChoice::Modern] {
            let server = McpServer::new("shop")
                .tool(place_order)
                .unwrap()
                .extension(Apps::new().visibility("place_order", [Visibility::App]))
                .unwrap()
                .local_grant(Grant::new(scopes.clone()));
            let client = Client::builder()
                .era(era)
                .extension(EXTENSION, json!({ "mimeTypes": [MIME_TYPE] }))
                .connect_memory(server)
                .await
                .unwrap();
            let listed = client.list_tools().await.unwrap();
            let call = client
                .call_tool("place_order", json!({ "book_id": "dune" }))
                .await;
            match allowed {
                true => {
                    let meta = serde_json::to_value(&listed[0].meta).unwrap();
                    assert_eq!(meta, json!({ "ui": { "visibility": ["app"] } }));
                    let result = call.unwrap();
                    assert_eq!(result.content, vec![Content::text("Ordered dune.")]);
                }
                false => {
                    assert!(listed.is_empty(), "hidden from a caller without the scope");
                    let refused = call.unwrap_err();
                    assert_eq!(refused.rpc_code(), Some(-32003), "{era:?}: {refused}");
                    assert!(refused.to_string().contains("orders:write"), "{refused}");
                }
            }
        }
    }
}

#[test]
fn the_wire_types_read_what_hosts_read() {
    let tool: mcpwire::protocol::Tool = serde_json::from_value(json!({
        "name": "old",
        "inputSchema": { "type": "object" },
        "_meta": { "ui/resourceUri": "ui://old/view.html" }
    }))
    .unwrap();
    let ui = UiToolMeta::of(&tool).unwrap();
    assert_eq!(ui.resource_uri.as_deref(), Some("ui://old/view.html"));
    let permissions: Permissions =
        serde_json::from_value(json!({ "camera": {}, "geolocation": {} })).unwrap();
    assert!(permissions.camera && permissions.geolocation && !permissions.microphone);
    let value: Value = serde_json::to_value(permissions).unwrap();
    assert_eq!(value, json!({ "camera": {}, "geolocation": {} }));
}
