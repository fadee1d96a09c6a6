//! What a transport already read of a request's parameters before routing it ([`Preread`]),
//! handed on to the request's method so that it does not parse `params` once more.

use crate::protocol::tools::CallToolParams;

/// A request's parameters as its transport already read them, in the form its method would
/// parse them into; the method uses them instead of reading `params` again.
///
/// Boxed: it travels through every future between the transport and the method, which stay
/// the size they were.
#[derive(Debug, Default)]
pub(crate) enum Preread {
    /// Nothing read: the method parses `params` itself.
    #[default]
    Nothing,
    /// A `tools/call`'s parameters, exactly as parsing `params` gives them.
    ToolCall(Box<CallToolParams>),
}
