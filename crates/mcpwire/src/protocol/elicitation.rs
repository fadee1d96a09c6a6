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

/// Method (2025-11-25 only): a URL-mode elicitation finished out of band.
pub const COMPLETE: &str = "notifications/elicitation/complete";

/// `notifications/elicitation/complete` params (2025-11-25 only; 2026-07-28 has no
/// `elicitationId` and no such notification).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationCompleteParams {
    /// The `elicitationId` of the URL-mode request that finished.
    pub elicitation_id: String,
}

/// `error.data` of `-32042` (URL elicitation required, 2025-11-25 only): the URL-mode
/// elicitations the client must complete before retrying.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UrlElicitationRequiredData {
    /// URL-mode params, each with its `elicitationId`.
    pub elicitations: Vec<ElicitRequestParams>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::jsonrpc::{ErrorObject, code};
    use crate::protocol::round_trip;

    #[test]
    fn round_trips_the_completion_notice_and_the_url_required_error() {
        let done: ElicitationCompleteParams = round_trip(r#"{"elicitationId":"e-42"}"#);
        assert_eq!(done.elicitation_id, "e-42");

        let error: ErrorObject = round_trip(
            r#"{"code":-32042,"message":"Authorization needed",
                "data":{"elicitations":[{"mode":"url","elicitationId":"e-42",
                  "url":"https://srv.example/connect?e=e-42","message":"Link your account"}]}}"#,
        );
        assert_eq!(error.code, code::URL_ELICITATION_REQUIRED_LEGACY);
        let data: UrlElicitationRequiredData = serde_json::from_value(error.data.unwrap()).unwrap();
        assert!(matches!(
            &data.elicitations[0],
            ElicitRequestParams::Url { elicitation_id: Some(id), .. } if id == "e-42"
        ));
    }
}
