//! Prompts: templates the server offers (`prompts/list`) and renders into messages
//! (`prompts/get`). Both revisions; in 2026-07-28 `prompts/get` may also answer
//! `input_required` and be retried with `inputResponses`/`requestState`.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{GetPromptParams, GetPromptResult, PromptMessage};
//!
//! let params: GetPromptParams =
//!     serde_json::from_str(r#"{"name":"greet","arguments":{"who":"Ada"}}"#).unwrap();
//! let who = &params.arguments.as_ref().unwrap()["who"];
//! let result = GetPromptResult {
//!     description: None,
//!     messages: vec![PromptMessage::user(format!("Say hello to {who}."))],
//! };
//! let json = serde_json::to_value(&result).unwrap();
//! assert_eq!(json["messages"][0]["content"]["text"], "Say hello to Ada.");
//! ```

use super::content::{Content, Role};
use super::icon::Icon;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// An argument a prompt template accepts.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::PromptArgument;
/// use serde_json::json;
///
/// let argument = PromptArgument { required: Some(true), ..PromptArgument::new("language") };
/// assert_eq!(
///     serde_json::to_value(&argument).unwrap(),
///     json!({"name": "language", "required": true})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgument {
    /// The name clients pass it by.
    pub name: String,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether it must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

impl PromptArgument {
    /// An argument with only a name.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::PromptArgument;
    /// use serde_json::json;
    ///
    /// let argument = PromptArgument::new("topic");
    /// assert_eq!(serde_json::to_value(&argument).unwrap(), json!({"name": "topic"}));
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            required: None,
        }
    }
}

/// A prompt or prompt template as `prompts/list` describes it.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{Prompt, PromptArgument};
/// use serde_json::json;
///
/// let prompt = Prompt {
///     description: Some("Review a piece of code.".into()),
///     arguments: Some(vec![PromptArgument::new("code")]),
///     ..Prompt::new("code_review")
/// };
/// assert_eq!(
///     serde_json::to_value(&prompt).unwrap(),
///     json!({
///         "name": "code_review",
///         "description": "Review a piece of code.",
///         "arguments": [{"name": "code"}]
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// The name clients get it by.
    pub name: String,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it provides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it is templated with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons a client may show for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extra metadata (`_meta`), keyed by prefixed names.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl Prompt {
    /// A prompt with only a name.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::Prompt;
    /// use serde_json::json;
    ///
    /// assert_eq!(serde_json::to_value(Prompt::new("greet")).unwrap(), json!({"name": "greet"}));
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            arguments: None,
            icons: None,
            meta: None,
        }
    }
}

/// `prompts/list` result (`resultType`, `ttlMs` and `cacheScope` are added by the 2026-07-28
/// envelope, not carried here). Its params are [`super::tools::PaginatedParams`].
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ListPromptsResult, Prompt};
/// use serde_json::json;
///
/// let page =
///     ListPromptsResult { prompts: vec![Prompt::new("greet")], next_cursor: Some("2".into()) };
/// assert_eq!(
///     serde_json::to_value(&page).unwrap(),
///     json!({"prompts": [{"name": "greet"}], "nextCursor": "2"})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPromptsResult {
    /// One page of prompts.
    pub prompts: Vec<Prompt>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `prompts/get` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::GetPromptParams;
///
/// let params: GetPromptParams =
///     serde_json::from_str(r#"{"name":"greet","arguments":{"who":"Ada"}}"#).unwrap();
/// assert_eq!(params.name, "greet");
/// assert_eq!(params.arguments.unwrap()["who"], "Ada");
/// assert!(params.request_state.is_none());
/// ```
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptParams {
    /// The prompt to render.
    pub name: String,
    /// Template arguments; the spec allows only string values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
    /// 2026-07-28: answers to the previous round's questions, by key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<Box<RawValue>>,
    /// 2026-07-28: the state the previous round returned, echoed verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

/// One message of a rendered prompt: a role and one content block (text, image, audio, a
/// resource link or an embedded resource).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::PromptMessage;
/// use serde_json::json;
///
/// assert_eq!(
///     serde_json::to_value(PromptMessage::user("Hi")).unwrap(),
///     json!({"role": "user", "content": {"type": "text", "text": "Hi"}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A user message with one text block.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Content;
    /// use mcpwire::protocol::{PromptMessage, Role};
    ///
    /// let message = PromptMessage::user("Review this diff.");
    /// assert_eq!(message.role, Role::User);
    /// assert_eq!(message.content, Content::text("Review this diff."));
    /// ```
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: Content::text(text),
        }
    }

    /// An assistant message with one text block.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{PromptMessage, Role};
    ///
    /// assert_eq!(PromptMessage::assistant("Sure.").role, Role::Assistant);
    /// ```
    pub fn assistant(text: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: Content::text(text),
        }
    }
}

/// `prompts/get` result (when complete; `resultType` is added by the 2026-07-28 envelope).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{GetPromptResult, PromptMessage};
/// use serde_json::json;
///
/// let result = GetPromptResult {
///     description: Some("A greeting".into()),
///     messages: vec![PromptMessage::user("Hello, Ada")],
/// };
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     json!({
///         "description": "A greeting",
///         "messages": [{"role": "user", "content": {"type": "text", "text": "Hello, Ada"}}]
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptResult {
    /// A description of the rendered prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::round_trip;

    #[test]
    fn round_trips_a_prompts_list_page() {
        let page: ListPromptsResult = round_trip(
            r#"{"prompts":[{"name":"code_review","title":"Request Code Review",
                "description":"Asks the LLM to analyze code quality and suggest improvements",
                "arguments":[{"name":"code","title":"Code","description":"The code to review","required":true},
                             {"name":"style"}],
                "icons":[{"src":"https://srv.example/review.svg","mimeType":"image/svg+xml","sizes":["any"]}],
                "_meta":{"com.example/category":"dev"}}],
              "nextCursor":"next-page"}"#,
        );
        let prompt = &page.prompts[0];
        assert_eq!(prompt.arguments.as_ref().unwrap()[0].required, Some(true));
        assert_eq!(
            prompt.arguments.as_ref().unwrap()[1],
            PromptArgument::new("style")
        );
        let _: Prompt = round_trip(r#"{"name":"bare"}"#);
    }

    #[test]
    fn reads_get_params_of_both_revisions() {
        let legacy: GetPromptParams = round_trip(
            r#"{"name":"code_review","arguments":{"code":"def hello():\n    print('world')"}}"#,
        );
        assert_eq!(
            legacy.arguments.unwrap()["code"],
            "def hello():\n    print('world')"
        );
        assert!(legacy.input_responses.is_none() && legacy.request_state.is_none());

        // A 2026-07-28 retry; the request `_meta` is read separately (`meta::MetaOnly`).
        let retry: GetPromptParams = serde_json::from_str(
            r#"{"name":"code_review","arguments":{"code":"x"},
                "inputResponses":{"lang":{"action":"accept","content":{"lang":"python"}}},
                "requestState":"v1.abc.mac",
                "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}"#,
        )
        .unwrap();
        assert_eq!(retry.request_state.as_deref(), Some("v1.abc.mac"));
        assert_eq!(
            retry.input_responses.unwrap().get(),
            r#"{"lang":{"action":"accept","content":{"lang":"python"}}}"#
        );
        assert!(
            serde_json::from_str::<GetPromptParams>(r#"{"name":"p","arguments":{"n":1}}"#).is_err(),
            "argument values are strings"
        );
    }

    #[test]
    fn round_trips_a_rendered_prompt() {
        let result: GetPromptResult = round_trip(
            r#"{"description":"Code review prompt","messages":[
                {"role":"user","content":{"type":"text","text":"Please review this Python code:\ndef hello():\n    print('world')"}},
                {"role":"user","content":{"type":"resource_link","uri":"file:///project/src/main.rs",
                  "name":"main.rs","description":"Primary entry point","mimeType":"text/x-rust"}},
                {"role":"user","content":{"type":"resource","resource":{"uri":"mem://notes/1","mimeType":"text/plain","text":"note"}}},
                {"role":"assistant","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}]}"#,
        );
        assert_eq!(result.messages.len(), 4);
        assert_eq!(
            serde_json::to_value(PromptMessage::assistant("ok")).unwrap(),
            serde_json::json!({"role":"assistant","content":{"type":"text","text":"ok"}})
        );
    }
}
