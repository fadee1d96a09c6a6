//! The views as resources: each a plain resource at its `ui://` URI, listed with its settings
//! in `_meta.ui` and read from the documents loaded at start-up, with the same `_meta.ui` on
//! the content item.

use super::view::{Document, View};
use crate::error::ToolError;
use crate::protocol::apps::{META_KEY, MIME_TYPE, SCHEME};
use crate::protocol::content::ResourceContents;
use crate::resolve::Stop;
use crate::server::handler::HandlerCall;
use crate::server::resource::{ResourceDefinition, ResourceFuture, lasting};
use base64::Engine;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One view, loaded and ready to serve.
pub(super) struct Served {
    /// The contents a read answers with, but for the URI (the read's own).
    body: Body,
    /// `{"ui": {...}}`, or `None` when the view sets nothing.
    pub(super) meta: Option<Map<String, Value>>,
}

enum Body {
    Text(String),
    Blob(String),
}

/// The views a server serves, by URI, as its handlers find them in its shared state.
#[derive(Default)]
pub(super) struct Views(pub(super) HashMap<String, Served>);

impl Served {
    /// `view`, loaded; why not, naming the view, otherwise.
    pub(super) fn load(view: &View) -> Result<Self, String> {
        let body = match view.load()? {
            Document::Text(text) => Body::Text(text),
            Document::Bytes(bytes) => {
                Body::Blob(base64::engine::general_purpose::STANDARD.encode(bytes))
            }
        };
        let meta = (!view.ui.is_empty()).then(|| {
            let ui = serde_json::to_value(&view.ui).expect("the settings serialize");
            Map::from_iter([(META_KEY.to_owned(), ui)])
        });
        Ok(Self { body, meta })
    }
}

/// The resource that serves `view` (its strings live as long as the process: a server
/// registers it once).
pub(super) fn resource(view: &View) -> ResourceDefinition {
    let name = match &view.name {
        Some(name) => name.as_str(),
        None => view.uri.strip_prefix(SCHEME).unwrap_or(&view.uri),
    };
    let ttl_ms = u64::try_from(view.ttl.as_millis()).unwrap_or(u64::MAX);
    ResourceDefinition {
        title: view.title.as_deref().map(lasting),
        description: view.description.as_deref().map(lasting),
        mime_type: Some(MIME_TYPE),
        ..ResourceDefinition::served(&view.uri, name, ttl_ms, read)
    }
}

/// Reads the view the call's URI names.
fn read(call: HandlerCall) -> ResourceFuture {
    Box::pin(async move {
        let uri = call.uri().to_owned();
        let views = call.context_ref().state::<Views>();
        let view = (views.0.get(&uri))
            .ok_or_else(|| Stop::InvalidArguments(ToolError::new("no such view")))?;
        let mime_type = Some(MIME_TYPE.to_owned());
        let meta = view.meta.clone();
        let contents = match &view.body {
            Body::Text(text) => ResourceContents::Text {
                uri,
                mime_type,
                text: text.clone(),
                meta,
            },
            Body::Blob(blob) => ResourceContents::Blob {
                uri,
                mime_type,
                blob: blob.clone(),
                meta,
            },
        };
        Ok(vec![contents])
    })
}
