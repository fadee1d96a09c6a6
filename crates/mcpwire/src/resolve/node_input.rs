//! [`NodeInput`]: where a resolver parameter's value comes from in a round.

/// Where a resolver parameter's value comes from in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeInput {
    Context,
    /// The tool's visible argument with this index.
    Argument(usize),
    /// The resolver node with this index.
    Node(usize),
}
