//! `Sample`: a resolver asks the client's LLM (`sampling/createMessage`).

use crate::protocol::methods::SAMPLING_CREATE_MESSAGE;
use crate::protocol::sampling::{CreateMessageRequestParams, CreateMessageResult, SamplingMessage};
use crate::resolve::into_resolution::{IntoResolution, Resolution};
use crate::resolve::question::{AnswerError, Capability, Question};
use crate::resolve::resolved_value::ResolvedValue;
use serde_json::Value;
use std::sync::Arc;

/// What a resolver returns to ask the client's LLM. Consumers take
/// [`CreateMessageResult`]. Build it deterministically from the tool's arguments and earlier
/// answers: on 2026-07-28 the recorded answer is matched to the exact request.
///
/// ```
/// use mcpwire::prelude::*;
///
/// #[resolver]
/// fn suggest_title(genre: String) -> Sample {
///     Sample::prompt(format!("Suggest one {genre} book title. Answer with the title only."), 50)
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Sample(
    /// The `sampling/createMessage` params sent to the client.
    pub CreateMessageRequestParams,
);

impl Sample {
    /// A request with these messages and a token limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::protocol::SamplingMessage;
    ///
    /// let sample = Sample::new(vec![SamplingMessage::user("Translate 'hello' to French.")], 20);
    /// assert_eq!(sample.0.max_tokens, 20);
    /// assert_eq!(sample.0.messages[0].content.text(), Some("Translate 'hello' to French."));
    /// ```
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u32) -> Self {
        Sample(CreateMessageRequestParams {
            messages,
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: None,
            model_preferences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
        })
    }

    /// A request with one user message.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// let sample = Sample::prompt("Summarize: the cat sat on the mat.", 30);
    /// assert_eq!(sample.0.messages.len(), 1);
    /// assert!(sample.0.system_prompt.is_none());
    /// ```
    pub fn prompt(text: impl Into<String>, max_tokens: u32) -> Self {
        Self::new(vec![SamplingMessage::user(text)], max_tokens)
    }

    /// Sets the system prompt.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// let sample = Sample::prompt("Name a river.", 10).system_prompt("Answer with one word.");
    /// assert_eq!(sample.0.system_prompt.as_deref(), Some("Answer with one word."));
    /// ```
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.0.system_prompt = Some(prompt.into());
        self
    }
}

impl IntoResolution for Sample {
    type Value = CreateMessageResult;

    fn into_resolution(self) -> Resolution<CreateMessageResult> {
        let params = self.0;
        let capability = if params.tools.is_some() || params.tool_choice.is_some() {
            Capability::SamplingTools
        } else {
            Capability::Sampling
        };
        let params = serde_json::to_value(&params).expect("sampling params serialize");
        Resolution::Ask(Question::new(
            capability,
            SAMPLING_CREATE_MESSAGE,
            Some(params),
            decode,
        ))
    }
}

fn decode(answer: &Value) -> Result<ResolvedValue, AnswerError> {
    serde_json::from_value::<CreateMessageResult>(answer.clone())
        .map(|result| Arc::new(result) as ResolvedValue)
        .map_err(|_| AnswerError::WrongKind)
}
