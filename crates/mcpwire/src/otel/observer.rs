//! The request's child spans, made through the core's observer seam
//! ([`RequestObserver`]): `resolve {name}` around each resolver's run (an error status when it
//! failed; its message is not recorded, it may quote the arguments), the `input_required` span
//! of a 2026-07-28 round that ends in questions (naming the keys asked, never the questions'
//! text), and a CLIENT span for each request the server sends the client, whose context goes
//! to the client in the request's `params._meta` (`traceparent`, `tracestate`).

use super::conventions::{self as trace, key};
use crate::context::{Ending, Observed, ObservedWork, RequestObserver};
use opentelemetry::context::FutureExt as _;
use opentelemetry::trace::{SpanKind, Status, TraceContextExt, Tracer};
use opentelemetry::{Context as OtelContext, KeyValue};
use serde_json::{Map, Value};
use std::time::SystemTime;

/// The attribute naming the resolver.
const RESOLVER: &str = "mcpwire.resolver.name";

/// Watches one request whose span is the active span of `cx`.
pub(super) struct SpanObserver {
    pub(super) cx: OtelContext,
}

impl RequestObserver for SpanObserver {
    fn resolver(&self, name: &'static str) -> Option<Box<dyn ObservedWork>> {
        let cx = trace::child(
            &self.cx,
            format!("resolve {name}"),
            SpanKind::Internal,
            vec![KeyValue::new(RESOLVER, name)],
        );
        Some(Box::new(ResolverSpan { cx }))
    }

    fn input_required(&self, started: SystemTime, keys: &[&str]) {
        let keys: Vec<opentelemetry::StringValue> = (keys.iter())
            .map(|key| opentelemetry::StringValue::from(key.to_string()))
            .collect();
        let tracer = trace::tracer();
        let span = tracer
            .span_builder("input_required")
            .with_kind(SpanKind::Internal)
            .with_start_time(started)
            .with_attributes([
                KeyValue::new("mcpwire.input_requests.count", keys.len() as i64),
                KeyValue::new(
                    "mcpwire.input_requests.keys",
                    opentelemetry::Value::Array(keys.into()),
                ),
            ])
            .start_with_context(&tracer, &self.cx);
        drop(span);
    }

    fn client_request(
        &self,
        method: &str,
        meta: &mut Map<String, Value>,
    ) -> Option<Box<dyn ObservedWork>> {
        // A child of the resolver's span when one is current (its question), else of the
        // request's.
        let current = OtelContext::current();
        let parent = match current.has_active_span() {
            true => &current,
            false => &self.cx,
        };
        let cx = trace::child(
            parent,
            method.to_owned(),
            SpanKind::Client,
            vec![KeyValue::new(key::METHOD, method.to_owned())],
        );
        trace::inject(&cx, meta);
        Some(Box::new(ClientSpan { cx }))
    }
}

/// A resolver's span: the resolver runs in its context.
struct ResolverSpan {
    cx: OtelContext,
}

impl ObservedWork for ResolverSpan {
    fn run(&self, work: Observed) -> Observed {
        Box::pin(work.with_context(self.cx.clone()))
    }

    fn end(self: Box<Self>, ending: Ending<'_>) {
        let span = self.cx.span();
        match ending {
            Ending::Asked => span.set_attribute(KeyValue::new("mcpwire.resolver.asked", true)),
            Ending::Failed { kind, code } => {
                let kind = match code {
                    Some(code) => code.to_string(),
                    None => kind.to_owned(),
                };
                span.set_attribute(KeyValue::new(key::ERROR_TYPE, kind));
                span.set_status(Status::error(""));
            }
            _ => {}
        }
        span.end();
    }
}

/// A request to the client's CLIENT span.
struct ClientSpan {
    cx: OtelContext,
}

impl ObservedWork for ClientSpan {
    fn end(self: Box<Self>, ending: Ending<'_>) {
        let span = self.cx.span();
        match ending {
            Ending::Failed {
                code: Some(code), ..
            } => {
                let code = code.to_string();
                span.set_attribute(KeyValue::new(key::ERROR_TYPE, code.clone()));
                span.set_attribute(KeyValue::new(key::STATUS_CODE, code.clone()));
                // Never the client's message: the client chose it, and it may quote answers.
                span.set_status(Status::error(format!("JSON-RPC error {code}")));
            }
            Ending::Failed { kind, .. } => {
                span.set_attribute(KeyValue::new(key::ERROR_TYPE, kind.to_owned()));
                span.set_status(Status::error(kind.to_owned()));
            }
            _ => {}
        }
        span.end();
    }
}
