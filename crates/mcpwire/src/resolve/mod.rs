//! Resolved parameters: values the author's own functions compute before a tool runs.
//!
//! A tool parameter marked `#[resolve(f)]` is filled by the resolver `f`. Resolvers take the
//! request's `Context`, tool arguments by name, and other resolvers' values. The graph is
//! checked when the tool is registered ([`InvalidSignature`](crate::InvalidSignature) names the
//! culprit), every resolver runs at most once per round, and independent resolvers run
//! concurrently. See the guide, [`crate::guide::dependencies`].

mod from_resolved;
mod inputs;
mod into_resolution;
pub(crate) mod plan;
mod question;
mod questions;
mod resolver;
pub(crate) mod rounds;
pub(crate) mod run;

pub use from_resolved::FromResolved;
pub use inputs::{ArgumentSource, ResolverInputs};
pub use into_resolution::{IntoResolution, Outcome, Ready};
pub use question::{AnswerError, Capability, Question};
pub use questions::{Elicit, ElicitUrl, ElicitationResult, ListRoots, Sample, UrlConsent};
pub use resolver::{
    ParamSpec, ResolvedValue, Resolver, ResolverDefinition, ResolverFuture, ResolverOutcome,
};
pub use rounds::{InputRequired, RoundInputs};
pub use run::{Resolved, Stop};
