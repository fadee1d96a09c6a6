//! Opening the conversation on a peer: `initialize` (2025-11-25), `server/discover`
//! (2026-07-28) with a retry on `-32022` under a revision from `supported`, and the `Auto` probe
//! that falls back to `initialize` when the server does not speak 2026-07-28.

use super::era::EraChoice;
use super::error::ClientError;
use super::options::CallOptions;
use super::peer::{Mode, Peer};
use super::requests::{self, Empty, Initialize};
use super::server_details::ServerDetails;
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::{DISCOVER, INITIALIZE, INITIALIZED};
use crate::protocol::{Era, Implementation, ServerCapabilities, meta, version};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Duration;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitializeAnswer {
    protocol_version: String,
    #[serde(default)]
    capabilities: ServerCapabilities,
    server_info: Option<Implementation>,
    instructions: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DiscoverAnswer {
    #[serde(default)]
    supported_versions: Vec<String>,
    #[serde(default)]
    capabilities: ServerCapabilities,
    instructions: Option<String>,
    /// Lenient: some servers put it in the body.
    server_info: Option<Implementation>,
    #[serde(rename = "_meta", default)]
    meta: Map<String, Value>,
}

/// Why the conversation could not be opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// The connection closed while the `Auto` probe waited: a server that exits on any message
    /// before `initialize` (over stdio, the client then starts it again on 2025-11-25).
    ClosedOnProbe(ClientError),
    /// Any other failure.
    Failed(ClientError),
}

impl From<OpenError> for ClientError {
    fn from(error: OpenError) -> Self {
        match error {
            OpenError::ClosedOnProbe(error) | OpenError::Failed(error) => error,
        }
    }
}

/// Opens the conversation in the chosen era. `Auto` probes with `server/discover` in place, for
/// at most `probe_timeout` as the transport measures it (from the server's first output on
/// stdio), and falls back to `initialize` on the same connection.
pub(crate) async fn open(
    peer: &Arc<Peer>,
    choice: EraChoice,
    probe_timeout: Duration,
) -> Result<ServerDetails, OpenError> {
    match choice {
        EraChoice::Legacy => initialize(peer).await.map_err(OpenError::Failed),
        EraChoice::Modern => discover(peer, false).await.map_err(OpenError::Failed),
        EraChoice::Auto => {
            let probed = tokio::select! {
                probed = discover(peer, true) => Some(probed),
                () = peer.transport().probe_clock(probe_timeout) => None,
            };
            match probed {
                Some(Ok(details)) => Ok(details),
                Some(Err(ClientError::Closed(detail))) => {
                    Err(OpenError::ClosedOnProbe(ClientError::Closed(detail)))
                }
                Some(Err(error)) if !falls_back(&error) => Err(OpenError::Failed(error)),
                // A refusal, or no answer in time: a 2025-11-25 server.
                Some(Err(_)) | None => {
                    peer.transport().forget_session();
                    initialize(peer).await.map_err(OpenError::Failed)
                }
            }
        }
    }
}

/// Whether a failed `server/discover` means "this server speaks only 2025-11-25": any JSON-RPC
/// error but the 2026-07-28 rejections (`-32020`, `-32021`, and a `-32022` listing no revision
/// this client speaks), a `-32022` listing only session revisions, an HTTP 4xx without one
/// (the SDKs' `400` to a request outside a session, a `404`), except 401 and 403 (auth settles
/// first, era second), and no answer within the call's timeout. 5xx and transport failures are
/// failures, not evidence.
fn falls_back(error: &ClientError) -> bool {
    match error {
        ClientError::Rpc(e) => !matches!(
            e.code,
            code::HEADER_MISMATCH
                | code::MISSING_REQUIRED_CLIENT_CAPABILITY
                | code::UNSUPPORTED_PROTOCOL_VERSION
        ),
        ClientError::Negotiation(_) => true,
        ClientError::Http { status, .. } => {
            (400..500).contains(status) && !matches!(status, 401 | 403)
        }
        ClientError::Protocol(_) | ClientError::Timeout(_) => true,
        _ => false,
    }
}

/// The 2025-11-25 handshake: `initialize`, then `notifications/initialized`.
pub(crate) async fn initialize(peer: &Arc<Peer>) -> Result<ServerDetails, ClientError> {
    peer.set_mode(Mode {
        era: Era::Legacy,
        version: None,
    });
    let mut capabilities = peer.handlers.capabilities();
    if capabilities.roots.is_some() {
        // 2025-11-25: the client announces root changes (`Client::notify_roots_changed`).
        capabilities.roots = Some(json!({"listChanged": true}));
    }
    let params = requests::fields(&Initialize {
        protocol_version: version::LATEST_LEGACY,
        capabilities,
        client_info: &peer.settings.info,
    })?;
    let raw = peer
        .request(INITIALIZE, params, None, &CallOptions::new())
        .await?;
    let answer: InitializeAnswer = serde_json::from_str(raw.get())
        .map_err(|e| ClientError::Protocol(format!("initialize result: {e}")))?;
    if !version::LEGACY_VERSIONS.contains(&answer.protocol_version.as_str()) {
        return Err(ClientError::Negotiation(format!(
            "the server offers {}, which this client does not speak",
            answer.protocol_version
        )));
    }
    peer.set_mode(Mode {
        era: Era::Legacy,
        version: Some(answer.protocol_version.clone()),
    });
    peer.notify(INITIALIZED, &Empty {}).await?;
    peer.transport().session_opened().await;
    Ok(ServerDetails {
        supported_versions: vec![answer.protocol_version.clone()],
        protocol_version: answer.protocol_version,
        capabilities: answer.capabilities,
        info: answer.server_info,
        instructions: answer.instructions,
    })
}

/// `server/discover` under 2026-07-28; on `-32022` it retries (at most twice) with a modern
/// revision from `data.supported`, even the one just sent (some servers reject the first request
/// whatever it says).
///
/// With `strict` (the `Auto` probe) the result must list a revision this client speaks: some
/// legacy servers answer any unknown method with `{}`.
pub(crate) async fn discover(peer: &Arc<Peer>, strict: bool) -> Result<ServerDetails, ClientError> {
    let mut version = version::MODERN.to_owned();
    let mut attempts = 0;
    loop {
        attempts += 1;
        peer.set_mode(Mode {
            era: Era::Modern,
            version: Some(version.clone()),
        });
        match peer
            .request(DISCOVER, Map::new(), None, &CallOptions::new())
            .await
        {
            Ok(raw) => {
                let details = discovered(&version, raw.get())?;
                let speaks = details
                    .supported_versions
                    .iter()
                    .any(|v| version::MODERN_VERSIONS.contains(&v.as_str()));
                if strict && !speaks {
                    return Err(ClientError::Protocol(format!(
                        "server/discover lists {:?}, no revision this client speaks",
                        details.supported_versions
                    )));
                }
                return Ok(details);
            }
            Err(ClientError::Rpc(error))
                if error.code == code::UNSUPPORTED_PROTOCOL_VERSION && attempts < 3 =>
            {
                let supported: Vec<String> = error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(|s| serde_json::from_value(s.clone()).ok())
                    .unwrap_or_default();
                let speaks = |known: &[&str]| {
                    supported
                        .iter()
                        .find(|v| known.contains(&v.as_str()))
                        .cloned()
                };
                match (
                    speaks(version::MODERN_VERSIONS),
                    speaks(version::LEGACY_VERSIONS),
                ) {
                    (Some(mutual), _) => version = mutual,
                    // Only session revisions in common: `Auto` goes on with `initialize`.
                    (None, Some(_)) => {
                        return Err(ClientError::Negotiation(format!(
                            "the server supports {supported:?}: no stateless revision this client speaks"
                        )));
                    }
                    // Nothing in common (newer revisions only): not a reason to try `initialize`.
                    (None, None) => return Err(ClientError::Rpc(error)),
                }
            }
            Err(error) => return Err(error),
        }
    }
}

fn discovered(version: &str, raw: &str) -> Result<ServerDetails, ClientError> {
    let answer: DiscoverAnswer = serde_json::from_str(raw)
        .map_err(|e| ClientError::Protocol(format!("server/discover result: {e}")))?;
    let info = answer.server_info.or_else(|| {
        answer
            .meta
            .get(meta::SERVER_INFO)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    });
    Ok(ServerDetails {
        protocol_version: version.to_owned(),
        supported_versions: answer.supported_versions,
        capabilities: answer.capabilities,
        info,
        instructions: answer.instructions,
    })
}
