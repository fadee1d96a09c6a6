//! `gateway --config FILE [--http ADDR [--auth-*]]`: the servers a host's `mcpServers` file
//! names, served as one (`mcpwire::gateway`), on stdio or Streamable HTTP; with what the SDK
//! gives any server, configured as the examples are: OpenTelemetry (`OTEL_*`), and over HTTP
//! authorization (`--auth-*`), trusted proxies (`MCP_TRUSTED_PROXIES`) and a fleet of replicas
//! (`MCP_REDIS_URL`, `MCP_REQUEST_STATE_KEYS`); and the built-in layers (`--rate-limit`,
//! `--max-in-flight`, `--request-timeout`, `--log-requests`: `limits.rs`).

pub mod limits;

use crate::cli::Gateway;
use crate::exit::{Failure, UNREACHABLE};
use mcpwire::McpServer;
use mcpwire::gateway::{self, backends_from_config};
use mcpwire::transport::http::RedisBackend;

/// Reads the configuration (refusing a bad one before anything starts), starts the backends,
/// and serves until the transport ends or the process is asked to stop; over HTTP it first
/// prints `MCP server listening on URL` on stderr, as the examples do.
pub async fn run(command: Gateway) -> Result<(), Failure> {
    // --log-requests' lines are INFO: shown unless RUST_LOG says otherwise.
    mcpwire::transport::log_to_stderr_or(match command.limits.log_requests {
        true => "warn,mcpwire::request=info",
        false => "warn",
    });
    let path = command.config.display().to_string();
    let text = std::fs::read_to_string(&command.config)
        .map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
    let backends = backends_from_config(&text, |name| std::env::var(name).ok())
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    if backends.is_empty() {
        return Err(Failure::usage(format!("{path}: no server to serve")));
    }
    let front = McpServer::new(&command.name).version(env!("CARGO_PKG_VERSION"));
    // Traced when OTEL_EXPORTER_OTLP_ENDPOINT is set: a SERVER span per request in front, and a
    // CLIENT span per request to a backend, a child of it, whose context the backend receives.
    let (front, telemetry) =
        mcpwire::otel::instrument_from_env(front).map_err(|e| Failure::usage(e.to_string()))?;
    let traced = telemetry.is_some();
    let server = backends
        .into_iter()
        .map(|backend| match traced {
            true => backend.hook(mcpwire::otel::ClientTracing::new()),
            false => backend,
        })
        .fold(gateway::Gateway::new(), gateway::Gateway::backend)
        .start(front)
        .await
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    let served = match &command.http {
        Some(addr) => serve_http(server, addr, &command).await,
        None => (limits::apply(server, &command.limits, None))
            .serve_stdio()
            .await
            .map_err(stopped),
    };
    if let Some(telemetry) = telemetry {
        telemetry.shutdown().await;
    }
    served
}

/// Serves `server` at `addr` behind what the environment and `command` say, until asked to stop.
async fn serve_http(server: McpServer, addr: &str, command: &Gateway) -> Result<(), Failure> {
    // Bound here, so the address printed is the one served (port 0 included).
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Failure {
            code: UNREACHABLE,
            message: format!("cannot listen on {addr}: {e}"),
        })?;
    // A replica of a fleet: the front's sessions shared in Redis; its backend connections are
    // its own.
    let fleet = RedisBackend::from_env(&command.name)
        .await
        .map_err(|e| Failure {
            code: UNREACHABLE,
            message: format!("MCP_REDIS_URL: {e}"),
        })?;
    let server = limits::apply(server, &command.limits, fleet.as_ref());
    let mut http = (server.http().proxies_from_env()).map_err(|e| Failure::usage(e.to_string()))?;
    if !command.allowed_host.is_empty() {
        http = http.allowed_hosts(&command.allowed_host);
    }
    if let Some(fleet) = &fleet {
        eprintln!(
            "replica {} sharing sessions in Redis at {} under {}",
            fleet.replica(),
            fleet.target(),
            fleet.prefix()
        );
        http = http.fleet(fleet);
    }
    if let (Some(issuer), Some(audience), Some(jwks)) = (
        &command.auth_issuer,
        &command.auth_audience,
        &command.auth_jwks,
    ) {
        http = http.authorization(mcpwire::auth::Authorization::jwt(issuer, audience, jwks));
    }
    if let Ok(bound) = listener.local_addr() {
        eprintln!("MCP server listening on http://{bound}/mcp");
    }
    let stop = crate::signals::stop_requested();
    http.serve_listener(listener, stop).await.map_err(stopped)
}

fn stopped(error: mcpwire::Error) -> Failure {
    Failure {
        code: UNREACHABLE,
        message: format!("the gateway stopped: {error}"),
    }
}
