//! What a resolver (or a tool) reads its parameters from while a round runs.

use super::from_request::FromRequest;
use super::from_resolved::FromResolved;
use super::node_input::NodeInput;
use super::resolved_value::ResolvedValue;
use crate::context::Context;
use crate::error::ToolError;
use std::any::Any;

/// A tool's validated arguments, readable by position. Implemented by `#[tool]` for the
/// arguments it parses, so resolvers receive exactly the values the tool body will.
pub trait ArgumentSource: Sync {
    /// The visible argument at `index` (in declaration order).
    fn argument(&self, index: usize) -> &(dyn Any + Send + Sync);
}

/// The inputs of one resolver run: its parameters' sources, resolved for this round.
pub struct ResolverInputs<'a> {
    pub(crate) context: &'a Context,
    pub(crate) arguments: &'a dyn ArgumentSource,
    pub(crate) values: &'a [Option<ResolvedValue>],
    pub(crate) sources: &'a [NodeInput],
}

impl ResolverInputs<'_> {
    /// The request's context.
    pub fn context(&self) -> Context {
        self.context.clone()
    }

    /// The parameter at `position` filled from the request: the context, or the tool argument
    /// bound to it (checked at registration to have type `T`).
    pub fn request<T: FromRequest + Clone>(&self, position: usize) -> T {
        match self.sources[position] {
            NodeInput::Argument(index) => self
                .arguments
                .argument(index)
                .downcast_ref::<T>()
                .expect("argument types are checked at registration")
                .clone(),
            NodeInput::Context => {
                T::from_context(self.context()).expect("only the context is bound as the context")
            }
            NodeInput::Node(_) => unreachable!("the plan binds parameter {position} to a resolver"),
        }
    }

    /// The value of the resolver bound to the parameter at `position`.
    pub fn resolved<O: 'static, P: FromResolved<O>>(
        &self,
        position: usize,
        param: &'static str,
        _output: std::marker::PhantomData<O>,
    ) -> Result<P, ToolError> {
        let NodeInput::Node(node) = self.sources[position] else {
            unreachable!("the plan binds parameter {position} to a resolver")
        };
        read_value::<O, P>(self.values, node, param)
    }
}

pub(crate) fn read_value<O: 'static, P: FromResolved<O>>(
    values: &[Option<ResolvedValue>],
    node: usize,
    param: &'static str,
) -> Result<P, ToolError> {
    let value = values[node]
        .as_ref()
        .expect("dependencies run before their consumers");
    let output = value
        .downcast_ref::<O>()
        .expect("resolver outputs are checked at compile time");
    P::from_resolved(output, param)
}
