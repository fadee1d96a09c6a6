//! `completion/complete`: suggestions for a prompt argument or a resource-template variable
//! while the user types it (both revisions, behind the `completions` server capability).
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{CompleteParams, CompleteResult, Completion};
//! use serde_json::json;
//!
//! let params: CompleteParams = serde_json::from_str(
//!     r#"{"ref":{"type":"ref/resource","uri":"github://repos/{owner}/{repo}"},"argument":{"name":"repo","value":"mc"}}"#,
//! )
//! .unwrap();
//! let repos = ["mcp-go", "servers", "mcpwire"];
//! let typed = params.argument.value.as_str();
//! let completion = Completion::from_values(repos.into_iter().filter(|r| r.starts_with(typed)));
//! assert_eq!(
//!     serde_json::to_value(CompleteResult { completion }).unwrap(),
//!     json!({"completion": {"values": ["mcp-go", "mcpwire"]}})
//! );
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The most values one completion may carry.
pub const MAX_VALUES: usize = 100;

/// What is being completed: an argument of a prompt, or a variable of a resource template.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CompletionReference;
/// use serde_json::json;
///
/// let prompt = CompletionReference::Prompt { name: "code_review".into(), title: None };
/// assert_eq!(
///     serde_json::to_value(&prompt).unwrap(),
///     json!({"type": "ref/prompt", "name": "code_review"})
/// );
/// let template: CompletionReference =
///     serde_json::from_value(json!({"type": "ref/resource", "uri": "file:///{path}"})).unwrap();
/// assert_eq!(template, CompletionReference::Resource { uri: "file:///{path}".into() });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum CompletionReference {
    /// `ref/prompt`: a prompt, by name.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// The prompt's name.
        name: String,
        /// Its display title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// `ref/resource`: a resource template, by its URI template (or a resource, by URI).
    #[serde(rename = "ref/resource")]
    Resource {
        /// The URI template or URI.
        uri: String,
    },
}

/// The argument being completed.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CompletionArgument;
/// use serde_json::json;
///
/// let argument = CompletionArgument { name: "language".into(), value: "py".into() };
/// assert_eq!(
///     serde_json::to_value(&argument).unwrap(),
///     json!({"name": "language", "value": "py"})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletionArgument {
    /// Its name.
    pub name: String,
    /// What the user has typed so far.
    pub value: String,
}

/// What the client already knows besides the argument being completed.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CompletionContext;
/// use serde_json::json;
///
/// let context: CompletionContext =
///     serde_json::from_value(json!({"arguments": {"owner": "rust-lang"}})).unwrap();
/// assert_eq!(context.arguments.unwrap()["owner"], "rust-lang");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompletionContext {
    /// Values already chosen for the other arguments or template variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
}

/// `completion/complete` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{CompleteParams, CompletionReference};
/// use serde_json::json;
///
/// let params: CompleteParams = serde_json::from_value(json!({
///     "ref": {"type": "ref/prompt", "name": "code_review"},
///     "argument": {"name": "language", "value": "py"}
/// }))
/// .unwrap();
/// let CompletionReference::Prompt { name, .. } = &params.reference else { panic!("a prompt") };
/// assert_eq!(name, "code_review");
/// assert_eq!(params.argument.value, "py");
/// assert!(params.context.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompleteParams {
    /// The prompt or resource template.
    #[serde(rename = "ref")]
    pub reference: CompletionReference,
    /// The argument and its partial value.
    pub argument: CompletionArgument,
    /// Other arguments already chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
}

/// The suggestions.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Completion;
/// use serde_json::json;
///
/// let completion =
///     Completion { values: vec!["python".into()], total: Some(10), has_more: Some(true) };
/// assert_eq!(
///     serde_json::to_value(&completion).unwrap(),
///     json!({"values": ["python"], "total": 10, "hasMore": true})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// At most 100 values, best first.
    pub values: Vec<String>,
    /// How many values exist in all; may exceed `values.len()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more values exist than were sent, even when `total` is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

impl Completion {
    /// The first 100 of `values`; when some were cut, `total` and `hasMore` say so.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::Completion;
    ///
    /// let few = Completion::from_values(["python", "pytorch"]);
    /// assert_eq!((few.values.len(), few.total, few.has_more), (2, None, None));
    /// let many = Completion::from_values((0..250).map(|n| n.to_string()));
    /// assert_eq!(many.values.len(), 100);
    /// assert_eq!((many.total, many.has_more), (Some(250), Some(true)));
    /// ```
    pub fn from_values(values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut values: Vec<String> = values.into_iter().map(Into::into).collect();
        let total = values.len();
        if total <= MAX_VALUES {
            return Self {
                values,
                ..Self::default()
            };
        }
        values.truncate(MAX_VALUES);
        Self {
            values,
            total: Some(total as u64),
            has_more: Some(true),
        }
    }
}

/// `completion/complete` result (`resultType` is added by the 2026-07-28 envelope).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{CompleteResult, Completion};
/// use serde_json::json;
///
/// let result = CompleteResult { completion: Completion::from_values(["python"]) };
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     json!({"completion": {"values": ["python"]}})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompleteResult {
    /// The suggestions.
    pub completion: Completion,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::round_trip;

    #[test]
    fn round_trips_params_for_a_prompt_and_a_resource_template() {
        let prompt: CompleteParams = round_trip(
            r#"{"ref":{"type":"ref/prompt","name":"code_review"},
                "argument":{"name":"language","value":"py"}}"#,
        );
        assert!(
            matches!(prompt.reference, CompletionReference::Prompt { ref name, .. } if name == "code_review")
        );
        assert!(prompt.context.is_none());

        let resource: CompleteParams = round_trip(
            r#"{"ref":{"type":"ref/resource","uri":"github://repos/{owner}/{repo}"},
                "argument":{"name":"repo","value":"mc"},
                "context":{"arguments":{"owner":"modelcontextprotocol"}}}"#,
        );
        assert_eq!(
            resource.context.unwrap().arguments.unwrap()["owner"],
            "modelcontextprotocol"
        );
        assert!(
            serde_json::from_str::<CompleteParams>(
                r#"{"ref":{"type":"ref/tool","name":"x"},"argument":{"name":"a","value":""}}"#
            )
            .is_err()
        );
    }

    #[test]
    fn round_trips_results_and_caps_values() {
        let result: CompleteResult = round_trip(
            r#"{"completion":{"values":["python","pytorch","pyside"],"total":10,"hasMore":true}}"#,
        );
        assert_eq!(result.completion.values.len(), 3);
        let _: CompleteResult = round_trip(r#"{"completion":{"values":[]}}"#);

        let few = Completion::from_values(["a", "b"]);
        assert_eq!((few.total, few.has_more), (None, None));
        let many = Completion::from_values((0..250).map(|n| n.to_string()));
        assert_eq!(many.values.len(), MAX_VALUES);
        assert_eq!((many.total, many.has_more), (Some(250), Some(true)));
    }
}
