//! `completion/complete` through the gateway: a reference to a proxied prompt or resource
//! template goes to the backend that serves it, under its name there, and its suggestions come
//! back; any other reference goes to the front server's own completer, when it has one. A
//! backend that is down, or offers no completions, suggests nothing.

use super::mounted::Mounted;
use super::proxy::authorization;
use super::routes::Route;
use crate::context::Context;
use crate::protocol::completion::{
    CompleteParams, CompleteResult, Completion, CompletionReference,
};
use crate::protocol::methods::COMPLETION_COMPLETE;
use crate::server::Completer;
use std::sync::Weak;

/// Answers `request` for `context`'s caller: from the backend serving its reference, else from
/// `own`.
pub(crate) async fn complete(
    mounted: Weak<Mounted>,
    own: Option<Completer>,
    request: CompleteParams,
    context: Context,
) -> Completion {
    let Some(mounted) = mounted.upgrade() else {
        return Completion::default();
    };
    let Some((route, reference)) = routed(&mounted, &request.reference) else {
        return match own {
            Some(own) => own(request, context).await,
            None => Completion::default(),
        };
    };
    let params = CompleteParams {
        reference,
        ..request
    };
    let Ok(params) = serde_json::to_value(&params) else {
        return Completion::default();
    };
    let link = &mounted.links[route.backend];
    let token = authorization(&context);
    let answer = link
        .using(token.as_deref(), |client| async move {
            client.request(COMPLETION_COMPLETE, params).await
        })
        .await;
    match answer.map(serde_json::from_value::<CompleteResult>) {
        Ok(Ok(result)) => result.completion,
        Ok(Err(error)) => {
            tracing::debug!(backend = %link.backend.name, %error, "a backend's completion cannot be decoded");
            Completion::default()
        }
        Err(_) => Completion::default(),
    }
}

/// The backend route of `reference`, and the reference as that backend names it; `None` when
/// no backend serves it.
fn routed(
    mounted: &Mounted,
    reference: &CompletionReference,
) -> Option<(Route, CompletionReference)> {
    match reference {
        CompletionReference::Prompt { name, title } => {
            let route = mounted.prompts.route(name)?;
            let name = route.name.clone();
            let title = title.clone();
            Some((route, CompletionReference::Prompt { name, title }))
        }
        CompletionReference::Resource { uri } => {
            let route = mounted.templates.route(uri)?;
            let uri = route.name.clone();
            Some((route, CompletionReference::Resource { uri }))
        }
    }
}
