//! MCP Apps (the extension `io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26) on the
//! wire: a tool points at a view, a `ui://` resource of HTML that the host renders in a
//! sandboxed frame, and the view's security settings travel as `_meta.ui` on the resource.
//! The extension adds no method: the host reads the view with `resources/read`, and the view's
//! own calls reach the server as ordinary `tools/call` requests.
//!
//! # Examples
//!
//! A tool as `tools/list` shows it when it points at a view, read as a host reads it:
//!
//! ```
//! use mcpwire::protocol::Tool;
//! use mcpwire::protocol::apps::{UiToolMeta, Visibility};
//! use serde_json::json;
//!
//! let tool: Tool = serde_json::from_value(json!({
//!     "name": "browse_catalog",
//!     "inputSchema": {"type": "object"},
//!     "_meta": {
//!         "ui": {"resourceUri": "ui://shop/catalog.html", "visibility": ["model", "app"]},
//!         "ui/resourceUri": "ui://shop/catalog.html"
//!     }
//! }))
//! .unwrap();
//! let ui = UiToolMeta::of(&tool).unwrap();
//! assert_eq!(ui.resource_uri.as_deref(), Some("ui://shop/catalog.html"));
//! assert_eq!(ui.visibility, Some(vec![Visibility::Model, Visibility::App]));
//! ```

use super::tools::Tool;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of a view's contents (`RESOURCE_MIME_TYPE` in the official SDK).
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The URI scheme every view's URI starts with.
pub const SCHEME: &str = "ui://";
/// The `_meta` key of a tool's link to its view, and of a view's settings.
pub const META_KEY: &str = "ui";
/// The deprecated flat `_meta` key of a tool's view (`_meta["ui/resourceUri"]`), which hosts
/// older than `_meta.ui` read; it is to be removed before the extension's general availability.
pub const RESOURCE_URI_META_KEY: &str = "ui/resourceUri";

/// The origins a view may reach, which the host turns into its frame's Content Security
/// Policy. An empty list (or an absent one) allows none: with no `csp` at all the host applies
/// a restrictive default that still runs the document's inline scripts and styles. Each entry
/// is an origin such as `https://api.example.com`, or `https://*.example.com` for its
/// subdomains.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::apps::Csp;
/// use serde_json::json;
///
/// let csp = Csp {
///     connect_domains: vec!["https://api.example.com".into()],
///     ..Csp::default()
/// };
/// assert_eq!(
///     serde_json::to_value(&csp).unwrap(),
///     json!({"connectDomains": ["https://api.example.com"]})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Csp {
    /// Origins of `fetch`, XHR and WebSocket connections (`connect-src`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connect_domains: Vec<String>,
    /// Origins of images, scripts, stylesheets, fonts and media (`img-src`, `script-src`,
    /// `style-src`, `font-src`, `media-src`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_domains: Vec<String>,
    /// Origins of nested frames (`frame-src`; none by default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frame_domains: Vec<String>,
    /// Allowed base URIs of the document (`base-uri`; its own origin by default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_uri_domains: Vec<String>,
}

impl Csp {
    /// Every origin it names, each with the field it is in (`connectDomains`).
    pub fn entries(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("connectDomains", &self.connect_domains),
            ("resourceDomains", &self.resource_domains),
            ("frameDomains", &self.frame_domains),
            ("baseUriDomains", &self.base_uri_domains),
        ]
        .into_iter()
        .flat_map(|(name, list)| list.iter().map(move |entry| (name, entry.as_str())))
    }
}

/// The browser permissions a view asks its host for (each a Permission Policy feature of the
/// frame); none unless asked. The host may refuse any of them.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::apps::Permissions;
/// use serde_json::json;
///
/// let permissions = Permissions { clipboard_write: true, ..Permissions::default() };
/// assert_eq!(serde_json::to_value(permissions).unwrap(), json!({"clipboardWrite": {}}));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "PermissionsWire", into = "PermissionsWire")]
pub struct Permissions {
    /// The camera (`camera`).
    pub camera: bool,
    /// The microphone (`microphone`).
    pub microphone: bool,
    /// The location (`geolocation`).
    pub geolocation: bool,
    /// Writing to the clipboard (`clipboard-write`).
    pub clipboard_write: bool,
}

/// [`Permissions`] as sent: each asked-for permission an empty object.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PermissionsWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    camera: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    microphone: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    geolocation: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clipboard_write: Option<Map<String, Value>>,
}

impl From<PermissionsWire> for Permissions {
    fn from(wire: PermissionsWire) -> Self {
        Self {
            camera: wire.camera.is_some(),
            microphone: wire.microphone.is_some(),
            geolocation: wire.geolocation.is_some(),
            clipboard_write: wire.clipboard_write.is_some(),
        }
    }
}

impl From<Permissions> for PermissionsWire {
    fn from(permissions: Permissions) -> Self {
        let asked = |yes: bool| yes.then(Map::new);
        Self {
            camera: asked(permissions.camera),
            microphone: asked(permissions.microphone),
            geolocation: asked(permissions.geolocation),
            clipboard_write: asked(permissions.clipboard_write),
        }
    }
}

/// A view's `_meta.ui`: on the content item of its `resources/read` (which wins) and on its
/// `resources/list` entry.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ResourceContents;
/// use mcpwire::protocol::apps::UiResourceMeta;
/// use serde_json::json;
///
/// let read: ResourceContents = serde_json::from_value(json!({
///     "uri": "ui://shop/catalog.html",
///     "mimeType": "text/html;profile=mcp-app",
///     "text": "<!doctype html>",
///     "_meta": {"ui": {"prefersBorder": true, "csp": {"connectDomains": []}}}
/// }))
/// .unwrap();
/// let ui = UiResourceMeta::of(read.meta()).unwrap();
/// assert_eq!(ui.prefers_border, Some(true));
/// assert!(ui.csp.unwrap().connect_domains.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UiResourceMeta {
    /// The origins the view may reach; the host's restrictive default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csp: Option<Csp>,
    /// The browser permissions the view asks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Permissions>,
    /// A dedicated origin for the view's frame, in the host's own format (for example
    /// `{hash}.claudemcpcontent.com`); the host's per-conversation origin when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Whether the view would like a visible border and background (`false`: none); the host
    /// decides when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefers_border: Option<bool>,
}

impl UiResourceMeta {
    /// The `ui` entry of a resource's (or a read content item's) `_meta`, when there is one
    /// that reads as settings.
    pub fn of(meta: Option<&Map<String, Value>>) -> Option<Self> {
        let ui = meta?.get(META_KEY)?;
        serde_json::from_value(ui.clone()).ok()
    }

    /// Whether it sets nothing (then a server leaves `_meta.ui` out).
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

/// Who may call a tool that carries `_meta.ui`: the model, the view (`app`), or both (the
/// default). Hosts enforce it; it is not a security boundary on the server, which cannot tell
/// a model's call from a view's (both come over the host's own connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// The model sees and calls the tool.
    Model,
    /// Views of this server call the tool.
    App,
}

/// A tool's `_meta.ui`: the view it is shown with, and who may call it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UiToolMeta {
    /// The `ui://` URI of the tool's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_uri: Option<String>,
    /// Who may call the tool; `["model", "app"]` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Vec<Visibility>>,
}

impl UiToolMeta {
    /// The tool's `_meta.ui` as a host reads it: its `resourceUri` taken from the deprecated
    /// flat `_meta["ui/resourceUri"]` when `_meta.ui` has none. `None` when the tool has
    /// neither.
    pub fn of(tool: &Tool) -> Option<Self> {
        let meta = tool.meta.as_ref()?;
        let mut ui: Option<Self> =
            (meta.get(META_KEY)).and_then(|ui| serde_json::from_value(ui.clone()).ok());
        let flat = meta.get(RESOURCE_URI_META_KEY).and_then(Value::as_str);
        if let Some(flat) = flat {
            let ui = ui.get_or_insert_with(Self::default);
            ui.resource_uri.get_or_insert_with(|| flat.to_owned());
        }
        ui
    }
}
