//! [`init`]: OTLP export (HTTP, protobuf bodies) configured by the standard `OTEL_*`
//! environment variables, installed as the global tracer and meter providers; and the
//! exporter's HTTP client, the crate's own `reqwest` driven on the application's tokio runtime.

use opentelemetry::global;
use opentelemetry_http::{HttpClient, HttpError};
use opentelemetry_otlp::{
    MetricExporter, Protocol, SpanExporter, WithExportConfig, WithHttpConfig,
};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{BatchSpanProcessor, SdkTracerProvider};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// Why [`init`] could not start the export.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OtelError {
    /// [`init`] was called outside a tokio runtime (the exporter's HTTP requests run on it).
    #[error("mcpwire::otel::init needs a tokio runtime (call it inside #[tokio::main])")]
    NoRuntime,
    /// The exporter's configuration (an `OTEL_*` variable) is invalid.
    #[error("the OTLP exporter could not be built: {0}")]
    Exporter(String),
    /// A setting of mcpwire's own (an `MCP_OTEL_*` variable) is invalid; the message names it
    /// (never its value).
    #[error("invalid OpenTelemetry setting: {0}")]
    Setting(String),
}

/// The installed tracer and meter providers: spans are batched and sent by a thread of their
/// own, metrics every `OTEL_METRIC_EXPORT_INTERVAL` milliseconds (default 60 000). Dropping it
/// (or [`Telemetry::shutdown`]) sends what is still buffered and stops the export.
///
/// ```no_run
/// # #[tokio::main] async fn main() {
/// let telemetry = mcpwire::otel::init("calc").expect("OTLP export");
/// // … serve …
/// telemetry.shutdown().await;
/// # }
/// ```
#[must_use = "dropping it stops the export"]
pub struct Telemetry {
    providers: Option<(SdkTracerProvider, SdkMeterProvider)>,
}

impl fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Telemetry")
            .field("running", &self.providers.is_some())
            .finish()
    }
}

/// Starts exporting traces and metrics over OTLP/HTTP with protobuf bodies, configured by the
/// standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, default `http://localhost:4318`, with
/// `/v1/traces` and `/v1/metrics` appended; the `_TRACES_`/`_METRICS_` variants;
/// `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`; `OTEL_SERVICE_NAME` and
/// `OTEL_RESOURCE_ATTRIBUTES`; `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`; `OTEL_BSP_*`
/// for the span batches; `OTEL_METRIC_EXPORT_INTERVAL`), and installs the providers as the
/// global ones, which mcpwire's spans and instruments use. `service_name` is the
/// `service.name` when `OTEL_SERVICE_NAME` does not say otherwise.
///
/// Call it inside the tokio runtime, before building servers and clients (they take their
/// instruments from the global providers when built).
///
/// # Errors
///
/// [`OtelError::NoRuntime`] outside a tokio runtime; [`OtelError::Exporter`] for an invalid
/// configuration.
///
/// # Examples
///
/// ```no_run
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let telemetry = mcpwire::otel::init_from_env("calc")?;
///     McpServer::new("calc")
///         .tool(add)?
///         .outer_layer(mcpwire::otel::Tracing::new())
///         .serve_stdio()
///         .await?;
///     if let Some(telemetry) = telemetry { telemetry.shutdown().await; }
///     Ok(())
/// }
/// ```
pub fn init(service_name: &str) -> Result<Telemetry, OtelError> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| OtelError::NoRuntime)?;
    let timeout = exporter_timeout();
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|error| OtelError::Exporter(error.to_string()))?;
    let http = OnRuntime { client, runtime };
    let spans = SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_http_client(http.clone())
        .build()
        .map_err(|error| OtelError::Exporter(error.to_string()))?;
    let metrics = MetricExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_http_client(http)
        .build()
        .map_err(|error| OtelError::Exporter(error.to_string()))?;
    let mut resource = Resource::builder();
    if std::env::var_os("OTEL_SERVICE_NAME").is_none() {
        resource = resource.with_service_name(service_name.to_owned());
    }
    let resource = resource.build();
    let tracer_provider = SdkTracerProvider::builder()
        .with_span_processor(BatchSpanProcessor::builder(spans).build())
        .with_resource(resource.clone())
        .build();
    let meter_provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics).build())
        .with_resource(resource)
        .build();
    global::set_tracer_provider(tracer_provider.clone());
    global::set_meter_provider(meter_provider.clone());
    Ok(Telemetry {
        providers: Some((tracer_provider, meter_provider)),
    })
}

/// [`init`] when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set;
/// `Ok(None)`, exporting nothing, otherwise. What the examples do.
///
/// # Errors
///
/// As [`init`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// // SAFETY: single-threaded doctest.
/// unsafe {
///     std::env::remove_var("OTEL_EXPORTER_OTLP_ENDPOINT");
///     std::env::remove_var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
/// }
/// assert!(mcpwire::otel::init_from_env("calc").unwrap().is_none());
/// # }
/// ```
pub fn init_from_env(service_name: &str) -> Result<Option<Telemetry>, OtelError> {
    let configured = [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ]
    .iter()
    .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()));
    if !configured {
        return Ok(None);
    }
    init(service_name).map(Some)
}

impl Telemetry {
    /// Sends what is buffered now (spans and metrics), waiting for the export (bounded by
    /// `OTEL_EXPORTER_OTLP_TIMEOUT`).
    ///
    /// ```no_run
    /// # #[tokio::main] async fn main() {
    /// let telemetry = mcpwire::otel::init("calc").unwrap();
    /// telemetry.flush().await;
    /// # }
    /// ```
    pub async fn flush(&self) {
        if let Some((traces, metrics)) = self.providers.clone() {
            let _ = tokio::task::spawn_blocking(move || {
                let _ = traces.force_flush();
                let _ = metrics.force_flush();
            })
            .await;
        }
    }

    /// Sends what is still buffered and stops the export.
    ///
    /// ```no_run
    /// # #[tokio::main] async fn main() {
    /// let telemetry = mcpwire::otel::init("calc").unwrap();
    /// telemetry.shutdown().await;
    /// # }
    /// ```
    pub async fn shutdown(mut self) {
        if let Some(providers) = self.providers.take() {
            let _ = tokio::task::spawn_blocking(move || stop(providers)).await;
        }
    }
}

fn stop((traces, metrics): (SdkTracerProvider, SdkMeterProvider)) {
    let _ = traces.shutdown();
    let _ = metrics.shutdown();
}

impl Drop for Telemetry {
    /// Stops the export: waits for it on a multi-threaded runtime or outside one; on a
    /// current-thread runtime (whose only thread the export needs) it lets it finish on a
    /// thread of its own without waiting.
    fn drop(&mut self) {
        let Some(providers) = self.providers.take() else {
            return;
        };
        match tokio::runtime::Handle::try_current().map(|handle| handle.runtime_flavor()) {
            Ok(tokio::runtime::RuntimeFlavor::MultiThread) => {
                tokio::task::block_in_place(|| stop(providers))
            }
            Ok(_) => {
                let _ = std::thread::Builder::new()
                    .name("mcpwire-otel-stop".into())
                    .spawn(move || stop(providers));
            }
            Err(_) => stop(providers),
        }
    }
}

/// `OTEL_EXPORTER_OTLP_TIMEOUT` (milliseconds), default 10 s: the bound of one export request.
fn exporter_timeout() -> Duration {
    std::env::var("OTEL_EXPORTER_OTLP_TIMEOUT")
        .ok()
        .and_then(|ms| ms.trim().parse::<u64>().ok())
        .map_or(Duration::from_secs(10), Duration::from_millis)
}

/// The exporter's HTTP client: the batch processor's thread is no tokio thread, so each export
/// request runs as a task on the application's runtime and the thread waits for its end.
#[derive(Clone)]
struct OnRuntime {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
}

impl fmt::Debug for OnRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OnRuntime")
    }
}

/// An OTLP receiver answers with a small body; anything bigger is cut off.
const MAX_RESPONSE_BYTES: usize = 1 << 20;

impl HttpClient for OnRuntime {
    fn send_bytes<'life0, 'async_trait>(
        &'life0 self,
        request: http::Request<bytes::Bytes>,
    ) -> Pin<
        Box<
            dyn Future<Output = Result<http::Response<bytes::Bytes>, HttpError>>
                + Send
                + 'async_trait,
        >,
    >
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let client = self.client.clone();
        let task = self.runtime.spawn(async move {
            let request: reqwest::Request = request.try_into()?;
            let mut response = client.execute(request).await?;
            let status = response.status();
            let headers = std::mem::take(response.headers_mut());
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await? {
                if body.len() + chunk.len() > MAX_RESPONSE_BYTES {
                    break;
                }
                body.extend_from_slice(&chunk);
            }
            let mut answer = http::Response::builder()
                .status(status)
                .body(bytes::Bytes::from(body))?;
            *answer.headers_mut() = headers;
            Ok::<_, HttpError>(answer)
        });
        Box::pin(async move { task.await.map_err(|error| Box::new(error) as HttpError)? })
    }
}
