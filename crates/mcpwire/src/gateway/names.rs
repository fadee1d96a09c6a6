//! Names and URIs in front: `{namespace}{separator}{name}` for tools and prompts,
//! `{scheme}://{namespace}/{rest}` for resources (so `ui://` views stay `ui://`), and the
//! references to resources inside listings and results rewritten the same way.

use crate::protocol::apps::{META_KEY, RESOURCE_URI_META_KEY};
use crate::server::namespace::{MAX_NAMESPACE, fits_names, under_scheme, valid_namespace};
use serde_json::Value;

/// Why a namespace or separator is refused; `None` when it is fine. A namespace is empty or
/// 1–64 characters of `A-Z a-z 0-9 _ -` (what hosts accept in tool names); a separator is 1–8
/// of the same.
pub(crate) fn check(namespace: &str, separator: &str) -> Option<String> {
    if !valid_namespace(namespace) {
        return Some(format!(
            "namespace '{namespace}' is invalid: use up to {MAX_NAMESPACE} characters from A-Z, a-z, 0-9, '_', '-'"
        ));
    }
    if separator.is_empty() || separator.len() > 8 || !fits_names(separator) {
        return Some(format!(
            "separator '{separator}' is invalid: use 1 to 8 characters from A-Z, a-z, 0-9, '_', '-'"
        ));
    }
    None
}

/// The name a backend's tool or prompt `name` is shown under.
pub(crate) fn front_name(namespace: &str, separator: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_owned()
    } else {
        format!("{namespace}{separator}{name}")
    }
}

/// The URI (or URI template) a backend's `uri` is shown under: the namespace as the first
/// segment after the scheme. A URI without `scheme://` keeps its form.
pub(crate) fn front_uri(namespace: &str, uri: &str) -> String {
    match namespace.is_empty() {
        true => uri.to_owned(),
        false => under_scheme(namespace, uri).unwrap_or_else(|| uri.to_owned()),
    }
}

/// The namespace a front URI names and the backend's URI under it, when it has
/// `scheme://namespace/…`.
pub(crate) fn split_front_uri(uri: &str) -> Option<(&str, String)> {
    let (scheme, rest) = uri.split_once("://")?;
    let (namespace, tail) = rest.split_once('/')?;
    Some((namespace, format!("{scheme}://{tail}")))
}

/// Rewrites the view references in a tool's `_meta` (`ui.resourceUri` and the flat
/// `ui/resourceUri`) to the front URIs.
pub(crate) fn rewrite_tool_meta(namespace: &str, meta: &mut serde_json::Map<String, Value>) {
    if let Some(Value::String(uri)) = meta
        .get_mut(META_KEY)
        .and_then(|ui| ui.get_mut("resourceUri"))
    {
        *uri = front_uri(namespace, uri);
    }
    if let Some(Value::String(uri)) = meta.get_mut(RESOURCE_URI_META_KEY) {
        *uri = front_uri(namespace, uri);
    }
}

/// Rewrites the resources a result's content refers to (resource links, embedded resources)
/// to the front URIs.
pub(crate) fn rewrite_content(namespace: &str, result: &mut Value) {
    let Some(items) = result.get_mut("content").and_then(Value::as_array_mut) else {
        return;
    };
    for item in items {
        let uri = match item.get("type").and_then(Value::as_str) {
            Some("resource_link") => item.get_mut("uri"),
            Some("resource") => item.get_mut("resource").and_then(|r| r.get_mut("uri")),
            _ => None,
        };
        if let Some(Value::String(uri)) = uri {
            *uri = front_uri(namespace, uri);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn uris_keep_their_scheme_and_come_back() {
        assert_eq!(
            front_uri("shop", "ui://catalog/view"),
            "ui://shop/catalog/view"
        );
        assert_eq!(front_uri("", "ui://catalog/view"), "ui://catalog/view");
        assert_eq!(front_uri("shop", "urn:isbn:1"), "urn:isbn:1");
        let (ns, back) = split_front_uri("file://shop//etc/x").unwrap();
        assert_eq!((ns, back.as_str()), ("shop", "file:///etc/x"));
    }

    #[test]
    fn names_and_separators_are_checked() {
        assert!(check("my-server_1", "__").is_none());
        assert!(check("", "_").is_none());
        assert!(check("a/b", "_").unwrap().contains("'a/b'"));
        assert!(check("a", ":").unwrap().contains("separator ':'"));
        assert!(check(&"x".repeat(65), "_").is_some());
    }

    #[test]
    fn view_references_are_rewritten() {
        let mut meta = json!({"ui": {"resourceUri": "ui://v/a"}, "ui/resourceUri": "ui://v/a"});
        rewrite_tool_meta("ns", meta.as_object_mut().unwrap());
        assert_eq!(
            meta,
            json!({"ui": {"resourceUri": "ui://ns/v/a"}, "ui/resourceUri": "ui://ns/v/a"})
        );
        let mut result = json!({"content": [
            {"type": "resource_link", "uri": "test://r/1", "name": "r"},
            {"type": "resource", "resource": {"uri": "test://r/2", "text": "t"}},
            {"type": "text", "text": "test://r/3"}
        ]});
        rewrite_content("ns", &mut result);
        assert_eq!(result["content"][0]["uri"], "test://ns/r/1");
        assert_eq!(result["content"][1]["resource"]["uri"], "test://ns/r/2");
        assert_eq!(result["content"][2]["text"], "test://r/3");
    }
}
