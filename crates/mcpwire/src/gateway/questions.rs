//! A backend's questions (elicitation, sampling, roots), passed on to the caller in front: what
//! the caller declared it can answer, how a question is put to a 2025-11-25 caller (a request
//! on its session, tied to its call), and what answers a question nobody can take.

use crate::client::{ClientBuilder, ServerQuestion};
use crate::context::ClientRequestError;
use crate::context::Context;
use crate::protocol::methods::{ELICITATION_CREATE, ROOTS_LIST, SAMPLING_CREATE_MESSAGE};
use crate::protocol::{
    ClientCapabilities, ElicitAction, ElicitResult, ErrorObject, ListRootsResult,
};
use serde_json::{Value, json};

/// `builder` declaring every kind of question, answering those it cannot tie to a call: an
/// elicitation declined, sampling refused, no roots. (A 2025-11-25 backend asks only what
/// `initialize` declared; which caller a question is for is found per call.)
pub(crate) fn unanswerable(builder: ClientBuilder) -> ClientBuilder {
    let declined = || async {
        ElicitResult {
            action: ElicitAction::Decline,
            content: None,
        }
    };
    builder
        .on_form_elicitation(move |_| declined())
        .on_url_elicitation(move |_| declined())
        .on_sampling(|_| async { Err(cannot_answer(SAMPLING_CREATE_MESSAGE)) })
        .on_roots(|| async { ListRootsResult { roots: Vec::new() } })
}

/// The caller's capabilities to answer questions, as the backend is told them (2026-07-28,
/// per call); nothing else of the caller's is passed on.
pub(crate) fn of_caller(context: &Context) -> ClientCapabilities {
    let theirs = context.client_capabilities();
    ClientCapabilities {
        roots: theirs.roots.clone(),
        sampling: theirs.sampling.clone(),
        elicitation: theirs.elicitation.clone(),
        ..ClientCapabilities::default()
    }
}

/// Whether the caller declared what `question` needs.
pub(crate) fn declared(capabilities: &ClientCapabilities, question: &ServerQuestion) -> bool {
    match question.method.as_str() {
        ELICITATION_CREATE => match question.params.get("mode").and_then(Value::as_str) {
            Some("url") => capabilities.elicitation_url(),
            _ => capabilities.elicitation_form(),
        },
        SAMPLING_CREATE_MESSAGE => capabilities.sampling(),
        ROOTS_LIST => capabilities.roots(),
        _ => false,
    }
}

/// The answer to a question the caller cannot take: an elicitation declined, anything else
/// refused as unsupported (what a client without the capability answers).
pub(crate) fn refused(question: &ServerQuestion) -> Result<Value, ErrorObject> {
    match question.method.as_str() {
        ELICITATION_CREATE => Ok(json!({"action": "decline"})),
        other => Err(cannot_answer(other)),
    }
}

fn cannot_answer(method: &str) -> ErrorObject {
    ErrorObject::new(
        crate::protocol::code::METHOD_NOT_FOUND,
        format!("The client behind this gateway cannot answer {method}"),
    )
}

/// Puts `question` to a 2025-11-25 caller: a request on its session, tied to its call. The
/// caller's own error goes back to the backend as it is; a caller that is gone or does not
/// answer in time is an error that says only that.
pub(crate) async fn ask_caller(
    context: &Context,
    question: ServerQuestion,
) -> Result<Value, ErrorObject> {
    if !declared(context.client_capabilities(), &question) {
        return refused(&question);
    }
    match context
        .send_request(&question.method, &question.params)
        .await
    {
        Ok(raw) => serde_json::from_str(raw.get()).map_err(|_| ErrorObject::internal()),
        Err(ClientRequestError::Rejected(error)) => Err(error),
        Err(error) => {
            tracing::debug!(%error, method = %question.method, "a caller did not answer a backend's question");
            Err(ErrorObject::new(
                crate::protocol::code::INTERNAL_ERROR,
                "The client behind this gateway did not answer",
            ))
        }
    }
}
