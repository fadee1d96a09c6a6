//! What a transport already read of a request's parameters before routing it ([`Preread`]),
//! handed on to the request's method so that it does not parse `params` once more.

#[cfg(test)]
use crate::protocol::tools::CallToolParams;
use crate::server::tool::RegisteredTool;
use crate::server::tool_kind::ToolView;
use crate::wire::shared_json::SharedJson;
use std::fmt;
use std::sync::Arc;

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
    /// The tool it names.
    pub(crate) tool: CalledName,
    /// Its arguments, as sent (a slice of the request's body when it was read from one).
    pub(crate) arguments: Option<SharedJson>,
}

/// The tool a plain call names: the registered tool itself when the name is its own, so that
/// the common call copies no name and looks it up once.
pub(crate) enum CalledName {
    /// The tool registered under this very name when the request was read.
    Registered(Arc<RegisteredTool>),
    /// Any other name (no tool's, or a tool's alias), as sent: the method looks it up.
    Sent(String),
}

impl CalledName {
    /// The tool `name` names in `tools`.
    pub(crate) fn of(name: &str, tools: &ToolView) -> Self {
        match tools.get(name) {
            Some(tool) if tool.definition.name == name => Self::Registered(Arc::clone(tool)),
            _ => Self::Sent(name.to_owned()),
        }
    }

    /// The name as sent.
    #[cfg(test)]
    fn into_name(self) -> String {
        match self {
            Self::Registered(tool) => tool.definition.name.to_owned(),
            Self::Sent(name) => name,
        }
    }
}

impl fmt::Debug for CalledName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Registered(tool) => f
                .debug_tuple("Registered")
                .field(&tool.definition.name)
                .finish(),
            Self::Sent(name) => f.debug_tuple("Sent").field(name).finish(),
        }
    }
}

impl PlainCall {
    /// The parameters, exactly as parsing the request's `params` gives them (what the tests
    /// compare the reading with).
    #[cfg(test)]
    pub(crate) fn into_params(self) -> CallToolParams {
        CallToolParams {
            name: self.tool.into_name(),
            arguments: self.arguments.as_ref().map(SharedJson::to_raw_value),
            input_responses: None,
            request_state: None,
            task: None,
        }
    }
}
