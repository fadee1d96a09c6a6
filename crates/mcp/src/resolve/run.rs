//! Running a tool's resolver graph for one round: every resolver at most once, independent ones
//! concurrently, each as soon as the values it needs exist.

use super::from_resolved::FromResolved;
use super::inputs::{ArgumentSource, ResolverInputs, read_value};
use super::plan::ToolPlan;
use super::resolver::{ResolvedValue, ResolverOutcome};
use crate::context::Context;
use crate::error::ToolError;
use futures_util::FutureExt;
use futures_util::stream::{FuturesUnordered, StreamExt};
use std::panic::AssertUnwindSafe;

/// The values of one round, from which the tool takes its resolved parameters.
pub struct Resolution<'p> {
    plan: &'p ToolPlan,
    values: Vec<Option<ResolvedValue>>,
}

impl Resolution<'_> {
    /// The value for the tool's `position`-th resolved parameter (counting resolved parameters
    /// only), converted to the parameter's type.
    pub fn take<O: 'static, P: FromResolved<O>>(
        &self,
        position: usize,
        param: &'static str,
    ) -> Result<P, ToolError> {
        read_value::<O, P>(&self.values, self.plan.tool_inputs[position], param)
    }
}

/// Runs every resolver of `plan` once.
pub(crate) async fn resolve<'p>(
    plan: &'p ToolPlan,
    context: &Context,
    arguments: &dyn ArgumentSource,
) -> Result<Resolution<'p>, ToolError> {
    let count = plan.nodes.len();
    let mut values: Vec<Option<ResolvedValue>> = vec![None; count];
    if count == 0 {
        return Ok(Resolution { plan, values });
    }
    let mut waits_for = plan.waits_for.clone();
    let mut running = FuturesUnordered::new();
    for (node, waiting) in waits_for.iter().enumerate() {
        if *waiting == 0 {
            running.push(start(plan, node, context, arguments, &values));
        }
    }
    while let Some((node, outcome)) = running.next().await {
        values[node] = Some(outcome?);
        for &dependent in &plan.dependents[node] {
            waits_for[dependent] -= 1;
            if waits_for[dependent] == 0 {
                running.push(start(plan, dependent, context, arguments, &values));
            }
        }
    }
    Ok(Resolution { plan, values })
}

fn start(
    plan: &ToolPlan,
    node: usize,
    context: &Context,
    arguments: &dyn ArgumentSource,
    values: &[Option<ResolvedValue>],
) -> impl Future<Output = (usize, ResolverOutcome)> + Send + use<> {
    let PlanNode { definition, inputs } = &plan.nodes[node];
    let name = definition.name;
    let body = (definition.run)(ResolverInputs {
        context,
        arguments,
        values,
        sources: inputs,
    });
    AssertUnwindSafe(body).catch_unwind().map(move |result| {
        let outcome = result.unwrap_or_else(|panic| {
            tracing::error!(
                resolver = name,
                panic = panic_message(&panic),
                "resolver panicked"
            );
            Err(ToolError::new(format!("resolver '{name}' panicked")))
        });
        (node, outcome)
    })
}

use super::plan::PlanNode;

/// The text of a panic payload, for the server log.
pub(crate) fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("<non-string panic payload>")
}
