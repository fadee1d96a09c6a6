//! [`Tracing`]: the layer that gives every MCP request a SERVER span and a
//! `mcp.server.operation.duration` measurement.

use super::conventions::{
    self as trace, DURATION_BUCKETS, MAX_REQUEST_ID_BYTES, MAX_URI_BYTES, key, remote_context,
};
use super::observer::SpanObserver;
use crate::layer::{BoxError, McpRequest, McpResponse, McpService, Outcome};
use crate::protocol::Era;
use crate::protocol::methods::{PROMPTS_GET, RESOURCES_READ, TOOLS_CALL};
use opentelemetry::context::FutureExt as _;
use opentelemetry::global::BoxedTracer;
use opentelemetry::metrics::Histogram;
use opentelemetry::trace::{
    Link, SpanContext, SpanKind, Status, TraceContextExt, TraceState, Tracer,
};
use opentelemetry::{Context as OtelContext, KeyValue, global};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Instant;
use tower_layer::Layer;
use tower_service::Service;

/// A layer that traces every MCP request, as the OpenTelemetry semantic conventions for MCP
/// describe: a SERVER span named `{mcp.method.name} {target}` (`tools/call order_book`,
/// `prompts/get greet`, `resources/read`, `tools/list`), with the attributes `mcp.method.name`,
/// `mcp.protocol.version`, `mcp.session.id` (2025-11-25 over HTTP: a hash of the id, never the
/// id), `jsonrpc.request.id` (at most 128 bytes), `gen_ai.tool.name` and `gen_ai.operation.name`
/// (`execute_tool`), `gen_ai.prompt.name`, `mcp.resource.uri` (at most 1 KiB),
/// `network.transport` (`tcp` over HTTP, `pipe` on stdio and in memory), and on failure
/// `error.type` (the JSON-RPC code, or `tool_error` for an `isError` result) and
/// `rpc.response.status_code`, with an `ERROR` status whose text is fixed (never the error's
/// message); and one `mcp.server.operation.duration` measurement (seconds, the conventions'
/// buckets) with the low-cardinality ones among them.
///
/// The caller is not trusted by default: when the request's `params._meta` carries a
/// `traceparent`, the span starts a trace of the server's own (a new trace id, sampled by the
/// server's sampler) and **links** the caller's span, as OpenTelemetry advises for requests
/// from outside; [`Tracing::remote_parent`] makes it a child of the caller's span instead.
///
/// Under a request's span: one `resolve {name}` span per resolver run, the server's own
/// requests to the client on 2025-11-25 (`elicitation/create`, `sampling/createMessage`,
/// `roots/list`: CLIENT spans, their context sent along in `_meta`), and on 2026-07-28 an
/// `input_required` span when the round ends in questions.
///
/// Add it to the outer tier ([`McpServer::outer_layer`](crate::McpServer::outer_layer)): it
/// then traces every request the server answers, `initialize` and refused ones included
/// (authorization, an unknown tool, prompt, resource or task, malformed parameters), each with
/// exactly one SERVER span. A request that never reached its method is named after the method
/// alone, without target attributes (its target is whatever the client sent). It composes as
/// any tower layer does: inside a `tower::ServiceBuilder`, or in a tuple of layers. Added with
/// [`McpServer::layer`](crate::McpServer::layer) instead, it traces only the requests
/// authorization admits.
///
/// Argument values and results are not recorded unless [`Tracing::record_arguments`] says
/// so. Spans and instruments come from the global providers ([`init`](super::init) installs
/// them): build the layer after installing them. Added first, it is the outermost layer and
/// its span covers the other layers' work too.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
/// let server = McpServer::new("calc").tool(add)?.outer_layer(mcpwire::otel::Tracing::new());
/// let mut client = server.serve_memory().await?;
/// let reply = client
///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}"#)
///     .await
///     .unwrap();
/// assert!(reply.contains(r#""text":"5""#));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Tracing {
    shared: Arc<Shared>,
}

struct Shared {
    tracer: BoxedTracer,
    duration: Histogram<f64>,
    options: Options,
}

/// What the builder methods chose.
#[derive(Clone, Copy, Debug, Default)]
struct Options {
    record_arguments: bool,
    remote_parent: bool,
}

impl std::fmt::Debug for Tracing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracing")
            .field("record_arguments", &self.shared.options.record_arguments)
            .field("remote_parent", &self.shared.options.remote_parent)
            .finish_non_exhaustive()
    }
}

impl Default for Tracing {
    fn default() -> Self {
        Self::new()
    }
}

impl Tracing {
    /// The layer, with the tracer and the meter of the global providers as they are now.
    ///
    /// ```
    /// let server = mcpwire::McpServer::new("calc").outer_layer(mcpwire::otel::Tracing::new());
    /// # drop(server);
    /// ```
    pub fn new() -> Self {
        Self::build(Options::default())
    }

    /// Also records a tool call's and a prompt's arguments, as the JSON the client sent, in the
    /// opt-in attribute `gen_ai.tool.call.arguments` (tools) or `mcpwire.prompt.arguments`
    /// (prompts). Off by default: arguments may carry personal data, and span attributes go to
    /// whoever runs the collector.
    ///
    /// ```
    /// let tracing = mcpwire::otel::Tracing::new().record_arguments(true);
    /// # let _ = mcpwire::McpServer::new("calc").outer_layer(tracing);
    /// ```
    pub fn record_arguments(self, record: bool) -> Self {
        Self::build(Options {
            record_arguments: record,
            ..self.shared.options
        })
    }

    /// Whether the callers are trusted to choose the trace: with `true`, a request whose
    /// `params._meta` carries a valid `traceparent` is a child of the caller's span, in the
    /// caller's trace, and a parent-based sampler follows the caller's decision (the
    /// `sampled` flag). Off by default: a request from the network then starts a trace of the
    /// server's own, sampled by the server's sampler, with a link to the caller's span (its
    /// trace and span ids are kept, its sampling decision is not obeyed), so that a client can
    /// neither switch the server's tracing off nor have every request recorded under a trace id
    /// of its choosing. Turn it on when every caller is your own (behind your gateway, or your
    /// own services).
    ///
    /// ```
    /// let tracing = mcpwire::otel::Tracing::new().remote_parent(true);
    /// # let _ = mcpwire::McpServer::new("calc").outer_layer(tracing);
    /// ```
    pub fn remote_parent(self, trusted: bool) -> Self {
        Self::build(Options {
            remote_parent: trusted,
            ..self.shared.options
        })
    }

    fn build(options: Options) -> Self {
        let meter = global::meter_with_scope(trace::scope());
        let duration = meter
            .f64_histogram("mcp.server.operation.duration")
            .with_unit("s")
            .with_description(
                "MCP request or notification duration as observed on the receiver from the \
                 time it was received until the result or ack is sent.",
            )
            .with_boundaries(DURATION_BUCKETS.to_vec())
            .build();
        Self {
            shared: Arc::new(Shared {
                tracer: trace::tracer(),
                duration,
                options,
            }),
        }
    }
}

impl Shared {
    /// The parent of a request's span and its links, given the caller's context (`remote`):
    /// the caller's span when callers are trusted; otherwise the current context (a new trace,
    /// usually) and a link to the caller's span.
    fn origin(&self, remote: Option<OtelContext>) -> (OtelContext, Vec<Link>) {
        match remote {
            Some(remote) if self.options.remote_parent => (remote, Vec::new()),
            Some(remote) => {
                // The caller's ids and flags; not its `tracestate` (the caller's vendors' data,
                // up to 32 entries of 512 bytes).
                let caller = remote.span().span_context().clone();
                let caller = SpanContext::new(
                    caller.trace_id(),
                    caller.span_id(),
                    caller.trace_flags(),
                    true,
                    TraceState::NONE,
                );
                (OtelContext::current(), vec![Link::with_context(caller)])
            }
            None => (OtelContext::current(), Vec::new()),
        }
    }
}

/// `mcp.session.id` as exported: the first 16 bytes of the id's SHA-256, in hex. The id is an
/// anonymous session's only credential; its hash still ties a session's spans together, and an
/// operator who holds an id can compute it.
fn session_attribute(id: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(id.as_bytes())[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

impl<S> Layer<S> for Tracing {
    type Service = TracingService<S>;

    fn layer(&self, inner: S) -> TracingService<S> {
        TracingService {
            shared: self.shared.clone(),
            inner,
        }
    }
}

/// The service of a [`Tracing`] layer, over the rest of the stack `S` (any service of MCP
/// requests: the server's own, or another tower layer's in a `ServiceBuilder` or a tuple).
#[derive(Clone)]
pub struct TracingService<S = McpService> {
    shared: Arc<Shared>,
    inner: S,
}

impl<S> std::fmt::Debug for TracingService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TracingService")
    }
}

impl<S> Service<McpRequest> for TracingService<S>
where
    S: Service<McpRequest, Response = McpResponse>,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
{
    type Response = McpResponse;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<McpResponse, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, request: McpRequest) -> Self::Future {
        let started = Instant::now();
        let method = request.method();
        let named = trace::method_attribute(method);
        let remote = request.context().trace_context().and_then(remote_context);
        let (parent, links) = self.shared.origin(remote);
        let transport = if request.context().headers().is_some() {
            "tcp"
        } else {
            "pipe"
        };
        // The measurement's attributes: the low-cardinality ones.
        let mut measured = Vec::with_capacity(6);
        measured.push(KeyValue::new(key::METHOD, named));
        // Empty for a request not classified yet (`initialize`, or a malformed `_meta`).
        let version = request.protocol_version();
        if !version.is_empty() {
            measured.push(KeyValue::new(key::PROTOCOL_VERSION, version.to_owned()));
        }
        measured.push(KeyValue::new(key::NETWORK_TRANSPORT, transport));
        let mut attributes = measured.clone();
        attributes.push(KeyValue::new(
            key::REQUEST_ID,
            trace::bounded(&request.request_id().to_string(), MAX_REQUEST_ID_BYTES),
        ));
        if request.era() == Era::Legacy
            && let Some(session) = request.session_id()
        {
            attributes.push(KeyValue::new(key::SESSION_ID, session_attribute(session)));
        }
        if request.is_retried_round() {
            attributes.push(KeyValue::new("mcpwire.retried_round", true));
        }
        // What the request reached, as its method parsed it, is read from its context once the
        // response says it reached its method (a refused request's target is the caller's
        // choice, and unbounded).
        let context = request.context().clone();
        let arguments = match (self.shared.options.record_arguments, method) {
            (true, TOOLS_CALL) => Some("gen_ai.tool.call.arguments"),
            (true, PROMPTS_GET) => Some("mcpwire.prompt.arguments"),
            _ => None,
        }
        .zip(
            request
                .arguments()
                .map(|arguments| arguments.get().to_owned()),
        );
        let tracer = &self.shared.tracer;
        let span = tracer
            .span_builder(named)
            .with_kind(SpanKind::Server)
            .with_attributes(attributes)
            .with_links(links)
            .start_with_context(tracer, &parent);
        let cx = parent.with_span(span);
        let observer = Arc::new(SpanObserver { cx: cx.clone() });
        request.context().observe(observer);
        let answering = self.inner.call(request);
        let shared = self.shared.clone();
        Box::pin(async move {
            let answered = answering.with_context(cx.clone()).await;
            let span = cx.span();
            let response = match answered {
                Ok(response) => response,
                Err(error) => {
                    // The rest of the stack failed (the server answers -32603).
                    span.set_attribute(KeyValue::new(key::ERROR_TYPE, "-32603"));
                    span.set_status(Status::error("JSON-RPC error -32603"));
                    span.end();
                    measured.push(KeyValue::new(key::ERROR_TYPE, "-32603"));
                    shared
                        .duration
                        .record(started.elapsed().as_secs_f64(), &measured);
                    return Err(error.into());
                }
            };
            if response.reached()
                && let Some(target) = context.reached_target()
            {
                span.update_name(trace::span_name(named, Some(target)));
                let mut targeted = Vec::with_capacity(2);
                trace::target_attributes(named, Some(target), false, &mut targeted);
                if named == RESOURCES_READ {
                    span.set_attribute(KeyValue::new(
                        key::RESOURCE_URI,
                        trace::bounded(target, MAX_URI_BYTES),
                    ));
                }
                if let Some((name, arguments)) = arguments {
                    span.set_attribute(KeyValue::new(name, arguments));
                }
                for attribute in &targeted {
                    span.set_attribute(attribute.clone());
                }
                measured.extend(targeted);
            }
            match response.outcome() {
                Outcome::Error { code } => {
                    let code = code.to_string();
                    span.set_attribute(KeyValue::new(key::ERROR_TYPE, code.clone()));
                    span.set_attribute(KeyValue::new(key::STATUS_CODE, code.clone()));
                    // Never the error's message: it may quote arguments.
                    span.set_status(Status::error(format!("JSON-RPC error {code}")));
                    measured.push(KeyValue::new(key::ERROR_TYPE, code));
                }
                Outcome::ToolError => {
                    span.set_attribute(KeyValue::new(key::ERROR_TYPE, "tool_error"));
                    span.set_status(Status::error(""));
                    measured.push(KeyValue::new(key::ERROR_TYPE, "tool_error"));
                }
                Outcome::InputRequired => {
                    span.set_attribute(KeyValue::new("mcpwire.result_type", "input_required"))
                }
                Outcome::TaskCreated => {
                    span.set_attribute(KeyValue::new("mcpwire.result_type", "task"))
                }
                _ => {}
            }
            span.end();
            shared
                .duration
                .record(started.elapsed().as_secs_f64(), &measured);
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_id_is_exported_as_a_short_hash() {
        let hashed = session_attribute("0123456789abcdef");
        assert_eq!(hashed.len(), 32);
        assert!(hashed.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(hashed, session_attribute("0123456789abcdef"));
        assert_ne!(hashed, session_attribute("0123456789abcdeg"));
    }
}
