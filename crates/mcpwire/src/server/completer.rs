//! What a server's completer is: the function that answers `completion/complete`, and the
//! future it answers in.

use crate::context::Context;
use crate::protocol::completion::{CompleteParams, Completion};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The future a completer answers in.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::protocol::{CompleteParams, Completion};
/// use mcpwire::server::CompletionFuture;
///
/// /// A named completer, for servers that keep their completers in a table.
/// fn complete_language(request: CompleteParams, _ctx: Context) -> CompletionFuture {
///     Box::pin(async move {
///         let typed = request.argument.value;
///         let matching = ["python", "rust"].into_iter().filter(|l| l.starts_with(typed.as_str()));
///         Completion::from_values(matching)
///     })
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let request = serde_json::from_str(r#"{"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"ru"}}"#).unwrap();
/// let ctx = Context::detached().build();
/// assert_eq!(complete_language(request, ctx).await.values, ["rust"]);
/// let server = McpServer::new("reviews").completion(complete_language);
/// # drop(server);
/// # });
/// ```
pub type CompletionFuture = Pin<Box<dyn Future<Output = Completion> + Send>>;

/// A server's completer, shared by every request.
pub(crate) type Completer = Arc<dyn Fn(CompleteParams, Context) -> CompletionFuture + Send + Sync>;
