//! Trace context in `params._meta`, as the OpenTelemetry semantic conventions for MCP carry it:
//! W3C `traceparent` and `tracestate` keys next to the request's other `_meta` entries,
//! injected by whoever sends a request and extracted by whoever serves it. Shared by both
//! sides: the server's request spans (`Tracing`), its resolver and question spans
//! (`observer.rs`), and the client's CLIENT spans.
//!
//! Also the span and metric vocabulary both sides use (attribute names, the duration
//! histograms' bucket boundaries), so that a client span and a server span of one call say the
//! same things the same way.
// A client-only build uses the injecting half.
#![cfg_attr(not(feature = "server"), allow(dead_code))]

use crate::protocol::TraceContext;
use crate::protocol::methods::{
    PROMPTS_GET, RESOURCES_READ, RESOURCES_SUBSCRIBE, RESOURCES_UNSUBSCRIBE, TOOLS_CALL,
};
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::{SpanKind, TraceContextExt, Tracer};
use opentelemetry::{Context as OtelContext, InstrumentationScope, KeyValue, global};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The `_meta` key of the W3C trace parent.
pub(crate) const TRACEPARENT: &str = "traceparent";
/// The `_meta` key of the W3C trace state.
pub(crate) const TRACESTATE: &str = "tracestate";

/// The attribute names of the conventions.
pub(crate) mod key {
    pub(crate) const METHOD: &str = "mcp.method.name";
    pub(crate) const PROTOCOL_VERSION: &str = "mcp.protocol.version";
    pub(crate) const SESSION_ID: &str = "mcp.session.id";
    pub(crate) const RESOURCE_URI: &str = "mcp.resource.uri";
    pub(crate) const REQUEST_ID: &str = "jsonrpc.request.id";
    pub(crate) const TOOL_NAME: &str = "gen_ai.tool.name";
    pub(crate) const PROMPT_NAME: &str = "gen_ai.prompt.name";
    pub(crate) const OPERATION_NAME: &str = "gen_ai.operation.name";
    pub(crate) const NETWORK_TRANSPORT: &str = "network.transport";
    pub(crate) const ERROR_TYPE: &str = "error.type";
    pub(crate) const STATUS_CODE: &str = "rpc.response.status_code";
}

/// The most bytes of a JSON-RPC request id kept in `jsonrpc.request.id`: a client chooses its
/// ids, and an id may be as long as the message.
pub(crate) const MAX_REQUEST_ID_BYTES: usize = 128;

/// The most bytes of a method, tool or prompt name a client span or measurement keeps: the
/// name a client calls may come from a model or a server, and each new value would be a new
/// span name and a new metric series.
pub(crate) const MAX_NAME_BYTES: usize = 128;

/// The most bytes of a URI kept in `mcp.resource.uri`.
pub(crate) const MAX_URI_BYTES: usize = 1024;

/// `value` cut to at most `max` bytes, at a character boundary.
pub(crate) fn bounded(value: &str, max: usize) -> String {
    if value.len() <= max {
        return value.to_owned();
    }
    let mut end = max;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    value[..end].to_owned()
}

/// The explicit bucket boundaries the conventions give the MCP duration histograms (seconds).
pub(crate) const DURATION_BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// `mcp.server.session.duration`: how long a 2025-11-25 session lasted, from `initialize` to
/// its end (seconds, the conventions' buckets), from the global meter provider as it is when
/// the first session ends.
pub(crate) fn server_session_duration() -> &'static opentelemetry::metrics::Histogram<f64> {
    static HISTOGRAM: std::sync::OnceLock<opentelemetry::metrics::Histogram<f64>> =
        std::sync::OnceLock::new();
    HISTOGRAM.get_or_init(|| {
        global::meter_with_scope(scope())
            .f64_histogram("mcp.server.session.duration")
            .with_unit("s")
            .with_description("The duration of the MCP session as observed on the MCP server.")
            .with_boundaries(DURATION_BUCKETS.to_vec())
            .build()
    })
}

/// The instrumentation scope of every span and instrument mcpwire makes.
pub(crate) fn scope() -> InstrumentationScope {
    InstrumentationScope::builder("mcpwire")
        .with_version(env!("CARGO_PKG_VERSION"))
        .build()
}

/// A tracer of the global tracer provider (a no-op one until an application installs one).
pub(crate) fn tracer() -> global::BoxedTracer {
    global::tracer_with_scope(scope())
}

/// The caller's context a request's `_meta` named (the request span's link, or its parent when
/// the callers are trusted); `None` when the `traceparent` is malformed (the span then has
/// neither, rather than failing the request).
pub(crate) fn remote_context(sent: &TraceContext) -> Option<OtelContext> {
    let cx = TraceContextPropagator::new().extract(&Sent(sent));
    cx.span().span_context().is_valid().then_some(cx)
}

/// A request's trace context, read by the propagator.
struct Sent<'a>(&'a TraceContext);

impl Extractor for Sent<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            TRACEPARENT => Some(&self.0.traceparent),
            TRACESTATE => self.0.tracestate.as_deref(),
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        let mut keys = vec![TRACEPARENT];
        if self.0.tracestate.is_some() {
            keys.push(TRACESTATE);
        }
        keys
    }
}

/// Whether `cx` has a span context to send ([`inject`] adds nothing otherwise).
pub(crate) fn carries(cx: &OtelContext) -> bool {
    cx.span().span_context().is_valid()
}

/// Writes `cx`'s span context into a `_meta` object as `traceparent` (and `tracestate`).
pub(crate) fn inject(cx: &OtelContext, meta: &mut Map<String, Value>) {
    struct Into<'a>(&'a mut Map<String, Value>);
    impl Injector for Into<'_> {
        fn set(&mut self, key: &str, value: String) {
            self.0.insert(key.to_owned(), Value::String(value));
        }
    }
    if carries(cx) {
        TraceContextPropagator::new().inject_context(cx, &mut Into(meta));
    }
}

/// The conventions' span name, `{mcp.method.name} {target}`, where the target is the tool's or
/// the prompt's name (a resource URI is left out: it is the high-cardinality kind).
pub(crate) fn span_name(method: &str, target: Option<&str>) -> Cow<'static, str> {
    match (method, target) {
        (TOOLS_CALL | PROMPTS_GET, Some(target)) => Cow::Owned(format!("{method} {target}")),
        _ => Cow::Owned(method.to_owned()),
    }
}

/// `mcp.method.name` of a request to the server: the method, when it is one the server answers;
/// `_OTHER` for any other, so that a client cannot make up span names and metric series.
#[cfg(feature = "server")]
pub(crate) fn method_attribute(method: &str) -> &'static str {
    use crate::protocol::methods::Method;
    Method::of(method).map_or("_OTHER", Method::name)
}

/// The attributes that name what a request is for: `gen_ai.tool.name` and
/// `gen_ai.operation.name` (`execute_tool`) for a tool call, `gen_ai.prompt.name`, and (on
/// spans only, `uri_too`) `mcp.resource.uri`.
pub(crate) fn target_attributes(
    method: &str,
    target: Option<&str>,
    uri_too: bool,
    into: &mut Vec<KeyValue>,
) {
    let Some(target) = target else { return };
    match method {
        TOOLS_CALL => {
            into.push(KeyValue::new(key::TOOL_NAME, target.to_owned()));
            into.push(KeyValue::new(key::OPERATION_NAME, "execute_tool"));
        }
        PROMPTS_GET => into.push(KeyValue::new(key::PROMPT_NAME, target.to_owned())),
        RESOURCES_READ | RESOURCES_SUBSCRIBE | RESOURCES_UNSUBSCRIBE if uri_too => into.push(
            KeyValue::new(key::RESOURCE_URI, bounded(target, MAX_URI_BYTES)),
        ),
        _ => {}
    }
}

/// A child span of `parent` (INTERNAL, or `kind`), with `attributes`; returns the context whose
/// active span it is.
pub(crate) fn child(
    parent: &OtelContext,
    name: impl Into<Cow<'static, str>>,
    kind: SpanKind,
    attributes: Vec<KeyValue>,
) -> OtelContext {
    let tracer = tracer();
    let span = tracer
        .span_builder(name)
        .with_kind(kind)
        .with_attributes(attributes)
        .start_with_context(&tracer, parent);
    parent.with_span(span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_round_trips_through_meta() {
        let sent = TraceContext::of(
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".into()),
            Some("rojo=00f067aa0ba902b7".into()),
        )
        .unwrap();
        let cx = remote_context(&sent).expect("a valid parent");
        let mut meta = Map::new();
        inject(&cx, &mut meta);
        assert_eq!(
            meta[TRACEPARENT],
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        );
        assert_eq!(meta[TRACESTATE], "rojo=00f067aa0ba902b7");
    }

    #[test]
    fn a_malformed_traceparent_is_no_parent() {
        let sent = TraceContext::of(Some("00-nonsense".into()), None).unwrap();
        assert!(remote_context(&sent).is_none());
        let mut meta = Map::new();
        inject(&OtelContext::new(), &mut meta);
        assert!(meta.is_empty());
    }

    #[test]
    fn bounded_cuts_at_a_character_boundary() {
        assert_eq!(bounded("short", 128), "short");
        assert_eq!(bounded(&"a".repeat(300), 128).len(), 128);
        // "é" is two bytes: 127 ASCII bytes then "é" would end at 129, so it is left out.
        let value = format!("{}é", "a".repeat(127));
        assert_eq!(bounded(&value, 128), "a".repeat(127));
    }

    #[test]
    fn span_names_follow_the_conventions() {
        assert_eq!(
            span_name("tools/call", Some("order_book")),
            "tools/call order_book"
        );
        assert_eq!(
            span_name("resources/read", Some("file:///a")),
            "resources/read"
        );
        assert_eq!(span_name("tools/list", None), "tools/list");
    }
}
