//! The client's answer to a server request that no request of this replica waits for, on a
//! session shared by a fleet: passed on over the bus to the replica that asked, but only when
//! its id has the form of another replica's request, and only up to
//! [`HttpServer::max_relayed_response_bytes`](super::HttpServer::max_relayed_response_bytes).
//! A larger answer is refused (`413`), and the replica waiting for it gets a small JSON-RPC
//! error in its place, so that its request ends at once rather than at its timeout.

use super::endpoint::Endpoint;
use super::fleet::{DEFAULT_MAX_RELAYED_BYTES, Message};
use super::reply;
use crate::context::issued_elsewhere;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::{ResponseIn, code};
use axum::response::Response;
use http::StatusCode;

/// Passes `response`, unclaimed here, to the fleet when another replica may be waiting for it.
pub(super) async fn relay(endpoint: &Endpoint, session: &str, response: ResponseIn) -> Response {
    if !issued_elsewhere(&response.id) {
        tracing::debug!(id = %response.id, "response to an unknown server request; ignored");
        return reply::empty(StatusCode::ACCEPTED);
    }
    let limit = endpoint
        .fleet
        .max_relayed_bytes
        .unwrap_or(DEFAULT_MAX_RELAYED_BYTES);
    let line = response_line(&response);
    let session = session.to_owned();
    if line.len() <= limit {
        endpoint
            .fleet
            .send(Message::ClientResponse { session, line })
            .await;
        return reply::empty(StatusCode::ACCEPTED);
    }
    tracing::warn!(
        id = %response.id,
        bytes = line.len(),
        limit,
        "a client's answer is too large to pass to the replica waiting for it; refused"
    );
    let error = ErrorObject::new(
        code::INVALID_REQUEST,
        format!(
            "Invalid Request: the answer ({} bytes) is over the {limit} bytes a fleet relays",
            line.len()
        ),
    );
    let refused = ResponseIn {
        id: response.id,
        outcome: Err(error.clone()),
    };
    let line = response_line(&refused);
    endpoint
        .fleet
        .send(Message::ClientResponse { session, line })
        .await;
    reply::error(StatusCode::PAYLOAD_TOO_LARGE, None, &error)
}

/// The client's response as a JSON-RPC line again (for the replica waiting for it).
fn response_line(response: &ResponseIn) -> String {
    let line = match &response.outcome {
        Ok(result) => serde_json::json!({"jsonrpc": "2.0", "id": response.id, "result": result}),
        Err(error) => serde_json::json!({"jsonrpc": "2.0", "id": response.id, "error": error}),
    };
    line.to_string()
}
