//! Resources: what the server lets clients read (`resources/list`, `resources/templates/list`,
//! `resources/read`) and how clients hear of changes to one.
//!
//! Both revisions list and read alike; in 2026-07-28 `resources/read` may also answer
//! `input_required` and be retried with `inputResponses`/`requestState`. Watching a resource is
//! `resources/subscribe`/`resources/unsubscribe` in 2025-11-25 and a `resourceSubscriptions`
//! filter of `subscriptions/listen` in 2026-07-28; `notifications/resources/updated` reports a
//! change in both.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{ReadResourceParams, ReadResourceResult};
//! use serde_json::json;
//!
//! let params: ReadResourceParams = serde_json::from_str(r#"{"uri":"file:///notes.txt"}"#).unwrap();
//! let result = ReadResourceResult::text(params.uri, Some("text/plain".into()), "buy milk");
//! assert_eq!(
//!     serde_json::to_value(&result).unwrap(),
//!     json!({
//!         "contents": [{"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "buy milk"}]
//!     })
//! );
//! ```

use super::content::{Annotations, ResourceContents};
use super::icon::Icon;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The method of the notification that a watched resource changed.
pub const UPDATED: &str = "notifications/resources/updated";

/// A resource the server can read, as `resources/list` describes it.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Resource;
/// use serde_json::json;
///
/// let readme = Resource {
///     mime_type: Some("text/markdown".into()),
///     size: Some(120),
///     ..Resource::new("file:///README.md", "readme")
/// };
/// assert_eq!(
///     serde_json::to_value(&readme).unwrap(),
///     json!({
///         "uri": "file:///README.md",
///         "name": "readme",
///         "mimeType": "text/markdown",
///         "size": 120
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Its URI (any scheme; the server decides how to read it).
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its raw size in bytes (before base64 or tokenization), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Audience, priority and last-modified hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons a client may show for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extra metadata (`_meta`), keyed by prefixed names.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl Resource {
    /// A resource with only a URI and a name.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::Resource;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     serde_json::to_value(Resource::new("file:///a.txt", "a")).unwrap(),
    ///     json!({"uri": "file:///a.txt", "name": "a"})
    /// );
    /// ```
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

/// A family of resources, named by an RFC 6570 URI template.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ResourceTemplate;
/// use serde_json::json;
///
/// let files = ResourceTemplate {
///     description: Some("Any file of the project.".into()),
///     ..ResourceTemplate::new("file:///{path}", "files")
/// };
/// assert_eq!(
///     serde_json::to_value(&files).unwrap(),
///     json!({
///         "uriTemplate": "file:///{path}",
///         "name": "files",
///         "description": "Any file of the project."
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// The URI template (RFC 6570), e.g. `file:///{path}`.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is for, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of every matching resource, when they all share one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Audience, priority and last-modified hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons a client may show for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extra metadata (`_meta`), keyed by prefixed names.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ResourceTemplate {
    /// A template with only a URI template and a name.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ResourceTemplate;
    ///
    /// let users = ResourceTemplate::new("users://{id}", "users");
    /// assert_eq!((users.uri_template.as_str(), users.mime_type), ("users://{id}", None));
    /// ```
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri_template: uri_template.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

/// `resources/list` result (`resultType`, `ttlMs` and `cacheScope` are added by the 2026-07-28
/// envelope, not carried here). Its params are [`super::tools::PaginatedParams`].
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ListResourcesResult, Resource};
/// use serde_json::json;
///
/// let resources = vec![Resource::new("file:///a.txt", "a")];
/// let page = ListResourcesResult { resources, next_cursor: None };
/// assert_eq!(
///     serde_json::to_value(&page).unwrap(),
///     json!({"resources": [{"uri": "file:///a.txt", "name": "a"}]})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourcesResult {
    /// One page of resources.
    pub resources: Vec<Resource>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `resources/templates/list` result (envelope fields as for [`ListResourcesResult`]). Its
/// params are [`super::tools::PaginatedParams`].
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ListResourceTemplatesResult, ResourceTemplate};
/// use serde_json::json;
///
/// let page = ListResourceTemplatesResult {
///     resource_templates: vec![ResourceTemplate::new("file:///{path}", "files")],
///     next_cursor: Some("p2".into()),
/// };
/// assert_eq!(
///     serde_json::to_value(&page).unwrap(),
///     json!({
///         "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "files"}],
///         "nextCursor": "p2"
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourceTemplatesResult {
    /// One page of templates.
    pub resource_templates: Vec<ResourceTemplate>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `resources/read` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ReadResourceParams;
///
/// let params: ReadResourceParams = serde_json::from_str(r#"{"uri":"file:///a.txt"}"#).unwrap();
/// assert_eq!(params.uri, "file:///a.txt");
/// assert!(params.input_responses.is_none() && params.request_state.is_none());
/// ```
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceParams {
    /// The resource to read.
    pub uri: String,
    /// 2026-07-28: answers to the previous round's questions, by key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<Box<RawValue>>,
    /// 2026-07-28: the state the previous round returned, echoed verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

/// `resources/read` result (when complete; a 2026-07-28 complete result is also cacheable, and
/// the envelope adds `resultType`, `ttlMs` and `cacheScope`).
///
/// A missing resource is an error (`-32002` in 2025-11-25, `-32602` in 2026-07-28), never an
/// empty `contents`. Several contents are allowed, e.g. the entries of a directory.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ReadResourceResult, ResourceContents};
/// use serde_json::json;
///
/// let result = ReadResourceResult {
///     contents: vec![ResourceContents::Blob {
///         uri: "file:///logo.png".into(),
///         mime_type: Some("image/png".into()),
///         blob: "iVBORw0KGgo=".into(),
///         meta: None,
///     }],
/// };
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     json!({
///         "contents": [{"uri": "file:///logo.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}]
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    /// The contents: text or base64 blobs, each with its own URI.
    pub contents: Vec<ResourceContents>,
}

impl ReadResourceResult {
    /// One text content.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ReadResourceResult;
    /// use serde_json::json;
    ///
    /// let result = ReadResourceResult::text("file:///a.txt", Some("text/plain".into()), "hello");
    /// assert_eq!(
    ///     serde_json::to_value(&result).unwrap(),
    ///     json!({
    ///         "contents": [{"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"}]
    ///     })
    /// );
    /// ```
    pub fn text(
        uri: impl Into<String>,
        mime_type: Option<String>,
        text: impl Into<String>,
    ) -> Self {
        Self {
            contents: vec![ResourceContents::Text {
                uri: uri.into(),
                mime_type,
                text: text.into(),
                meta: None,
            }],
        }
    }
}

/// `resources/subscribe` params (2025-11-25 only; 2026-07-28 uses
/// `subscriptions/listen` with a `resourceSubscriptions` filter).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::SubscribeParams;
///
/// let params: SubscribeParams = serde_json::from_str(r#"{"uri":"file:///log.txt"}"#).unwrap();
/// assert_eq!(params, SubscribeParams { uri: "file:///log.txt".into() });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubscribeParams {
    /// The resource to watch.
    pub uri: String,
}

/// `resources/unsubscribe` params (2025-11-25 only).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::UnsubscribeParams;
///
/// let params: UnsubscribeParams = serde_json::from_str(r#"{"uri":"file:///log.txt"}"#).unwrap();
/// assert_eq!(params.uri, "file:///log.txt");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnsubscribeParams {
    /// The resource to stop watching.
    pub uri: String,
}

/// `notifications/resources/updated` params (both revisions; on a 2026-07-28 listen stream they
/// carry a `subscriptionId` `_meta`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResourceUpdatedParams {
    /// The URI that changed; may be a sub-resource of the one watched.
    pub uri: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::round_trip;

    #[test]
    fn round_trips_resource_and_template_pages() {
        let page: ListResourcesResult = round_trip(
            r#"{"resources":[{"uri":"file:///project/src/main.rs","name":"main.rs",
                "title":"Rust Software Application Main File","description":"Primary application entry point",
                "mimeType":"text/x-rust","size":1024,
                "annotations":{"audience":["user","assistant"],"priority":0.8,"lastModified":"2025-01-12T15:00:58Z"},
                "icons":[{"src":"https://srv.example/rust.png","mimeType":"image/png","sizes":["48x48"],"theme":"light"}],
                "_meta":{"com.example/owner":"build"}},
              {"uri":"mem://notes/1","name":"note-1"}],
              "nextCursor":"2"}"#,
        );
        assert_eq!(page.resources[0].size, Some(1024));
        assert_eq!(page.resources[1], Resource::new("mem://notes/1", "note-1"));

        let templates: ListResourceTemplatesResult = round_trip(
            r#"{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"Project Files",
                "title":"Project Files","description":"Access files in the project directory",
                "mimeType":"application/octet-stream"}]}"#,
        );
        assert_eq!(
            templates.resource_templates[0].uri_template,
            "file:///{path}"
        );
    }

    #[test]
    fn reads_read_params_of_both_revisions() {
        let legacy: ReadResourceParams = round_trip(r#"{"uri":"file:///project/src/main.rs"}"#);
        assert!(legacy.input_responses.is_none());
        let retry: ReadResourceParams = serde_json::from_str(
            r#"{"uri":"mem://secret","inputResponses":{"ok":{"action":"accept"}},"requestState":"s",
                "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities":{}}}"#,
        )
        .unwrap();
        assert_eq!(retry.request_state.as_deref(), Some("s"));
        assert!(retry.input_responses.is_some());
    }

    #[test]
    fn round_trips_read_results_with_text_and_blob_contents() {
        let result: ReadResourceResult = round_trip(
            r#"{"contents":[
                {"uri":"file:///project/src/main.rs","mimeType":"text/x-rust","text":"fn main() {\n    println!(\"Hello world!\");\n}"},
                {"uri":"file:///project/logo.png","mimeType":"image/png","blob":"iVBORw0KGgo="},
                {"uri":"file:///project/README","text":"hi"},
                {"uri":"ui://project/view.html","text":"<!doctype html>","_meta":{"ui":{"prefersBorder":true}}}]}"#,
        );
        assert_eq!(result.contents.len(), 4);
        assert_eq!(
            result.contents[3].meta().unwrap()["ui"]["prefersBorder"],
            true
        );
        assert!(matches!(result.contents[1], ResourceContents::Blob { .. }));
        assert_eq!(
            serde_json::to_value(ReadResourceResult::text("mem://a", None, "x")).unwrap(),
            serde_json::json!({"contents":[{"uri":"mem://a","text":"x"}]})
        );
    }

    #[test]
    fn round_trips_subscribe_and_updated_params() {
        let _: SubscribeParams = round_trip(r#"{"uri":"file:///project/src/main.rs"}"#);
        let _: UnsubscribeParams = round_trip(r#"{"uri":"file:///project/src/main.rs"}"#);
        let updated: ResourceUpdatedParams = round_trip(r#"{"uri":"mem://notes/1"}"#);
        assert_eq!(updated.uri, "mem://notes/1");
    }
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn resources_resourceupdatedparams() {
        let params = ResourceUpdatedParams {
            uri: "file:///log.txt".into(),
        };
        assert_eq!(
            notification_line(UPDATED, &params),
            r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///log.txt"}}"#
        );
    }
}
