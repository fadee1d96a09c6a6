//! `ListRoots`: a resolver asks for the client's roots (`roots/list`).

use crate::protocol::methods::ROOTS_LIST;
use crate::protocol::roots::ListRootsResult;
use crate::resolve::into_resolution::{IntoResolution, Resolution};
use crate::resolve::question::{AnswerError, Capability, Question};
use crate::resolve::resolved_value::ResolvedValue;
use serde_json::Value;
use std::sync::Arc;

/// What a resolver returns to ask for the client's roots. Consumers take [`ListRootsResult`].
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// #[resolver]
/// fn roots() -> ListRoots { ListRoots }
///
/// /// Names the client's workspace folders.
/// #[tool]
/// async fn workspaces(#[resolve(roots)] roots: ListRootsResult) -> String {
///     let names: Vec<&str> =
///         roots.roots.iter().map(|r| r.name.as_deref().unwrap_or(&r.uri)).collect();
///     names.join(", ")
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let answer: ListRootsResult = serde_json::from_str(r#"{"roots":[{"uri":"file:///src","name":"src"}]}"#).unwrap();
/// assert_eq!(workspaces::call(answer).await, "src");
/// # });
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ListRoots;

impl IntoResolution for ListRoots {
    type Value = ListRootsResult;

    fn into_resolution(self) -> Resolution<ListRootsResult> {
        Resolution::Ask(Question::new(Capability::Roots, ROOTS_LIST, None, decode))
    }
}

fn decode(answer: &Value) -> Result<ResolvedValue, AnswerError> {
    serde_json::from_value::<ListRootsResult>(answer.clone())
        .map(|result| Arc::new(result) as ResolvedValue)
        .map_err(|_| AnswerError::WrongKind)
}
