//! [`ExtensionMethod`]: the code behind one of an extension's methods, in two steps: admitting
//! the request (before any middleware sees it), then serving it (at the bottom of the
//! middleware).

use super::request::ExtensionRequest;
use crate::protocol::ErrorObject;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

/// The future that serves an admitted request: the method's result object, or the JSON-RPC
/// error to answer with. It runs at the bottom of the server's middleware.
pub type MethodFuture = Pin<Box<dyn Future<Output = Result<Value, ErrorObject>> + Send>>;

/// The future that admits a request: the work that serves it, or the error that refuses it
/// before any middleware sees it.
pub type Admission = Pin<Box<dyn Future<Output = Result<MethodFuture, ErrorObject>> + Send>>;

/// The code behind one of an extension's methods.
///
/// Any `Fn(ExtensionRequest) -> impl Future<Output = Result<Value, ErrorObject>>` is one: it
/// admits every request and serves it at the bottom of the middleware. A method that refuses
/// some requests (a scope the caller lacks, an extension it did not declare) implements
/// [`admit`](ExtensionMethod::admit) itself, so that the refusal comes before any middleware
/// sees the request, as the core's own methods do: the middleware only ever sees requests the
/// server admitted.
///
/// ```
/// use mcpwire::extension::{Admission, ExtensionMethod, ExtensionRequest, MethodFuture};
/// use serde_json::json;
///
/// /// Reads the audit log: for callers holding `audit:read`.
/// struct ReadAudit;
///
/// impl ExtensionMethod for ReadAudit {
///     fn admit(&self, request: ExtensionRequest) -> Admission {
///         Box::pin(async move {
///             request.authorize(&["audit:read"])?;
///             let serve: MethodFuture = Box::pin(async move { Ok(json!({ "entries": [] })) });
///             Ok(serve)
///         })
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot serve an extension method",
    label = "not an async function of `ExtensionRequest`",
    note = "an extension method is `|request: ExtensionRequest| async move {{ Ok(json!({{}})) }}`: \
            it takes the `ExtensionRequest` and returns `Result<serde_json::Value, ErrorObject>`"
)]
pub trait ExtensionMethod: Send + Sync + 'static {
    /// Admits `request` and returns the work that serves it, or refuses it.
    fn admit(&self, request: ExtensionRequest) -> Admission;
}

impl<F, Fut> ExtensionMethod for F
where
    F: Fn(ExtensionRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, ErrorObject>> + Send + 'static,
{
    fn admit(&self, request: ExtensionRequest) -> Admission {
        let serve: MethodFuture = Box::pin(self(request));
        Box::pin(std::future::ready(Ok(serve)))
    }
}
