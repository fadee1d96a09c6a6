//! `Elicit<M>`: a resolver asks the user to fill the form `M`.

use super::form::form_of;
use crate::error::ToolError;
use crate::protocol::elicitation::{ElicitAction, ElicitResult};
use crate::protocol::methods::ELICITATION_CREATE;
use crate::resolve::from_resolved::FromResolved;
use crate::resolve::into_resolution::{IntoResolution, Resolution};
use crate::resolve::question::{AnswerError, Capability, Question};
use crate::resolve::resolved_value::ResolvedValue;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::Arc;

/// What a resolver returns to ask the user a form-mode question, unless it already knows the
/// answer. The SDK asks (a real `elicitation/create` on 2025-11-25, an `input_required` round on
/// 2026-07-28), checks the answer against `M`, and hands it on.
///
/// Consumers take `M` (a decline or cancel then fails the call) or [`ElicitationResult<M>`] (to
/// branch on the outcome).
///
/// ```
/// use mcpwire::prelude::*;
///
/// #[derive(Clone, Deserialize, JsonSchema)]
/// struct Confirm {
///     /// Delete it?
///     ok: bool,
/// }
///
/// #[resolver]
/// async fn confirm_delete(path: String) -> Elicit<Confirm> {
///     if path.ends_with(".tmp") {
///         return Elicit::Ready(Confirm { ok: true }); // nothing to ask
///     }
///     Elicit::ask(format!("Delete {path}?"))
/// }
/// ```
pub enum Elicit<M> {
    /// The answer is known; nothing is asked.
    Ready(M),
    /// Ask the user, with this message.
    Ask(String),
}

impl<M> Elicit<M> {
    /// Asks the user `message`, with the form `M`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// #[derive(Clone, Deserialize, JsonSchema)]
    /// struct Size { centimetres: u32 }
    ///
    /// let question: Elicit<Size> = Elicit::ask("How tall is the shelf?");
    /// let Elicit::Ask(message) = question else { panic!("a question") };
    /// assert_eq!(message, "How tall is the shelf?");
    /// ```
    pub fn ask(message: impl Into<String>) -> Self {
        Elicit::Ask(message.into())
    }
}

/// The user's response to an elicitation: the form's values, or a refusal.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// #[derive(Clone, Deserialize, JsonSchema)]
/// struct Confirm { ok: bool }
///
/// #[resolver]
/// async fn confirm(path: String) -> Elicit<Confirm> { Elicit::ask(format!("Delete {path}?")) }
///
/// /// Deletes a file; a refusal is an answer, not a failure.
/// #[tool]
/// async fn delete(
///     path: String,
///     #[resolve(confirm)] answer: ElicitationResult<Confirm>,
/// ) -> String {
///     match answer {
///         ElicitationResult::Accept(Confirm { ok: true }) => format!("deleted {path}"),
///         _ => format!("kept {path}"),
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// assert_eq!(delete::call("a.txt".into(), ElicitationResult::Decline).await, "kept a.txt");
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElicitationResult<M> {
    /// The user answered.
    Accept(M),
    /// The user explicitly said no.
    Decline,
    /// The user dismissed the question.
    Cancel,
}

impl<M: JsonSchema + DeserializeOwned + Clone + Send + Sync + 'static> IntoResolution
    for Elicit<M>
{
    type Value = ElicitationResult<M>;

    fn into_resolution(self) -> Resolution<ElicitationResult<M>> {
        match self {
            Elicit::Ready(value) => Resolution::Ready(ElicitationResult::Accept(value)),
            Elicit::Ask(message) => match form_of::<M>() {
                Ok(form) => Resolution::Ask(Question::new(
                    Capability::ElicitationForm,
                    ELICITATION_CREATE,
                    Some(
                        json!({"mode": "form", "message": message, "requestedSchema": form.schema}),
                    ),
                    decode::<M>,
                )),
                Err(error) => Resolution::Failed(ToolError::new(error)),
            },
        }
    }

    fn prepare() -> Result<(), String> {
        form_of::<M>().map(|_| ())
    }
}

/// Reads an answer to the form `M`: accepted content must fit the rendered form (types and
/// constraints), and then `M`.
fn decode<M: JsonSchema + DeserializeOwned + Send + Sync + 'static>(
    answer: &Value,
) -> Result<ResolvedValue, AnswerError> {
    let answer: ElicitResult =
        serde_json::from_value(answer.clone()).map_err(|_| AnswerError::NotElicitation)?;
    let result = match answer.action {
        ElicitAction::Decline => ElicitationResult::Decline,
        ElicitAction::Cancel => ElicitationResult::Cancel,
        ElicitAction::Accept => {
            let mut content = answer.content.ok_or(AnswerError::NoContent)?;
            // A null stands for an optional field left unanswered, as serde reads it.
            content.retain(|_, value| !value.is_null());
            let content = Value::Object(content);
            let form = form_of::<M>().map_err(|_| AnswerError::SchemaMismatch)?;
            if !form.admits(&content) {
                return Err(AnswerError::SchemaMismatch);
            }
            let model =
                serde_json::from_value::<M>(content).map_err(|_| AnswerError::SchemaMismatch)?;
            ElicitationResult::Accept(model)
        }
    };
    Ok(Arc::new(result))
}

impl<M: Clone> FromResolved<ElicitationResult<M>> for M {
    fn from_resolved(output: &ElicitationResult<M>, param: &'static str) -> Result<M, ToolError> {
        match output {
            ElicitationResult::Accept(value) => Ok(value.clone()),
            other => Err(not_accepted(other, param)),
        }
    }

    fn refuses(output: &ElicitationResult<M>, param: &'static str) -> Option<ToolError> {
        (!matches!(output, ElicitationResult::Accept(_))).then(|| not_accepted(output, param))
    }
}

/// The failure of a parameter that takes only an accepted answer.
fn not_accepted<M>(output: &ElicitationResult<M>, param: &'static str) -> ToolError {
    let action = match output {
        ElicitationResult::Accept(_) => "accept",
        ElicitationResult::Decline => "decline",
        ElicitationResult::Cancel => "cancel",
    };
    ToolError::new(format!(
        "Resolver for parameter '{param}' could not resolve: elicitation was {action}"
    ))
}
