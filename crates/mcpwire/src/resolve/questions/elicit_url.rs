//! `ElicitUrl`: a resolver asks the user to open a URL (an out-of-band flow such as an OAuth
//! consent), needing the client's URL-mode elicitation.

use crate::protocol::elicitation::{ElicitAction, ElicitResult};
use crate::protocol::methods::ELICITATION_CREATE;
use crate::resolve::into_resolution::{IntoResolution, Resolution};
use crate::resolve::question::{AnswerError, Capability, Question};
use crate::resolve::resolved_value::ResolvedValue;
use serde_json::{Value, json};
use std::sync::Arc;

/// What a resolver returns to send the user to a URL, unless that is no longer needed.
/// Consumers take [`UrlConsent`]: `accept` means only that the user agreed to open it.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::resolve::UrlConsent;
///
/// #[resolver]
/// async fn github_login(ctx: Context) -> ElicitUrl {
///     if ctx.principal().is_some() {
///         return ElicitUrl::Done; // already signed in
///     }
///     ElicitUrl::ask("Sign in to GitHub to continue.", "https://example.com/oauth/github")
/// }
///
/// /// Lists the user's repositories.
/// #[tool]
/// async fn repos(#[resolve(github_login)] consent: UrlConsent) -> String {
///     format!("{consent:?}")
/// }
///
/// assert!(McpServer::new("github").tool(repos).is_ok());
/// ```
pub enum ElicitUrl {
    /// Nothing to ask (the flow already completed).
    Done,
    /// Ask the user to open `url`, explaining why in `message`.
    Ask {
        /// Why.
        message: String,
        /// Where.
        url: String,
        /// On a 2025-11-25 session, the `elicitationId` sent with the question (`None`: a
        /// random one). 2026-07-28 has no such id.
        id: Option<String>,
    },
}

impl ElicitUrl {
    /// Asks the user to open `url`.
    ///
    /// On a 2025-11-25 session the question carries an `elicitationId`, and when the call that
    /// asked ends, the client gets `notifications/elicitation/complete` for it (unless the
    /// tool sent it earlier with [`Context::complete_elicitation`](crate::Context::complete_elicitation)).
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// #[resolver]
    /// async fn link_account() -> ElicitUrl {
    ///     ElicitUrl::ask("Link your shop account", "https://shop.example/link?e=e-42").with_id("e-42")
    /// }
    /// # let _ = link_account::call;
    /// ```
    pub fn ask(message: impl Into<String>, url: impl Into<String>) -> Self {
        ElicitUrl::Ask {
            message: message.into(),
            url: url.into(),
            id: None,
        }
    }

    /// Fixes the `elicitationId` of a 2025-11-25 question (to put it in the URL, say, and
    /// complete it with [`Context::complete_elicitation`](crate::Context::complete_elicitation)).
    /// No effect on [`ElicitUrl::Done`].
    pub fn with_id(mut self, elicitation_id: impl Into<String>) -> Self {
        if let ElicitUrl::Ask { id, .. } = &mut self {
            *id = Some(elicitation_id.into());
        }
        self
    }
}

/// The user's response to a URL elicitation.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::resolve::UrlConsent;
///
/// #[resolver]
/// async fn consent() -> ElicitUrl {
///     ElicitUrl::ask("Approve the payment.", "https://pay.example.com/42")
/// }
///
/// /// Pays an invoice once the user approved it in the browser.
/// #[tool]
/// async fn pay(#[resolve(consent)] consent: UrlConsent) -> &'static str {
///     match consent {
///         UrlConsent::Accepted | UrlConsent::NotNeeded => "payment pending",
///         UrlConsent::Declined | UrlConsent::Cancelled => "payment cancelled",
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// assert_eq!(pay::call(UrlConsent::Declined).await, "payment cancelled");
/// # });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlConsent {
    /// Nothing had to be asked.
    NotNeeded,
    /// The user agreed to open the URL.
    Accepted,
    /// The user said no.
    Declined,
    /// The user dismissed the question.
    Cancelled,
}

impl IntoResolution for ElicitUrl {
    type Value = UrlConsent;

    fn into_resolution(self) -> Resolution<UrlConsent> {
        match self {
            ElicitUrl::Done => Resolution::Ready(UrlConsent::NotNeeded),
            ElicitUrl::Ask { message, url, id } => {
                let id = id.unwrap_or_else(crate::request_state::new_call_id);
                Resolution::Ask(
                    Question::new(
                        Capability::ElicitationUrl,
                        ELICITATION_CREATE,
                        Some(json!({"mode": "url", "message": message, "url": url})),
                        decode,
                    )
                    .with_url_elicitation_id(id),
                )
            }
        }
    }
}

fn decode(answer: &Value) -> Result<ResolvedValue, AnswerError> {
    let answer: ElicitResult =
        serde_json::from_value(answer.clone()).map_err(|_| AnswerError::NotElicitation)?;
    Ok(Arc::new(match answer.action {
        ElicitAction::Accept => UrlConsent::Accepted,
        ElicitAction::Decline => UrlConsent::Declined,
        ElicitAction::Cancel => UrlConsent::Cancelled,
    }))
}
