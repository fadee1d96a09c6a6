//! [`instrument_from_env`]: a server traced and measured as the environment says, the way the
//! examples and `mcpwire-cli gateway` do it.

use super::export::{OtelError, Telemetry, init_from_env};
use super::session::record_session_duration;
use super::tracing::Tracing;
use crate::server::McpServer;

/// Whether the server's callers are trusted with its trace ([`Tracing::remote_parent`]).
const REMOTE_PARENT_VAR: &str = "MCP_OTEL_REMOTE_PARENT";

/// OpenTelemetry for `server` when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: installs the OTLP export ([`init_from_env`],
/// named after the server unless `OTEL_SERVICE_NAME` says otherwise) and returns the server with
/// the [`Tracing`] layer outermost and [`record_session_duration`] on each session's end, and
/// the [`Telemetry`] to shut down once serving ends. Otherwise the server as it was, and `None`.
///
/// `MCP_OTEL_REMOTE_PARENT=true` trusts the callers with the trace
/// ([`Tracing::remote_parent`]): set it on a server whose only callers are your own (behind your
/// gateway), so that its spans are children of the caller's span, in one trace. Unset, `false`
/// or `0`: a trace of the server's own, linking the caller's span.
///
/// # Errors
///
/// As [`init`](super::init); and [`OtelError::Setting`] when `MCP_OTEL_REMOTE_PARENT` is
/// neither `true`, `1`, `false` nor `0` (checked whether or not the export is on).
///
/// # Examples
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// // SAFETY: single-threaded doctest.
/// unsafe {
///     std::env::remove_var("OTEL_EXPORTER_OTLP_ENDPOINT");
///     std::env::remove_var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
///     std::env::set_var("MCP_OTEL_REMOTE_PARENT", "yes");
/// }
/// let server = mcpwire::McpServer::new("calc");
/// let Err(refused) = mcpwire::otel::instrument_from_env(server) else {
///     panic!("a bad MCP_OTEL_REMOTE_PARENT is refused")
/// };
/// assert!(refused.to_string().contains("MCP_OTEL_REMOTE_PARENT"));
///
/// unsafe { std::env::set_var("MCP_OTEL_REMOTE_PARENT", "true") };
/// let (server, telemetry) =
///     mcpwire::otel::instrument_from_env(mcpwire::McpServer::new("calc")).unwrap();
/// assert!(telemetry.is_none(), "no endpoint: nothing exported");
/// # drop(server);
/// # }
/// ```
pub fn instrument_from_env(server: McpServer) -> Result<(McpServer, Option<Telemetry>), OtelError> {
    let remote_parent = remote_parent(std::env::var(REMOTE_PARENT_VAR).ok().as_deref())?;
    let Some(telemetry) = init_from_env(server.name())? else {
        return Ok((server, None));
    };
    let server = server
        .outer_layer(Tracing::new().remote_parent(remote_parent))
        .on_session_end(record_session_duration);
    Ok((server, Some(telemetry)))
}

/// `MCP_OTEL_REMOTE_PARENT`'s value, read.
fn remote_parent(value: Option<&str>) -> Result<bool, OtelError> {
    match value.map(str::trim) {
        None | Some("" | "false" | "0") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(_) => Err(OtelError::Setting(format!(
            "{REMOTE_PARENT_VAR}: expected true or false"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::remote_parent;

    #[test]
    fn the_trust_setting_is_true_false_or_refused() {
        assert!(!remote_parent(None).unwrap());
        assert!(!remote_parent(Some("0")).unwrap());
        assert!(remote_parent(Some("true")).unwrap());
        assert!(remote_parent(Some(" 1 ")).unwrap());
        assert!(remote_parent(Some("yes")).is_err());
    }
}
