//! A real OTLP/HTTP receiver for the OpenTelemetry tests: an axum server on 127.0.0.1 that
//! accepts protobuf bodies at `/v1/traces` and `/v1/metrics`, decodes them with the
//! OpenTelemetry project's generated types (`opentelemetry-proto`, prost) and keeps what it
//! received for the test to look at. Shared by `crates/mcpwire/tests/otel/traces.rs` and the root
//! `tests/otel_peers.rs`.

#![allow(dead_code)]

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::metrics::v1::{
    ExportMetricsServiceRequest, ExportMetricsServiceResponse,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::metric;
use prost::Message;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Span kinds as OTLP numbers them.
pub const INTERNAL: i32 = 1;
pub const SERVER: i32 = 2;
pub const CLIENT: i32 = 3;

/// One received span, flattened.
#[derive(Clone, Debug)]
pub struct Span {
    pub trace_id: String,
    pub span_id: String,
    /// Empty for a root span.
    pub parent_span_id: String,
    pub name: String,
    pub kind: i32,
    pub attributes: BTreeMap<String, String>,
    /// The resource's `service.name`.
    pub service: String,
    /// The instrumentation scope's name.
    pub scope: String,
    pub start: u64,
    pub end: u64,
    /// 0 unset, 1 ok, 2 error.
    pub status: i32,
    /// The status's description.
    pub status_message: String,
    /// The spans it links to: (trace id, span id).
    pub links: Vec<(String, String)>,
}

impl Span {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).map(String::as_str)
    }
}

/// One histogram data point of a received metric.
#[derive(Clone, Debug)]
pub struct Point {
    pub metric: String,
    pub unit: String,
    pub scope: String,
    pub service: String,
    pub attributes: BTreeMap<String, String>,
    pub count: u64,
    pub bounds: Vec<f64>,
}

#[derive(Default)]
struct Received {
    spans: Vec<Span>,
    points: Vec<Point>,
    bodies: Vec<String>,
    /// Every request body as it arrived (protobuf), traces and metrics.
    raw: Vec<Bytes>,
}

/// The receiver: its base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`) and what it got.
#[derive(Clone)]
pub struct Receiver {
    pub url: String,
    received: Arc<Mutex<Received>>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn text(value: &Option<AnyValue>) -> String {
    match value.as_ref().and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        Some(any_value::Value::ArrayValue(array)) => {
            let items: Vec<String> = array
                .values
                .iter()
                .map(|v| text(&Some(v.clone())))
                .collect();
            items.join(",")
        }
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

fn attributes(list: &[KeyValue]) -> BTreeMap<String, String> {
    list.iter()
        .map(|kv| (kv.key.clone(), text(&kv.value)))
        .collect()
}

fn service(resource: &Option<opentelemetry_proto::tonic::resource::v1::Resource>) -> String {
    resource
        .as_ref()
        .and_then(|r| {
            r.attributes
                .iter()
                .find(|kv| kv.key == "service.name")
                .map(|kv| text(&kv.value))
        })
        .unwrap_or_default()
}

async fn traces(State(received): State<Arc<Mutex<Received>>>, body: Bytes) -> impl IntoResponse {
    let Ok(request) = ExportTraceServiceRequest::decode(body.clone()) else {
        return (StatusCode::BAD_REQUEST, Vec::new()).into_response();
    };
    let mut received = received.lock().unwrap();
    received.raw.push(body);
    received.bodies.push(format!(
        "traces: {} spans",
        request
            .resource_spans
            .iter()
            .flat_map(|r| &r.scope_spans)
            .map(|s| s.spans.len())
            .sum::<usize>()
    ));
    for resource_spans in &request.resource_spans {
        let service = service(&resource_spans.resource);
        for scope_spans in &resource_spans.scope_spans {
            let scope = scope_spans
                .scope
                .as_ref()
                .map(|s| s.name.clone())
                .unwrap_or_default();
            for span in &scope_spans.spans {
                received.spans.push(Span {
                    trace_id: hex(&span.trace_id),
                    span_id: hex(&span.span_id),
                    parent_span_id: hex(&span.parent_span_id),
                    name: span.name.clone(),
                    kind: span.kind,
                    attributes: attributes(&span.attributes),
                    service: service.clone(),
                    scope: scope.clone(),
                    start: span.start_time_unix_nano,
                    end: span.end_time_unix_nano,
                    status: span.status.as_ref().map_or(0, |s| s.code),
                    status_message: span
                        .status
                        .as_ref()
                        .map(|s| s.message.clone())
                        .unwrap_or_default(),
                    links: span
                        .links
                        .iter()
                        .map(|l| (hex(&l.trace_id), hex(&l.span_id)))
                        .collect(),
                });
            }
        }
    }
    (
        [(header::CONTENT_TYPE, "application/x-protobuf")],
        ExportTraceServiceResponse::default().encode_to_vec(),
    )
        .into_response()
}

async fn metrics(State(received): State<Arc<Mutex<Received>>>, body: Bytes) -> impl IntoResponse {
    let Ok(request) = ExportMetricsServiceRequest::decode(body.clone()) else {
        return (StatusCode::BAD_REQUEST, Vec::new()).into_response();
    };
    let mut received = received.lock().unwrap();
    received.raw.push(body);
    received.bodies.push("metrics".into());
    for resource_metrics in &request.resource_metrics {
        let service = service(&resource_metrics.resource);
        for scope_metrics in &resource_metrics.scope_metrics {
            let scope = scope_metrics
                .scope
                .as_ref()
                .map(|s| s.name.clone())
                .unwrap_or_default();
            for metric in &scope_metrics.metrics {
                if let Some(metric::Data::Histogram(histogram)) = &metric.data {
                    for point in &histogram.data_points {
                        received.points.push(Point {
                            metric: metric.name.clone(),
                            unit: metric.unit.clone(),
                            scope: scope.clone(),
                            service: service.clone(),
                            attributes: attributes(&point.attributes),
                            count: point.count,
                            bounds: point.explicit_bounds.clone(),
                        });
                    }
                }
            }
        }
    }
    (
        [(header::CONTENT_TYPE, "application/x-protobuf")],
        ExportMetricsServiceResponse::default().encode_to_vec(),
    )
        .into_response()
}

impl Receiver {
    /// Listens on 127.0.0.1 (a free port) on the current tokio runtime.
    pub async fn start() -> Receiver {
        let received = Arc::new(Mutex::new(Received::default()));
        let app = Router::new()
            .route("/v1/traces", post(traces))
            .route("/v1/metrics", post(metrics))
            .with_state(received.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Receiver { url, received }
    }

    pub fn spans(&self) -> Vec<Span> {
        self.received.lock().unwrap().spans.clone()
    }

    pub fn points(&self) -> Vec<Point> {
        self.received.lock().unwrap().points.clone()
    }

    /// Whether any request body received so far (spans and metrics, as the protobuf bytes
    /// that arrived) contains `needle`: strings travel in protobuf as their UTF-8 bytes.
    pub fn exported_contains(&self, needle: &str) -> bool {
        let needle = needle.as_bytes();
        self.received
            .lock()
            .unwrap()
            .raw
            .iter()
            .any(|body| body.windows(needle.len()).any(|window| window == needle))
    }

    /// The spans of `trace_id`.
    pub fn trace(&self, trace_id: &str) -> Vec<Span> {
        self.spans()
            .into_iter()
            .filter(|s| s.trace_id == trace_id)
            .collect()
    }

    /// Waits (at most `within`) until `ready` holds for the spans received; returns them, or
    /// panics naming what was received.
    pub async fn wait_for_spans(
        &self,
        within: Duration,
        what: &str,
        ready: impl Fn(&[Span]) -> bool,
    ) -> Vec<Span> {
        let deadline = Instant::now() + within;
        loop {
            let spans = self.spans();
            if ready(&spans) {
                return spans;
            }
            if Instant::now() > deadline {
                let bodies = self.received.lock().unwrap().bodies.clone();
                panic!(
                    "{what}: not received within {within:?}; spans:\n{}\nrequests received: {bodies:?}",
                    dump(&spans)
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits (at most `within`) until `ready` holds for the histogram points received.
    pub async fn wait_for_points(
        &self,
        within: Duration,
        what: &str,
        ready: impl Fn(&[Point]) -> bool,
    ) -> Vec<Point> {
        let deadline = Instant::now() + within;
        loop {
            let points = self.points();
            if ready(&points) {
                return points;
            }
            if Instant::now() > deadline {
                panic!("{what}: not received within {within:?}; points:\n{points:#?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The spans, one per line, for failure messages.
pub fn dump(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| {
            format!(
                "  {} [{}] kind={} trace={} id={} parent={} links={:?} {:?}",
                s.name,
                s.service,
                s.kind,
                s.trace_id,
                s.span_id,
                s.parent_span_id,
                s.links,
                s.attributes
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The spans named `name`.
pub fn named<'a>(spans: &'a [Span], name: &str) -> Vec<&'a Span> {
    spans.iter().filter(|s| s.name == name).collect()
}

/// The one span named `name`, or a panic listing the spans.
pub fn one<'a>(spans: &'a [Span], name: &str) -> &'a Span {
    let found = named(spans, name);
    match found.as_slice() {
        [span] => span,
        _ => panic!(
            "expected exactly one span {name:?}, found {}:\n{}",
            found.len(),
            dump(spans)
        ),
    }
}

/// A [`Receiver`], and `mcpwire::otel::init` exporting to it, on a runtime of their own that
/// outlives each test's.
pub struct Exporting {
    pub receiver: Receiver,
    pub runtime: tokio::runtime::Runtime,
    _telemetry: mcpwire::otel::Telemetry,
}

/// Starts the receiver and `mcpwire::otel::init(service)` pointed at it, on a thread outside
/// the tests' runtimes. Call it once per test binary (behind a `OnceLock`), before any test
/// reads the environment: it sets the `OTEL_*` variables the export reads.
pub fn exporting(service: &'static str) -> Exporting {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let receiver = runtime.block_on(Receiver::start());
        // SAFETY: called once per process, before any test goes past the `OnceLock` it sits
        // behind (they all wait on it), and nothing else in the process writes the environment.
        unsafe {
            std::env::set_var("OTEL_EXPORTER_OTLP_ENDPOINT", &receiver.url);
            std::env::set_var("OTEL_BSP_SCHEDULE_DELAY", "50");
            std::env::set_var("OTEL_METRIC_EXPORT_INTERVAL", "200");
            std::env::remove_var("OTEL_SERVICE_NAME");
        }
        let telemetry = runtime
            .block_on(async { mcpwire::otel::init(service) })
            .unwrap();
        Exporting {
            receiver,
            runtime,
            _telemetry: telemetry,
        }
    })
    .join()
    .unwrap()
}
