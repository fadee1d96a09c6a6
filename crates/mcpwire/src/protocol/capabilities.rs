//! Client and server capabilities, as declared on the wire.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::ResourcesCapability;
//! use mcpwire::protocol::{ClientCapabilities, ServerCapabilities};
//! use serde_json::json;
//!
//! let client: ClientCapabilities =
//!     serde_json::from_str(r#"{"elicitation":{"form":{}},"sampling":{"tools":{}}}"#).unwrap();
//! assert!(client.elicitation_form() && client.sampling_tools() && !client.roots());
//! let resources = ResourcesCapability { subscribe: Some(true), list_changed: Some(true) };
//! let server = ServerCapabilities { resources: Some(resources), ..Default::default() };
//! assert_eq!(
//!     serde_json::to_value(&server).unwrap(),
//!     json!({"resources": {"subscribe": true, "listChanged": true}})
//! );
//! ```

use super::list_changed::ChangedList;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a client declared it can do: from `initialize` (2025-11-25, for the whole session) or
/// from each request's `_meta` (2026-07-28, for that request only).
///
/// Unknown members are kept, so the declaration can be echoed or inspected as sent.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ClientCapabilities;
/// use serde_json::json;
///
/// let caps: ClientCapabilities = serde_json::from_value(json!({
///     "roots": {"listChanged": true},
///     "experimental": {"x-trace": {}}
/// }))
/// .unwrap();
/// assert!(caps.roots());
/// assert!(!caps.sampling());
/// assert_eq!(caps.other["experimental"], json!({"x-trace": {}}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// `roots`: the client can list its roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Value>,
    /// `sampling`: the client can run its LLM (`{"tools":{}}` for tool use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Value>,
    /// `elicitation`: the client can ask its user (`{}` means form mode only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<Value>,
    /// Everything else (`experimental`, `extensions`, `tasks`, …).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl ClientCapabilities {
    /// Form-mode elicitation: `elicitation` declared with `form`, or with neither mode.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities = serde_json::from_str(r#"{"elicitation":{}}"#).unwrap();
    /// assert!(caps.elicitation_form());
    /// let url_only: ClientCapabilities = serde_json::from_str(r#"{"elicitation":{"url":{}}}"#).unwrap();
    /// assert!(!url_only.elicitation_form());
    /// ```
    pub fn elicitation_form(&self) -> bool {
        match &self.elicitation {
            Some(Value::Object(modes)) => modes.contains_key("form") || !modes.contains_key("url"),
            Some(_) => true,
            None => false,
        }
    }

    /// URL-mode elicitation: `elicitation.url` declared.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities =
    ///     serde_json::from_str(r#"{"elicitation":{"form":{},"url":{}}}"#).unwrap();
    /// assert!(caps.elicitation_url());
    /// assert!(!ClientCapabilities::default().elicitation_url());
    /// ```
    pub fn elicitation_url(&self) -> bool {
        matches!(&self.elicitation, Some(Value::Object(m)) if m.contains_key("url"))
    }

    /// `sampling` declared.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities = serde_json::from_str(r#"{"sampling":{}}"#).unwrap();
    /// assert!(caps.sampling());
    /// assert!(!ClientCapabilities::default().sampling());
    /// ```
    pub fn sampling(&self) -> bool {
        self.sampling.is_some()
    }

    /// `sampling.tools` declared.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities = serde_json::from_str(r#"{"sampling":{"tools":{}}}"#).unwrap();
    /// assert!(caps.sampling_tools());
    /// let plain: ClientCapabilities = serde_json::from_str(r#"{"sampling":{}}"#).unwrap();
    /// assert!(!plain.sampling_tools());
    /// ```
    pub fn sampling_tools(&self) -> bool {
        matches!(&self.sampling, Some(Value::Object(m)) if m.contains_key("tools"))
    }

    /// `roots` declared.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities = serde_json::from_str(r#"{"roots":{"listChanged":true}}"#).unwrap();
    /// assert!(caps.roots());
    /// assert!(!ClientCapabilities::default().roots());
    /// ```
    pub fn roots(&self) -> bool {
        self.roots.is_some()
    }
}

/// A capability with only a `listChanged` flag.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ListChanged;
/// use serde_json::json;
///
/// let cap = ListChanged { list_changed: Some(true) };
/// assert_eq!(serde_json::to_value(&cap).unwrap(), json!({"listChanged": true}));
/// assert_eq!(serde_json::to_value(ListChanged::default()).unwrap(), json!({}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChanged {
    /// Whether the server announces changes of the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// The `resources` capability.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ResourcesCapability;
/// use serde_json::json;
///
/// let cap = ResourcesCapability { subscribe: Some(true), list_changed: None };
/// assert_eq!(serde_json::to_value(&cap).unwrap(), json!({"subscribe": true}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// Whether clients may subscribe to resource updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// Whether the server announces changes of the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// What this server offers; derived from what was registered.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ListChanged, ServerCapabilities};
/// use serde_json::json;
///
/// let caps = ServerCapabilities {
///     tools: Some(ListChanged { list_changed: Some(true) }),
///     ..ServerCapabilities::default()
/// };
/// assert_eq!(serde_json::to_value(&caps).unwrap(), json!({"tools": {"listChanged": true}}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerCapabilities {
    /// Tools are offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListChanged>,
    /// Prompts are offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListChanged>,
    /// Resources are offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// Argument completion is offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<Map<String, Value>>,
    /// Log messages to the client are offered (deprecated in 2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Map<String, Value>>,
    /// Extensions (2026-07-28), keyed by prefixed id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
    /// Experimental, non-standard capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Map<String, Value>>,
}

impl ServerCapabilities {
    /// Whether the server announces changes of `list` (`listChanged: true` on its capability).
    ///
    /// ```
    /// use mcpwire::protocol::{ListChanged, ServerCapabilities};
    /// use mcpwire::protocol::ChangedList;
    ///
    /// let capabilities = ServerCapabilities {
    ///     tools: Some(ListChanged { list_changed: Some(true) }),
    ///     prompts: Some(ListChanged::default()),
    ///     ..ServerCapabilities::default()
    /// };
    /// assert!(capabilities.announces_list_changed(ChangedList::Tools));
    /// assert!(!capabilities.announces_list_changed(ChangedList::Prompts));
    /// assert!(!capabilities.announces_list_changed(ChangedList::Resources));
    /// ```
    pub fn announces_list_changed(&self, list: ChangedList) -> bool {
        let flag = match list {
            ChangedList::Tools => self.tools.as_ref().and_then(|c| c.list_changed),
            ChangedList::Prompts => self.prompts.as_ref().and_then(|c| c.list_changed),
            ChangedList::Resources => self.resources.as_ref().and_then(|c| c.list_changed),
        };
        flag == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(json: &str) -> ClientCapabilities {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn reads_elicitation_modes_as_the_spec_defines_them() {
        assert!(caps(r#"{"elicitation":{}}"#).elicitation_form());
        assert!(!caps(r#"{"elicitation":{"url":{}}}"#).elicitation_form());
        assert!(caps(r#"{"elicitation":{"url":{}}}"#).elicitation_url());
        assert!(caps(r#"{"elicitation":{"form":{},"url":{}}}"#).elicitation_form());
        assert!(!caps("{}").elicitation_form());
        assert!(caps(r#"{"sampling":{"tools":{}}}"#).sampling_tools());
        assert!(!caps(r#"{"sampling":{}}"#).sampling_tools());
        assert!(caps(r#"{"roots":{"listChanged":true}}"#).roots());
    }
}
