//! What a `tools/call` runs its tool on once the tool is found ([`CallInputs`]).

use crate::protocol::tools::CallToolParams;
use crate::wire::shared_json::SharedJson;
use serde_json::value::RawValue;

/// What a call runs its tool on: the parameters of a `tools/call` but for the name (the tool is
/// found) and `task` (the tasks extension reads the request's own).
pub(crate) struct CallInputs {
    /// The arguments, as sent.
    pub(crate) arguments: Option<SharedJson>,
    /// A later round's answers to what the last one asked (2026-07-28).
    pub(crate) input_responses: Option<Box<RawValue>>,
    /// A later round's sealed state (2026-07-28).
    pub(crate) request_state: Option<String>,
}

impl CallInputs {
    /// A first round's: its arguments alone.
    pub(crate) fn first(arguments: Option<SharedJson>) -> Self {
        Self {
            arguments,
            input_responses: None,
            request_state: None,
        }
    }

    /// Its later round's inputs, as [`run_plain`](super::methods::tools::run_plain) takes them.
    pub(crate) fn round(&self) -> (Option<&RawValue>, Option<&str>) {
        (
            self.input_responses.as_deref(),
            self.request_state.as_deref(),
        )
    }
}

impl From<CallToolParams> for CallInputs {
    fn from(params: CallToolParams) -> Self {
        Self {
            arguments: params.arguments.map(SharedJson::from),
            input_responses: params.input_responses,
            request_state: params.request_state,
        }
    }
}
