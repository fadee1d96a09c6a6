//! Sampling: asking the client's LLM for a message (deprecated in 2026-07-28, still served).

use super::content::Role;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Content of a sampling message: one block, or several.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SamplingContent {
    /// One block.
    One(SamplingBlock),
    /// Several blocks.
    Many(Vec<SamplingBlock>),
}

/// One block of a sampling message.
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: SamplingContent,
}

impl SamplingMessage {
    /// A user message with one text block.
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: SamplingContent::One(SamplingBlock::Text { text: text.into() }),
        }
    }
}

/// `sampling/createMessage` params.
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
