//! Elicitation: asking the user, in form mode (a flat schema) or URL mode (a link to open).
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{ElicitAction, ElicitRequestParams, ElicitResult};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"name": {"type": "string"}},
//!     "required": ["name"]
//! });
//! let request =
//!     ElicitRequestParams::Form { message: "Your name?".into(), requested_schema: schema };
//! assert_eq!(serde_json::to_value(&request).unwrap()["mode"], "form");
//!
//! let answer: ElicitResult =
//!     serde_json::from_str(r#"{"action":"accept","content":{"name":"Ada"}}"#).unwrap();
//! assert_eq!(answer.action, ElicitAction::Accept);
//! assert_eq!(answer.content.unwrap()["name"], "Ada");
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `elicitation/create` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ElicitRequestParams;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
/// let form = ElicitRequestParams::Form {
///     message: "Which city?".into(),
///     requested_schema: schema.clone(),
/// };
/// assert_eq!(
///     serde_json::to_value(&form).unwrap(),
///     json!({"mode": "form", "message": "Which city?", "requestedSchema": schema})
/// );
/// let url: ElicitRequestParams = serde_json::from_value(
///     json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login"}),
/// )
/// .unwrap();
/// assert!(matches!(url, ElicitRequestParams::Url { elicitation_id: None, .. }));
/// ```
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
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ElicitAction;
///
/// assert_eq!(serde_json::to_value(ElicitAction::Decline).unwrap(), "decline");
/// assert_eq!(serde_json::from_str::<ElicitAction>(r#""cancel""#).unwrap(), ElicitAction::Cancel);
/// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ElicitAction;
    ///
    /// assert_eq!(ElicitAction::Accept.as_str(), "accept");
    /// assert_eq!(ElicitAction::Cancel.as_str(), "cancel");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ElicitAction::Accept => "accept",
            ElicitAction::Decline => "decline",
            ElicitAction::Cancel => "cancel",
        }
    }
}

/// The client's answer to `elicitation/create`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ElicitAction, ElicitResult};
/// use serde_json::json;
///
/// let answer: ElicitResult =
///     serde_json::from_value(json!({"action": "accept", "content": {"city": "Oslo"}})).unwrap();
/// assert_eq!(answer.action, ElicitAction::Accept);
/// assert_eq!(answer.content.unwrap()["city"], "Oslo");
/// ```
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
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::UrlElicitationRequiredData;
/// use mcpwire::protocol::code;
/// use mcpwire::protocol::{ElicitRequestParams, ErrorObject};
///
/// let login = ElicitRequestParams::Url {
///     message: "Sign in".into(),
///     url: "https://example.com/login".into(),
///     elicitation_id: Some("e-1".into()),
/// };
/// let data = UrlElicitationRequiredData { elicitations: vec![login] };
/// let error = ErrorObject::new(code::URL_ELICITATION_REQUIRED_LEGACY, "Sign in first")
///     .with_data(serde_json::to_value(&data).unwrap());
/// assert_eq!(error.data.unwrap()["elicitations"][0]["elicitationId"], "e-1");
/// ```
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

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn elicitation_elicitationcompleteparams() {
        let params = ElicitationCompleteParams {
            elicitation_id: "e-1".into(),
        };
        assert_eq!(
            notification_line(COMPLETE, &params),
            r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e-1"}}"#
        );
    }
}
