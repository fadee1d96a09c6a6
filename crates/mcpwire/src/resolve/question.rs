//! A question a resolver asks the client, in one shape for both revisions: a real request on a
//! 2025-11-25 session, an entry of `inputRequests` on a 2026-07-28 request.

use super::resolved_value::ResolvedValue;
use crate::error::ToolError;
use crate::protocol::ClientCapabilities;
use crate::protocol::jsonrpc::{ErrorObject, code};
use serde_json::{Map, Value, json};

/// The client capability a question needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Form-mode elicitation.
    ElicitationForm,
    /// URL-mode elicitation.
    ElicitationUrl,
    /// Sampling.
    Sampling,
    /// Sampling with `tools`/`toolChoice`.
    SamplingTools,
    /// Listing roots.
    Roots,
}

impl Capability {
    /// Whether `capabilities` declares it.
    pub fn declared_by(self, capabilities: &ClientCapabilities) -> bool {
        match self {
            Capability::ElicitationForm => capabilities.elicitation_form(),
            Capability::ElicitationUrl => capabilities.elicitation_url(),
            Capability::Sampling => capabilities.sampling(),
            Capability::SamplingTools => capabilities.sampling_tools(),
            Capability::Roots => capabilities.roots(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Capability::ElicitationForm => "form elicitation",
            Capability::ElicitationUrl => "URL elicitation",
            Capability::Sampling => "sampling",
            Capability::SamplingTools => "sampling.tools",
            Capability::Roots => "roots",
        }
    }

    fn required(self) -> Value {
        match self {
            Capability::ElicitationForm => json!({"elicitation": {"form": {}}}),
            Capability::ElicitationUrl => json!({"elicitation": {"url": {}}}),
            Capability::Sampling => json!({"sampling": {}}),
            Capability::SamplingTools => json!({"sampling": {"tools": {}}}),
            Capability::Roots => json!({"roots": {}}),
        }
    }

    /// The `-32021` error for a client that did not declare this capability.
    pub(crate) fn missing(self, resolver: &str) -> ErrorObject {
        ErrorObject::new(
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            format!(
                "Client did not declare the {} capability required by resolver '{resolver}'",
                self.name()
            ),
        )
        .with_data(json!({ "requiredCapabilities": self.required() }))
    }
}

/// Why an answer could not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// An elicitation was accepted without content.
    NoContent,
    /// An accepted elicitation's content does not fit the form: its schema (types and
    /// constraints such as `minLength`, `maximum`, `format`) or the model.
    SchemaMismatch,
    /// The answer to an elicitation is not an elicitation result.
    NotElicitation,
    /// The answer to a sampling or roots question has the wrong shape.
    WrongKind,
}

impl AnswerError {
    /// The `isError` text for the resolver `resolver`.
    pub(crate) fn for_resolver(self, resolver: &str) -> ToolError {
        let what = match self {
            AnswerError::NoContent => "received an accepted elicitation with no content",
            AnswerError::SchemaMismatch => {
                "received an accepted elicitation whose content does not match the requested schema"
            }
            AnswerError::NotElicitation => "received a non-elicitation response",
            AnswerError::WrongKind => "received a response of the wrong kind",
        };
        ToolError::new(format!("Resolver '{resolver}' {what}"))
    }
}

/// A question, rendered: what to send and how to read the answer.
///
/// # Examples
///
/// ```
/// use mcpwire::resolve::{ElicitUrl, IntoResolution, Resolution};
///
/// // A question comes from a question kind; a custom return type can pass it on.
/// let outcome = ElicitUrl::ask("Sign in.", "https://example.com/login").into_resolution();
/// let Resolution::Ask(question) = outcome else { panic!("a question") };
/// let passed_on: Resolution<u32> = Resolution::Ask(question);
/// assert!(matches!(passed_on, Resolution::Ask(_)));
/// ```
pub struct Question {
    pub(crate) capability: Capability,
    pub(crate) method: &'static str,
    pub(crate) params: Option<Value>,
    pub(crate) decode: fn(&Value) -> Result<ResolvedValue, AnswerError>,
    /// A URL-mode elicitation's `elicitationId`, sent on 2025-11-25 sessions only.
    pub(crate) url_elicitation_id: Option<String>,
}

impl Question {
    /// A question for `method` with `params`, needing `capability`, whose answer `decode` reads.
    pub(crate) fn new(
        capability: Capability,
        method: &'static str,
        params: Option<Value>,
        decode: fn(&Value) -> Result<ResolvedValue, AnswerError>,
    ) -> Self {
        Self {
            capability,
            method,
            params,
            decode,
            url_elicitation_id: None,
        }
    }

    /// A URL-mode question with its 2025-11-25 `elicitationId`.
    pub(crate) fn with_url_elicitation_id(mut self, id: String) -> Self {
        self.url_elicitation_id = Some(id);
        self
    }

    /// The question as an `inputRequests` entry: `{"method": …, "params": …}`.
    pub(crate) fn input_request(&self) -> Value {
        let mut request = Map::new();
        request.insert("method".into(), Value::String(self.method.into()));
        if let Some(params) = &self.params {
            request.insert("params".into(), params.clone());
        }
        Value::Object(request)
    }

    /// A digest of exactly what is asked: a reworded question is a new question.
    pub(crate) fn digest(&self) -> String {
        crate::request_state::digest(&self.input_request().to_string())
    }
}
