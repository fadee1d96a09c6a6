//! Resolved parameters: values the author's own functions compute before a tool runs.
//!
//! A tool parameter marked `#[resolve(f)]` is filled by the resolver `f`. Resolvers take the
//! request's `Context`, tool arguments by name, and other resolvers' values. The graph is
//! checked when the tool is registered ([`InvalidSignature`](crate::InvalidSignature) names the
//! culprit), every resolver runs at most once per round, and independent resolvers run
//! concurrently. See the guide, [`crate::guide::dependencies`].
//!
//! # Examples
//!
//! ```
//! use mcpwire::prelude::*;
//!
//! #[resolver]
//! async fn copies(title: String) -> u32 {
//!     if title == "Dune" { 7 } else { 0 }
//! }
//!
//! /// Says whether a book is in stock.
//! #[tool]
//! async fn in_stock(title: String, #[resolve(copies)] copies: u32) -> String {
//!     format!("{title}: {copies} in stock")
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! // Bodies stay callable with plain values, for unit tests.
//! assert_eq!(in_stock::call("Dune".into(), 7).await, "Dune: 7 in stock");
//! assert!(McpServer::new("shop").tool(in_stock).is_ok());
//! # });
//! ```

pub(crate) mod from_request;
pub(crate) mod from_resolved;
pub(crate) mod inputs;
pub(crate) mod into_resolution;
pub(crate) mod node_input;
pub(crate) mod param_spec;
pub(crate) mod plan;
pub(crate) mod question;
pub(crate) mod questions;
pub(crate) mod resolved_value;
pub(crate) mod resolver;
pub(crate) mod return_probe;
pub(crate) mod rounds;
pub(crate) mod run;

pub use from_request::FromRequest;
pub use from_resolved::FromResolved;
#[allow(deprecated)]
pub use into_resolution::Outcome;
pub use into_resolution::{IntoResolution, Resolution};
pub use question::Question;
pub use questions::{Elicit, ElicitUrl, ElicitationResult, ListRoots, Sample, UrlConsent};
pub use resolver::Resolver;
pub use return_probe::ResolverValue;

// Named by the layers above; the code the macros generate names them (and a few more) through
// the hidden `__private` module. Not a public API.
pub(crate) use inputs::ArgumentSource;
pub(crate) use param_spec::ParamSpec;
pub(crate) use rounds::{InputRequired, RoundInputs};
pub(crate) use run::{Resolved, Stop};
