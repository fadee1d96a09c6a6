//! Why a gateway could not start.

/// Why a gateway could not start: a bad setting, or two entries that would be shown under the
/// same name. The message names the backend (and entries) at fault.
///
/// ```
/// use mcpwire::gateway::{Backend, Gateway};
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let gateway = Gateway::new().backend(Backend::http("a/b", "http://127.0.0.1:1/mcp"));
/// let error = gateway.start(mcpwire::McpServer::new("front")).await.err().unwrap();
/// assert!(error.to_string().contains("'a/b'"));
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GatewayError(pub(crate) String);
