//! What a request names and passes, read from its parameters as the client sent them, for the
//! outer tier's layers, which run before its method parses them. Nothing is decided on this
//! reading: the method parses the parameters itself, and authorization decides from that.

use super::table::{Target, row};
use crate::protocol::methods::Method;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The fields of a request's parameters the outer layers see.
#[derive(Deserialize)]
struct Sent<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "requestState", default)]
    request_state: Option<IgnoredAny>,
    #[serde(rename = "inputResponses", default)]
    input_responses: Option<IgnoredAny>,
}

/// What a request names and passes, as sent.
#[derive(Default)]
pub(crate) struct Peeked {
    /// What it names (a tool's or a prompt's name, a resource's URI), by its method's row.
    pub(crate) target: Option<Cow<'static, str>>,
    /// A tool's or a prompt's arguments.
    pub(crate) arguments: Option<Box<RawValue>>,
    /// It carries a round's answers or state (a later round of a multi-round call).
    pub(crate) retried: bool,
}

/// Reads what the request of method `known` names and passes from `params` (nothing, when they
/// are malformed).
pub(crate) fn peek(known: Option<Method>, params: Option<&RawValue>) -> Peeked {
    let (Some(known), Some(params)) = (known, params) else {
        return Peeked::default();
    };
    let Ok(sent) = serde_json::from_str::<Sent<'_>>(params.get()) else {
        return Peeked::default();
    };
    let (target, arguments) = match row(known).target {
        Target::Name => (sent.name, sent.arguments),
        Target::Uri => (sent.uri, None),
        Target::None | Target::TaskId => (None, None),
    };
    Peeked {
        target: target.map(|target| Cow::Owned(target.into_owned())),
        arguments: arguments.map(RawValue::to_owned),
        retried: sent.request_state.is_some() || sent.input_responses.is_some(),
    }
}
