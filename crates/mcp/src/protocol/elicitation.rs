//! Elicitation: asking the user, in form mode (a flat schema) or URL mode (a link to open).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `elicitation/create` params.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum ElicitRequestParams {
    /// Ask the user to fill a form.
    Form {
        /// What to ask.
        message: String,
        /// A flat object schema of primitive fields.
        #[serde(rename = "requestedSchema")]
        requested_schema: Value,
    },
    /// Ask the user to open a URL (consent only; the flow happens out of band).
    Url {
        /// Why the user should open it.
        message: String,
        /// The URL.
        url: String,
        /// 2025-11-25 only: an id for `notifications/elicitation/complete`.
        #[serde(
            rename = "elicitationId",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        elicitation_id: Option<String>,
    },
}

/// What the user did with the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// Answered (form mode: with content).
    Accept,
    /// Explicitly said no.
    Decline,
    /// Dismissed the question.
    Cancel,
}

impl ElicitAction {
    /// `accept`, `decline` or `cancel`.
    pub fn as_str(self) -> &'static str {
        match self {
            ElicitAction::Accept => "accept",
            ElicitAction::Decline => "decline",
            ElicitAction::Cancel => "cancel",
        }
    }
}

/// The client's answer to `elicitation/create`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The form's values, for `accept` in form mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
}
