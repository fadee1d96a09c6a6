//! [`ClientTracing`]: the client's request hook that makes CLIENT spans and records
//! `mcp.client.operation.duration`. Each call the client makes is a CLIENT span named as the
//! conventions say (`tools/call order_book`), a child of the caller's current OpenTelemetry
//! context, whose context goes to the server in `params._meta` (`traceparent`, `tracestate`). A
//! 2026-07-28 call that takes several rounds is one span (opened at the hook's call stage):
//! each round's request carries that span's context, so the server's spans of every round sit in
//! one trace. Argument values and results are not recorded, nor the server's error messages (a
//! span's status text is fixed); a resource URI is cut to 1 KiB.

use super::conventions::{self as trace, DURATION_BUCKETS, MAX_NAME_BYTES, MAX_URI_BYTES, key};
use crate::client::ClientError;
use crate::client::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook, Stage};
use crate::protocol::methods::{
    RESOURCES_READ, RESOURCES_SUBSCRIBE, RESOURCES_UNSUBSCRIBE, TOOLS_CALL,
};
use opentelemetry::context::FutureExt as _;
use opentelemetry::metrics::Histogram;
use opentelemetry::trace::{SpanKind, Status, TraceContextExt};
use opentelemetry::{Context as OtelContext, KeyValue, global};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::time::Instant;

/// The client's hook ([`ClientBuilder::hook`](crate::client::ClientBuilder::hook)) that traces
/// its calls, as the OpenTelemetry semantic conventions for MCP describe: each call a CLIENT span
/// named `{mcp.method.name} {target}` (`tools/call order_book`), a child of the caller's current
/// OpenTelemetry context (run the call inside your own span with
/// `opentelemetry::context::FutureExt::with_context`, or under `tracing-opentelemetry`'s span),
/// with `mcp.method.name`, `mcp.protocol.version` (once negotiated), `gen_ai.tool.name`,
/// `gen_ai.operation.name`, `gen_ai.prompt.name`, `mcp.resource.uri` (at most 1 KiB), and on
/// failure `error.type` (the JSON-RPC code, `tool_error`, `timeout`, `closed`, `transport`, …),
/// `rpc.response.status_code` and an `ERROR` status with a fixed description (never the
/// server's message); and one `mcp.client.operation.duration` measurement per call (seconds,
/// the conventions' buckets; a multi-round call's whole duration).
///
/// The span's context goes to the server in each request's `params._meta` (`traceparent`,
/// `tracestate`), unless [`propagate_trace_context(false)`](ClientTracing::propagate_trace_context).
/// A 2026-07-28 call that takes several rounds is one span, whose context every round carries.
/// A request sent under a span of this hook (a handler of the client calling a server while
/// answering a question) makes no span of its own: it carries the current context.
///
/// A client traces only with this hook installed (the `otel` feature alone makes no client
/// spans, as it makes no server spans without [`Tracing`](super::Tracing)). The spans come from
/// the global tracer provider, the histogram from the global meter provider as it is when the
/// hook is made ([`init`](super::init) installs both): make it after installing them.
///
/// # Examples
///
/// ```no_run
/// use mcpwire::client::Client;
/// use mcpwire::otel::ClientTracing;
///
/// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let telemetry = mcpwire::otel::init("my-agent")?;
/// let client = Client::builder()
///     .hook(ClientTracing::new())
///     .connect_http("http://127.0.0.1:8080/mcp")
///     .await?;
/// client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await?;
/// telemetry.shutdown().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct ClientTracing {
    duration: Histogram<f64>,
    propagate: bool,
}

impl std::fmt::Debug for ClientTracing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientTracing")
            .field("propagate_trace_context", &self.propagate)
            .finish_non_exhaustive()
    }
}

impl Default for ClientTracing {
    fn default() -> Self {
        Self::new()
    }
}

impl ClientTracing {
    /// The hook, with the meter of the global provider as it is now; it propagates the trace
    /// context.
    ///
    /// ```
    /// let client = mcpwire::client::Client::builder().hook(mcpwire::otel::ClientTracing::new());
    /// # drop(client);
    /// ```
    pub fn new() -> Self {
        let duration = global::meter_with_scope(trace::scope())
            .f64_histogram("mcp.client.operation.duration")
            .with_unit("s")
            .with_description(
                "The duration of the MCP request or notification as observed on the sender \
                 from the time it was sent until the response or ack is received.",
            )
            .with_boundaries(DURATION_BUCKETS.to_vec())
            .build();
        Self {
            duration,
            propagate: true,
        }
    }

    /// Whether each request carries the trace context of its CLIENT span to the server, in
    /// `params._meta` (`traceparent`, `tracestate`), as the OpenTelemetry conventions for MCP
    /// do (default `true`). Turn it off for a server you do not trust with your trace: it
    /// would learn your trace and span ids and your `tracestate` (which may carry vendor or
    /// tenant data), and a server that trusts its callers would record its spans in your trace.
    /// The client's own spans are made either way.
    ///
    /// On by default because the usual server is one you chose to call, and following a call
    /// into it is what tracing is for; since a server does not obey a caller's sampling
    /// decision unless it trusts its callers ([`Tracing::remote_parent`](super::Tracing::remote_parent)),
    /// what it learns from the context is two random ids.
    ///
    /// This replaces `ClientBuilder::propagate_trace_context`, removed: a client traces only
    /// with this hook installed, and the choice is the hook's.
    ///
    /// ```
    /// use mcpwire::otel::ClientTracing;
    ///
    /// let builder = mcpwire::client::Client::builder()
    ///     .hook(ClientTracing::new().propagate_trace_context(false));
    /// # drop(builder);
    /// ```
    pub fn propagate_trace_context(mut self, propagate: bool) -> Self {
        self.propagate = propagate;
        self
    }
}

impl RequestHook for ClientTracing {
    fn wrap<'a>(
        &'a self,
        mut request: HookedRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, RawReply> {
        let propagate = self.propagate && request.stage() == Stage::Request;
        match open(request.version(), request.method(), request.params()) {
            Some(span) => {
                if propagate && trace::carries(&span.cx) {
                    span.inject(request.meta_mut());
                }
                Box::pin(span.run(next, request, &self.duration))
            }
            None => {
                let current = OtelContext::current();
                // Without a tracer (or a span) there is nothing to send: `_meta` is left as is.
                if propagate && trace::carries(&current) {
                    trace::inject(&current, request.meta_mut());
                }
                next.run(request)
            }
        }
    }
}

/// Marks a context whose CLIENT span covers the requests sent under it (a call's rounds).
struct Covered;

/// An open CLIENT span.
struct CallSpan {
    cx: OtelContext,
    started: Instant,
    measured: Vec<KeyValue>,
    tool_call: bool,
}

/// Opens the CLIENT span of `method` with `params`, sent under the protocol `version`, unless a
/// span of the same call already covers it (then `None`: the request carries that span's
/// context).
fn open(version: Option<&str>, method: &str, params: &Map<String, Value>) -> Option<CallSpan> {
    let parent = OtelContext::current();
    if parent.get::<Covered>().is_some() {
        return None;
    }
    let target = match method {
        RESOURCES_READ | RESOURCES_SUBSCRIBE | RESOURCES_UNSUBSCRIBE => params.get("uri"),
        _ => params.get("name"),
    }
    .and_then(Value::as_str);
    // Names cut to a bound (a URI is kept apart, cut to its own).
    let method = trace::bounded(method, MAX_NAME_BYTES);
    let method = method.as_str();
    let named = target.map(|target| trace::bounded(target, MAX_NAME_BYTES));
    let mut measured = Vec::with_capacity(5);
    measured.push(KeyValue::new(key::METHOD, method.to_owned()));
    if let Some(version) = version {
        measured.push(KeyValue::new(key::PROTOCOL_VERSION, version.to_owned()));
    }
    trace::target_attributes(method, named.as_deref(), false, &mut measured);
    let mut attributes = measured.clone();
    if let Some(uri) = target.filter(|_| method.starts_with("resources/")) {
        attributes.push(KeyValue::new(
            key::RESOURCE_URI,
            trace::bounded(uri, MAX_URI_BYTES),
        ));
    }
    let cx = trace::child(
        &parent,
        trace::span_name(method, named.as_deref()),
        SpanKind::Client,
        attributes,
    );
    Some(CallSpan {
        cx,
        started: Instant::now(),
        measured,
        tool_call: method == TOOLS_CALL,
    })
}

impl CallSpan {
    /// Adds this span's context to a request's `_meta`.
    fn inject(&self, meta: &mut Map<String, Value>) {
        trace::inject(&self.cx, meta);
    }

    /// Runs the rest of the chain inside this span (the hooks after this one too), then ends
    /// it with the outcome and records its duration in `duration`.
    async fn run<'a>(
        mut self,
        next: Next<'a>,
        request: HookedRequest<'a>,
        duration: &Histogram<f64>,
    ) -> RawReply {
        let result = async move { next.run(request).await }
            .with_context(self.cx.with_value(Covered))
            .await;
        let span = self.cx.span();
        let error_type = match &result {
            Ok(raw) if self.tool_call && is_tool_error(raw) => {
                span.set_status(Status::error(""));
                Some("tool_error".to_owned())
            }
            Ok(_) => None,
            Err(ClientError::Rpc(error)) => {
                let code = error.code.to_string();
                span.set_attribute(KeyValue::new(key::STATUS_CODE, code.clone()));
                // Never the server's message: the server chose it, and it may quote arguments.
                span.set_status(Status::error(format!("JSON-RPC error {code}")));
                Some(code)
            }
            Err(error) => {
                span.set_status(Status::error(""));
                Some(
                    match error {
                        ClientError::Timeout(_) => "timeout",
                        ClientError::Closed(_) => "closed",
                        ClientError::Transport(_) | ClientError::Http { .. } => "transport",
                        ClientError::TooManyRounds(_) => "too_many_rounds",
                        ClientError::Question { .. } => "question",
                        _ => "_OTHER",
                    }
                    .to_owned(),
                )
            }
        };
        if let Some(error_type) = error_type {
            span.set_attribute(KeyValue::new(key::ERROR_TYPE, error_type.clone()));
            self.measured
                .push(KeyValue::new(key::ERROR_TYPE, error_type));
        }
        span.end();
        duration.record(self.started.elapsed().as_secs_f64(), &self.measured);
        result
    }
}

/// Whether a `tools/call` result is an `isError` one.
fn is_tool_error(raw: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(rename = "isError", default)]
        is_error: bool,
    }
    serde_json::from_str::<Head>(raw.get()).is_ok_and(|head| head.is_error)
}

#[cfg(test)]
mod tests {
    use super::ClientTracing;
    use crate::client::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook, Stage};
    use crate::client::{Client, EraChoice};
    use crate::prelude::*;
    use serde_json::{Value, json};
    use std::sync::{Arc, Mutex};

    /// Adds two numbers.
    #[tool]
    async fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    /// Records, after the tracing hook, the `_meta` of each request sent.
    struct Sent(Arc<Mutex<Vec<Option<Value>>>>);

    impl RequestHook for Sent {
        fn wrap<'a>(
            &'a self,
            request: HookedRequest<'a>,
            next: Next<'a>,
        ) -> BoxFuture<'a, RawReply> {
            if request.stage() == Stage::Request && request.method() == "tools/call" {
                let meta = request.params().get("_meta").cloned();
                self.0.lock().unwrap().push(meta);
            }
            next.run(request)
        }
    }

    /// No tracer is installed in this test binary: there is no trace context to send, and the
    /// request goes on as the client built it, with no empty `_meta` added.
    #[tokio::test]
    async fn without_a_tracer_the_request_is_sent_as_built() {
        for era in [EraChoice::Legacy, EraChoice::Modern] {
            let sent = Arc::new(Mutex::new(Vec::new()));
            let server = McpServer::new("traced").tool(add).unwrap();
            let client = Client::builder()
                .era(era)
                .hook(ClientTracing::new())
                .hook(Sent(sent.clone()))
                .connect_memory(server)
                .await
                .unwrap();
            client
                .call_tool("add", json!({"a": 1, "b": 2}))
                .await
                .unwrap();
            let sent = sent.lock().unwrap().clone();
            assert_eq!(sent.len(), 1, "{era:?}");
            // The client adds its own `_meta` entries after the hooks.
            assert_eq!(sent, [None], "{era:?}");
        }
    }
}
