//! A request authorization admitted to its method, as a method's serving function receives it
//! from the router ([`table::Serve`](super::table::Serve)), and what writes its response line.

use super::envelope;
use super::era::Served;
use super::exchange::Exchange;
use super::pipeline::{MethodRequest, run_method};
use super::runner::request_context;
use crate::context::Context;
use crate::layer::McpResponse;
use crate::protocol::methods::Method;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::server::core::ServerCore;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A request authorization admitted to its method (but for the handler methods' own scope
/// decision).
pub(crate) struct Admitted<'a> {
    pub(crate) exchange: &'a Arc<Exchange>,
    pub(crate) id: &'a RequestId,
    pub(crate) method: &'a str,
    /// `method`, when the server knows it.
    pub(crate) known: Option<Method>,
    pub(crate) served: Served,
    /// The request's context, when the outer tier made it already.
    pub(crate) context: Option<Context>,
}

/// What a method's serving function returns: the method's answer, or `Err` when the method
/// refused the request before the layers saw it.
pub(crate) type Serving<'a> =
    Pin<Box<dyn Future<Output = Result<McpResponse, ErrorObject>> + Send + 'a>>;

/// A method's serving function: the row of the method table names it.
pub(crate) type ServeFn = for<'a> fn(Admitted<'a>, Option<Box<RawValue>>) -> Serving<'a>;

impl Admitted<'_> {
    /// What writes this request's response line, owning what it needs.
    pub(crate) fn responder(&self) -> Responder {
        Responder {
            core: Arc::clone(&self.exchange.core),
            era: self.served.era,
            id: self.id.clone(),
        }
    }

    /// The request's context: the outer tier's, or made now.
    pub(crate) fn context(&self) -> Context {
        match &self.context {
            Some(context) => context.clone(),
            None => request_context(self.exchange, self.id, self.served.clone()),
        }
    }

    /// Runs `work`, which writes the method's response line, through the server-wide layers;
    /// `target` is what the layers see as the request's target. The future of their answer,
    /// made here (a plain function: nothing of this step stays in it).
    pub(crate) fn through<W>(
        self,
        target: Option<&str>,
        work: W,
    ) -> impl Future<Output = McpResponse> + Send + use<W>
    where
        W: Future<Output = Result<String, ErrorObject>> + Send + 'static,
    {
        let context = match self.context {
            Some(context) => context,
            None => request_context(self.exchange, self.id, self.served),
        };
        let request = MethodRequest {
            method: self.method,
            known: self.known,
            target,
            context,
        };
        run_method(self.exchange, request, work)
    }
}

/// Writes a request's response line (the result's envelope differs by revision).
pub(crate) struct Responder {
    core: Arc<ServerCore>,
    era: Era,
    id: RequestId,
}

impl Responder {
    /// The response line of the result `json`, of kind `kind`.
    pub(crate) fn line(&self, json: &str, kind: ResultKind) -> String {
        envelope::result(&self.core, self.era, &self.id, json, kind)
    }

    /// The response line of a method's result.
    pub(crate) fn complete(self) -> impl FnOnce((String, ResultKind)) -> String {
        move |(json, kind)| self.line(&json, kind)
    }

    /// The response line of an empty result.
    pub(crate) fn empty(self) -> Result<String, ErrorObject> {
        Ok(self.line("{}", ResultKind::Complete))
    }
}
