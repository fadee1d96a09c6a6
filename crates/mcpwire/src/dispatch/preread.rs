//! What a transport already read of a request's parameters before routing it ([`Preread`]),
//! handed on to the request's method so that it does not parse `params` once more.

use crate::protocol::tools::CallToolParams;
use serde_json::value::RawValue;

/// A request's parameters as its transport already read them, in the form its method would
/// parse them into; the method uses them instead of reading `params` again.
///
/// Kept small (the size of a [`PlainCall`]): it travels through every future between the
/// transport and the method.
#[derive(Debug, Default)]
pub(crate) enum Preread {
    /// Nothing read: the method parses `params` itself.
    #[default]
    Nothing,
    /// A plain `tools/call`'s parameters (none of a later round's, no `task`).
    ToolCall(PlainCall),
}

/// A plain `tools/call`'s parameters: held inline, not boxed, as the call's other parameters
/// are absent.
#[derive(Debug)]
pub(crate) struct PlainCall {
    /// The tool's name.
    pub(crate) name: String,
    /// Its arguments, raw.
    pub(crate) arguments: Option<Box<RawValue>>,
}

impl PlainCall {
    /// The parameters, exactly as parsing the request's `params` gives them.
    pub(crate) fn into_params(self) -> CallToolParams {
        CallToolParams {
            name: self.name,
            arguments: self.arguments,
            input_responses: None,
            request_state: None,
            task: None,
        }
    }
}
