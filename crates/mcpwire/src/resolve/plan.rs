//! The resolution plan of one tool: its resolver graph, checked and ordered once, at
//! registration.

use super::node_input::NodeInput;
use super::param_spec::{ParamSpec, ResolverDefinition};
use crate::error::InvalidSignature;
use std::any::TypeId;
use std::collections::HashMap;

/// One resolver in a tool's graph.
pub(crate) struct PlanNode {
    pub(crate) definition: ResolverDefinition,
    pub(crate) inputs: Vec<NodeInput>,
}

/// A tool's resolver graph: nodes in dependency order (every node after the nodes it needs).
#[derive(Default)]
pub(crate) struct ToolPlan {
    pub(crate) nodes: Vec<PlanNode>,
    /// For each node, the nodes that consume it.
    pub(crate) dependents: Vec<Vec<usize>>,
    /// For each node, how many resolver inputs it waits for.
    pub(crate) waits_for: Vec<u32>,
    /// For each resolved parameter of the tool, in declaration order, the node that fills it.
    pub(crate) tool_inputs: Vec<usize>,
}

/// Resolvers replaced by others (for tests), keyed by the original's type.
pub(crate) type Overrides = HashMap<TypeId, ResolverDefinition>;

struct Argument {
    /// Its index among the handler's parameters filled from the request.
    index: usize,
    name: &'static str,
    type_id: TypeId,
    type_name: &'static str,
}

struct Builder<'a> {
    tool: &'a str,
    arguments: Vec<Argument>,
    overrides: &'a Overrides,
    plan: ToolPlan,
    index_of: HashMap<TypeId, usize>,
    /// Resolvers on the current depth-first path, to name a cycle.
    path: Vec<&'static str>,
    on_path: Vec<TypeId>,
}

impl ToolPlan {
    /// Checks and orders the resolver graph of the tool `tool` whose parameters are `params`.
    pub(crate) fn build(
        tool: &str,
        params: &[ParamSpec],
        overrides: &Overrides,
    ) -> Result<ToolPlan, InvalidSignature> {
        // The handler's parsed arguments hold every parameter filled from the request (the
        // context too), in declaration order; resolvers read tool arguments by that index.
        let arguments = params
            .iter()
            .filter(|p| !matches!(p, ParamSpec::Resolved { .. }))
            .enumerate()
            .filter_map(|(index, p)| match *p {
                ParamSpec::Argument {
                    name,
                    type_id,
                    type_name,
                } => Some(Argument {
                    index,
                    name,
                    type_id: type_id(),
                    type_name,
                }),
                _ => None,
            })
            .collect();
        let mut builder = Builder {
            tool,
            arguments,
            overrides,
            plan: ToolPlan::default(),
            index_of: HashMap::new(),
            path: Vec::new(),
            on_path: Vec::new(),
        };
        for param in params {
            if let ParamSpec::Resolved { resolver, .. } = *param {
                let node = builder.visit(resolver())?;
                builder.plan.tool_inputs.push(node);
            }
        }
        let mut plan = builder.plan;
        plan.dependents = vec![Vec::new(); plan.nodes.len()];
        plan.waits_for = vec![0; plan.nodes.len()];
        for (index, node) in plan.nodes.iter().enumerate() {
            for input in &node.inputs {
                if let NodeInput::Node(dependency) = *input
                    && !plan.dependents[dependency].contains(&index)
                {
                    plan.dependents[dependency].push(index);
                    plan.waits_for[index] += 1;
                }
            }
        }
        Ok(plan)
    }
}

impl Builder<'_> {
    fn visit(&mut self, definition: ResolverDefinition) -> Result<usize, InvalidSignature> {
        let original = (definition.id)();
        let definition = self.overrides.get(&original).copied().unwrap_or(definition);
        let id = (definition.id)();
        if let Some(&index) = self.index_of.get(&id) {
            return Ok(index);
        }
        if let Some(start) = self.on_path.iter().position(|t| *t == id) {
            let mut cycle: Vec<&str> = self.path[start..].to_vec();
            cycle.push(definition.name);
            return Err(InvalidSignature::new(format!(
                "tool '{}': resolver '{}' has a cyclic dependency: {}",
                self.tool,
                definition.name,
                cycle.join(" -> ")
            )));
        }
        (definition.prepare)().map_err(|why| {
            InvalidSignature::new(format!(
                "tool '{}': resolver '{}' cannot ask its question: {why}",
                self.tool, definition.name
            ))
        })?;
        self.path.push(definition.name);
        self.on_path.push(id);
        let mut inputs = Vec::with_capacity(definition.params.len());
        for param in definition.params {
            inputs.push(match *param {
                ParamSpec::Context => NodeInput::Context,
                ParamSpec::Resolved { resolver, .. } => NodeInput::Node(self.visit(resolver())?),
                ParamSpec::Argument {
                    name,
                    type_id,
                    type_name,
                } => NodeInput::Argument(self.argument(&definition, name, type_id(), type_name)?),
            });
        }
        self.path.pop();
        self.on_path.pop();
        if let Some(other) = self
            .plan
            .nodes
            .iter()
            .find(|node| node.definition.key == definition.key)
        {
            return Err(InvalidSignature::new(format!(
                "tool '{}': resolvers '{}' and '{}' share the key '{}'; questions and answers \
                 are told apart by key, so give one of them another #[resolver(key = \"…\")]",
                self.tool, other.definition.name, definition.name, definition.key
            )));
        }
        let index = self.plan.nodes.len();
        self.plan.nodes.push(PlanNode { definition, inputs });
        self.index_of.insert(id, index);
        Ok(index)
    }

    fn argument(
        &self,
        resolver: &ResolverDefinition,
        name: &str,
        type_id: TypeId,
        type_name: &str,
    ) -> Result<usize, InvalidSignature> {
        let Some(argument) = self.arguments.iter().find(|a| a.name == name) else {
            return Err(InvalidSignature::new(format!(
                "tool '{}': resolver '{}' parameter '{}' cannot be resolved: expected a Context, \
                 a #[resolve(..)] parameter, or a tool argument named '{}'",
                self.tool, resolver.name, name, name
            )));
        };
        if argument.type_id != type_id {
            return Err(InvalidSignature::new(format!(
                "tool '{}': resolver '{}' parameter '{}' has type `{}`, but the tool argument \
                 '{}' has type `{}`",
                self.tool, resolver.name, name, type_name, argument.name, argument.type_name
            )));
        }
        Ok(argument.index)
    }
}
