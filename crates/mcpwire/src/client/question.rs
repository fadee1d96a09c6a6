//! A question the server asks during one call (elicitation, sampling, roots), handed to that
//! call's own answerer ([`CallOptions::on_question`](super::CallOptions::on_question)) instead
//! of the client's handlers: what a gateway needs to pass a backend's question on to its own
//! caller.

use super::transport::BoxFuture;
use crate::protocol::ErrorObject;
use serde_json::Value;
use std::sync::Arc;

/// A question of the server's, as it came: its method (`elicitation/create`,
/// `sampling/createMessage`, `roots/list`) and its params (`{}` when absent).
///
/// # Examples
///
/// ```
/// use mcpwire::client::ServerQuestion;
///
/// let question = ServerQuestion {
///     method: "roots/list".into(),
///     params: serde_json::json!({}),
/// };
/// assert_eq!(question.method, "roots/list");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ServerQuestion {
    /// The question's method.
    pub method: String,
    /// Its params, as sent.
    pub params: Value,
}

/// What answers one call's questions: the JSON of the result, or the error the server is told.
pub(crate) type QuestionAnswerer =
    Arc<dyn Fn(ServerQuestion) -> BoxFuture<'static, Result<Value, ErrorObject>> + Send + Sync>;
