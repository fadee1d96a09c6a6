//! CLIENT spans and `mcp.client.operation.duration` (feature `otel`): each request the client
//! sends is a CLIENT span named as the conventions say (`tools/call order_book`), a child of
//! the caller's current OpenTelemetry context, whose context goes to the server in
//! `params._meta` (`traceparent`, `tracestate`). A 2026-07-28 call that takes several rounds
//! is one span (opened by `rounds.rs`): each round's request carries that span's context, so
//! the server's spans of every round sit in one trace. Argument values and results are not
//! recorded, nor the server's error messages (a span's status text is fixed); a resource URI is
//! cut to 1 KiB. `ClientBuilder::propagate_trace_context(false)`
//! keeps the context from servers the client does not trust.

use super::error::ClientError;
use crate::otel::conventions::{self as trace, DURATION_BUCKETS, MAX_URI_BYTES, key};
use crate::protocol::methods::{
    RESOURCES_READ, RESOURCES_SUBSCRIBE, RESOURCES_UNSUBSCRIBE, TOOLS_CALL,
};
use opentelemetry::context::FutureExt as _;
use opentelemetry::metrics::Histogram;
use opentelemetry::trace::{SpanKind, Status, TraceContextExt};
use opentelemetry::{Context as OtelContext, KeyValue, global};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::sync::OnceLock;
use std::time::Instant;

/// Marks a context whose CLIENT span covers the requests sent under it (a call's rounds).
struct Covered;

/// An open CLIENT span.
pub(crate) struct CallSpan {
    cx: OtelContext,
    started: Instant,
    measured: Vec<KeyValue>,
    tool_call: bool,
}

/// The client's duration histogram, from the global meter provider as it was at first use.
fn duration() -> &'static Histogram<f64> {
    static DURATION: OnceLock<Histogram<f64>> = OnceLock::new();
    DURATION.get_or_init(|| {
        global::meter_with_scope(trace::scope())
            .f64_histogram("mcp.client.operation.duration")
            .with_unit("s")
            .with_description(
                "The duration of the MCP request or notification as observed on the sender \
                 from the time it was sent until the response or ack is received.",
            )
            .with_boundaries(DURATION_BUCKETS.to_vec())
            .build()
    })
}

/// Opens the CLIENT span of `method` with `params`, sent under the protocol `version`, unless a
/// span of the same call already covers it (then `None`: the request carries that span's
/// context).
pub(crate) fn open(
    version: Option<String>,
    method: &str,
    params: &Map<String, Value>,
) -> Option<CallSpan> {
    let parent = OtelContext::current();
    if parent.get::<Covered>().is_some() {
        return None;
    }
    let target = match method {
        RESOURCES_READ | RESOURCES_SUBSCRIBE | RESOURCES_UNSUBSCRIBE => params.get("uri"),
        _ => params.get("name"),
    }
    .and_then(Value::as_str);
    let mut measured = Vec::with_capacity(5);
    measured.push(KeyValue::new(key::METHOD, method.to_owned()));
    if let Some(version) = version {
        measured.push(KeyValue::new(key::PROTOCOL_VERSION, version));
    }
    trace::target_attributes(method, target, false, &mut measured);
    let mut attributes = measured.clone();
    if let Some(uri) = target.filter(|_| method.starts_with("resources/")) {
        attributes.push(KeyValue::new(
            key::RESOURCE_URI,
            trace::bounded(uri, MAX_URI_BYTES),
        ));
    }
    let cx = trace::child(
        &parent,
        trace::span_name(method, target),
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

/// Adds the current span's context (the covering call's) to `params._meta`.
pub(crate) fn inject_current(params: &mut Map<String, Value>) {
    inject(&OtelContext::current(), params);
}

fn inject(cx: &OtelContext, params: &mut Map<String, Value>) {
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        trace::inject(cx, meta);
    }
}

impl CallSpan {
    /// Adds this span's context to `params._meta`.
    pub(crate) fn inject(&self, params: &mut Map<String, Value>) {
        inject(&self.cx, params);
    }

    /// Runs `call` inside this span, then ends it with the outcome and records its duration.
    pub(crate) async fn run(
        mut self,
        call: impl Future<Output = Result<Box<RawValue>, ClientError>>,
    ) -> Result<Box<RawValue>, ClientError> {
        let result = call.with_context(self.cx.with_value(Covered)).await;
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
        duration().record(self.started.elapsed().as_secs_f64(), &self.measured);
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
