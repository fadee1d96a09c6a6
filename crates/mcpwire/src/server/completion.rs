//! `completion/complete`: the server's completer suggests values for a prompt argument or a
//! resource-template variable while the user types it (both revisions). Registering one
//! declares the `completions` capability.

use super::builder::McpServer;
use super::completer::Completer;
use super::core::ServerCore;
use crate::context::Context;
use crate::protocol::ErrorObject;
use crate::protocol::completion::{
    CompleteParams, CompleteResult, Completion, CompletionReference,
};
use std::future::Future;
use std::sync::Arc;

impl McpServer {
    /// Answers `completion/complete` with `completer`, and declares the `completions`
    /// capability. The completer gets the request and its [`Context`] (shared state, the
    /// principal, the revision); a panic in it answers `-32603` and the server keeps serving.
    /// The SDK first checks that the reference names a registered prompt (and one
    /// of its arguments) or resource template (and one of its variables), answering `-32602`
    /// otherwise; the completer only sees requests about things that exist. Build the answer
    /// with [`Completion::from_values`], which keeps the first 100 values and says how many
    /// there were.
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::protocol::{Completion, CompletionReference};
    ///
    /// const LANGUAGES: &[&str] = &["python", "pytorch", "rust"];
    ///
    /// /// Reviews code in a language.
    /// #[prompt]
    /// async fn review(language: String) -> String {
    ///     format!("Review this {language} code.")
    /// }
    ///
    /// let server = McpServer::new("reviews").prompt(review)?.completion(|request, _ctx| async move {
    ///     let typed = request.argument.value;
    ///     match request.reference {
    ///         CompletionReference::Prompt { .. } => Completion::from_values(
    ///             LANGUAGES.iter().copied().filter(|l| l.starts_with(typed.as_str())),
    ///         ),
    ///         CompletionReference::Resource { .. } => Completion::default(),
    ///     }
    /// });
    /// # drop(server);
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn completion<F, Fut>(self, completer: F) -> Self
    where
        F: Fn(CompleteParams, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Completion> + Send + 'static,
    {
        self.with_completer(Arc::new(move |request, context| {
            Box::pin(completer(request, context))
        }))
    }
}

/// Answers one `completion/complete` request, whose reference [`check_reference`] accepted
/// and whose caller holds the scopes it returned.
pub(crate) async fn complete(
    completer: &Completer,
    request: CompleteParams,
    context: Context,
) -> CompleteResult {
    let mut completion = completer(request, context).await;
    if completion.values.len() > crate::protocol::completion::MAX_VALUES {
        completion = Completion::from_values(std::mem::take(&mut completion.values));
    }
    CompleteResult { completion }
}

/// Checks that the request names a registered prompt and one of its arguments, or a registered
/// resource template and one of its variables; returns the scopes that prompt or template needs.
pub(crate) fn check_reference(
    core: &ServerCore,
    request: &CompleteParams,
) -> Result<&'static [&'static str], ErrorObject> {
    let argument = request.argument.name.as_str();
    let snapshot = core.snapshot();
    match &request.reference {
        CompletionReference::Prompt { name, .. } => {
            let Some(prompt) = snapshot.prompts.get(name) else {
                return Err(ErrorObject::invalid_params(format!(
                    "Unknown prompt: {name}"
                )));
            };
            let known = prompt
                .listed
                .arguments
                .iter()
                .flatten()
                .any(|a| a.name == argument);
            if !known {
                return Err(ErrorObject::invalid_params(format!(
                    "Prompt {name} has no argument {argument}"
                )));
            }
            Ok(prompt.definition.scopes)
        }
        CompletionReference::Resource { uri } => {
            let Some(resource) = snapshot.resources.template(uri) else {
                return Err(ErrorObject::invalid_params(format!(
                    "Unknown resource template: {uri}"
                )));
            };
            let known = resource
                .template()
                .is_some_and(|template| template.variables().any(|v| v == argument));
            if !known {
                return Err(ErrorObject::invalid_params(format!(
                    "Resource template {uri} has no variable {argument}"
                )));
            }
            Ok(resource.definition.scopes)
        }
    }
}
