//! The views of a server mounted in another ([`McpServer::mount`](crate::McpServer::mount)):
//! each document is served under the URI its view has there (`ui://{namespace}/…`), and each
//! of the mounted tools points at that URI (`_meta.ui.resourceUri` and the flat key). A view
//! calls its server's tools by the names it was written with, so under a namespace each mounted
//! tool keeps its own name as an alias (never listed, found while no other tool has that name or
//! alias).

use super::read::Views;
use crate::protocol::apps::{META_KEY, RESOURCE_URI_META_KEY};
use crate::server::remount::Remount;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Carries the mounted server's views over to the outer server, under their new URIs.
pub(super) fn remount(remount: &mut Remount<'_>) -> Result<(), String> {
    let Some(views) = remount.take_state::<Views>() else {
        return Ok(());
    };
    let mut uris = HashMap::new();
    let mut renamed = Views::default();
    for (uri, served) in views.0 {
        let here = (remount.resource(&uri))
            .ok_or_else(|| format!("its view '{uri}' is not among the mounted resources"))?;
        renamed.0.insert(here.to_owned(), served);
        uris.insert(uri, here);
    }
    for (there, here) in remount.tools() {
        remount.edit_tool_meta(here, |meta| point_at_renamed_views(meta, &uris));
        if there != here {
            remount.alias_tool(here, there);
        }
    }
    match remount.outer_state::<Views>() {
        Some(outer) => {
            for (uri, served) in renamed.0 {
                if outer.0.contains_key(&uri) {
                    return Err(format!("the view '{uri}' is served here already"));
                }
                outer.0.insert(uri, served);
            }
        }
        None => remount.insert_outer_state(renamed),
    }
    Ok(())
}

/// A tool's `_meta` pointing at its view's new URI, in `ui.resourceUri` and the flat key.
fn point_at_renamed_views(meta: &mut Map<String, Value>, uris: &HashMap<String, &'static str>) {
    let renamed = |value: &mut Value| {
        if let Some(here) = value.as_str().and_then(|uri| uris.get(uri)) {
            *value = Value::from(*here);
        }
    };
    if let Some(flat) = meta.get_mut(RESOURCE_URI_META_KEY) {
        renamed(flat);
    }
    if let Some(uri) = (meta.get_mut(META_KEY))
        .and_then(Value::as_object_mut)
        .and_then(|ui| ui.get_mut("resourceUri"))
    {
        renamed(uri);
    }
}
