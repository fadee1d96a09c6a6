//! Sampling: asking the client's LLM for a message (deprecated in 2026-07-28, still served).
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{CreateMessageResult, SamplingMessage};
//! use serde_json::json;
//!
//! let question = SamplingMessage::user("Name a river in France.");
//! let json = serde_json::to_value(&question).unwrap();
//! assert_eq!(json["content"]["text"], "Name a river in France.");
//! let answer: CreateMessageResult = serde_json::from_value(json!({
//!     "role": "assistant",
//!     "content": {"type": "text", "text": "The Loire."},
//!     "model": "example-model"
//! }))
//! .unwrap();
//! assert_eq!(answer.content.text(), Some("The Loire."));
//! ```

use super::content::Role;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Content of a sampling message: one block, or several.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{SamplingBlock, SamplingContent};
///
/// let one: SamplingContent = serde_json::from_str(r#"{"type":"text","text":"Hi"}"#).unwrap();
/// assert_eq!(one, SamplingContent::One(SamplingBlock::Text { text: "Hi".into() }));
/// let many: SamplingContent = serde_json::from_str(r#"[{"type":"text","text":"Hi"}]"#).unwrap();
/// assert!(matches!(many, SamplingContent::Many(blocks) if blocks.len() == 1));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SamplingContent {
    /// One block.
    One(SamplingBlock),
    /// Several blocks.
    Many(Vec<SamplingBlock>),
}

/// One block of a sampling message.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::SamplingBlock;
/// use serde_json::json;
///
/// let call = SamplingBlock::ToolUse {
///     id: "c1".into(),
///     name: "search".into(),
///     input: json!({"q": "rust"}),
/// };
/// assert_eq!(
///     serde_json::to_value(&call).unwrap(),
///     json!({"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "rust"}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SamplingBlock {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image.
    Image {
        /// Base64 data.
        data: String,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio.
    Audio {
        /// Base64 data.
        data: String,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// The model asks to use a tool.
    ToolUse {
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
        /// Tool input.
        input: Value,
    },
    /// A tool's result, fed back to the model.
    ToolResult {
        /// The call id it answers.
        #[serde(rename = "toolUseId")]
        tool_use_id: String,
        /// The result's content.
        content: Vec<Value>,
        /// Whether the tool failed.
        #[serde(rename = "isError", default, skip_serializing_if = "Option::is_none")]
        is_error: Option<bool>,
    },
}

impl SamplingContent {
    /// The text of the first text block, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{SamplingBlock, SamplingContent};
    ///
    /// let content = SamplingContent::Many(vec![
    ///     SamplingBlock::Image { data: "iVBORw0KGgo=".into(), mime_type: "image/png".into() },
    ///     SamplingBlock::Text { text: "A cat.".into() },
    /// ]);
    /// assert_eq!(content.text(), Some("A cat."));
    /// ```
    pub fn text(&self) -> Option<&str> {
        let blocks: &[SamplingBlock] = match self {
            SamplingContent::One(block) => std::slice::from_ref(block),
            SamplingContent::Many(blocks) => blocks,
        };
        blocks.iter().find_map(|block| match block {
            SamplingBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
    }
}

/// A message of the conversation sent for sampling.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::SamplingMessage;
/// use serde_json::json;
///
/// assert_eq!(
///     serde_json::to_value(SamplingMessage::user("Summarize this.")).unwrap(),
///     json!({"role": "user", "content": {"type": "text", "text": "Summarize this."}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: SamplingContent,
}

impl SamplingMessage {
    /// A user message with one text block.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{Role, SamplingMessage};
    ///
    /// let message = SamplingMessage::user("Name three rivers.");
    /// assert_eq!(message.role, Role::User);
    /// assert_eq!(message.content.text(), Some("Name three rivers."));
    /// ```
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: SamplingContent::One(SamplingBlock::Text { text: text.into() }),
        }
    }
}

/// `sampling/createMessage` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CreateMessageRequestParams;
/// use serde_json::json;
///
/// let params: CreateMessageRequestParams = serde_json::from_value(json!({
///     "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
///     "maxTokens": 100
/// }))
/// .unwrap();
/// assert_eq!(params.max_tokens, 100);
/// assert_eq!(params.messages[0].content.text(), Some("Hi"));
/// assert!(params.tools.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageRequestParams {
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens to generate; the client must respect it.
    pub max_tokens: u32,
    /// A system prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Sequences that stop generation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Model preferences (hints, priorities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<Value>,
    /// Provider-specific metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Tools the model may use (needs the client's `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Value>>,
    /// How the model may use them (needs the client's `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
}

/// The client's answer to `sampling/createMessage`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{CreateMessageResult, Role};
/// use serde_json::json;
///
/// let answer: CreateMessageResult = serde_json::from_value(json!({
///     "role": "assistant",
///     "content": {"type": "text", "text": "Hello!"},
///     "model": "example-model",
///     "stopReason": "endTurn"
/// }))
/// .unwrap();
/// assert_eq!((answer.role, answer.content.text()), (Role::Assistant, Some("Hello!")));
/// assert_eq!(answer.stop_reason.as_deref(), Some("endTurn"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Normally `assistant`.
    pub role: Role,
    /// The generated content.
    pub content: SamplingContent,
    /// The model that generated it.
    pub model: String,
    /// Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}
