//! Content blocks: what tools return and prompts contain.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::Content;
//! use serde_json::json;
//!
//! let blocks = vec![Content::text("The chart:"), Content::image("iVBORw0KGgo=", "image/png")];
//! assert_eq!(
//!     serde_json::to_value(&blocks).unwrap(),
//!     json!([
//!         {"type": "text", "text": "The chart:"},
//!         {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
//!     ])
//! );
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Hints about who a block is for and how much it matters.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Annotations;
/// use mcpwire::protocol::Role;
/// use serde_json::json;
///
/// let hints =
///     Annotations { audience: Some(vec![Role::User]), priority: Some(0.5), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(&hints).unwrap(),
///     json!({"audience": ["user"], "priority": 0.5})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// `"user"` and/or `"assistant"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// 0 (least) to 1 (most important).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 time of the last change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// The two roles of a conversation.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Role;
///
/// assert_eq!(serde_json::to_value(Role::Assistant).unwrap(), "assistant");
/// assert_eq!(serde_json::from_str::<Role>(r#""user""#).unwrap(), Role::User);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human side.
    User,
    /// The model side.
    Assistant,
}

/// The contents of a resource: text or base64 bytes, each with optional `_meta` (where MCP
/// Apps puts a view's `_meta.ui`, for one).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ResourceContents;
/// use serde_json::json;
///
/// let text = ResourceContents::Text {
///     uri: "file:///notes.txt".into(),
///     mime_type: Some("text/plain".into()),
///     text: "hello".into(),
///     meta: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&text).unwrap(),
///     json!({"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "hello"})
/// );
/// let blob: ResourceContents = serde_json::from_value(json!({
///     "uri": "file:///logo.png",
///     "blob": "iVBORw0KGgo=",
///     "_meta": {"com.example/source": "upload"}
/// }))
/// .unwrap();
/// assert!(matches!(blob, ResourceContents::Blob { mime_type: None, .. }));
/// assert_eq!(blob.meta().unwrap()["com.example/source"], "upload");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text contents.
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
        /// Extra metadata (`_meta`), keyed by prefixed names.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
    /// Binary contents.
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Base64 of the bytes.
        blob: String,
        /// Extra metadata (`_meta`), keyed by prefixed names.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
}

impl ResourceContents {
    /// The URI the contents were read from.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => uri,
        }
    }

    /// Their MIME type, if given.
    pub fn mime_type(&self) -> Option<&str> {
        match self {
            ResourceContents::Text { mime_type, .. } | ResourceContents::Blob { mime_type, .. } => {
                mime_type.as_deref()
            }
        }
    }

    /// Their `_meta`, if any.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        match self {
            ResourceContents::Text { meta, .. } | ResourceContents::Blob { meta, .. } => {
                meta.as_ref()
            }
        }
    }
}

/// One block of content.
///
/// # Examples
///
/// ```
/// use mcpwire::Content;
/// use serde_json::json;
///
/// let link = Content::ResourceLink {
///     uri: "file:///notes.txt".into(),
///     name: "notes".into(),
///     description: None,
///     mime_type: None,
///     annotations: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&link).unwrap(),
///     json!({"type": "resource_link", "uri": "file:///notes.txt", "name": "notes"})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// Plain text.
    Text {
        /// The text.
        text: String,
        /// Optional hints.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// An image.
    Image {
        /// Base64 of the bytes.
        data: String,
        /// e.g. `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Optional hints.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// Audio.
    Audio {
        /// Base64 of the bytes.
        data: String,
        /// e.g. `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Optional hints.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A link to a resource the client may read.
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// Its name.
        name: String,
        /// A description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Optional hints.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// An embedded resource.
    Resource {
        /// Its contents.
        resource: ResourceContents,
        /// Optional hints.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
}

impl Content {
    /// A text block.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Content;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     serde_json::to_value(Content::text("hello")).unwrap(),
    ///     json!({"type": "text", "text": "hello"})
    /// );
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// An image block from base64 data.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Content;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     serde_json::to_value(Content::image("iVBORw0KGgo=", "image/png")).unwrap(),
    ///     json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"})
    /// );
    /// ```
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An audio block from base64 data.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Content;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     serde_json::to_value(Content::audio("UklGRg==", "audio/wav")).unwrap(),
    ///     json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})
    /// );
    /// ```
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }
}
