//! The `WWW-Authenticate: Bearer …` challenges (RFC 6750, RFC 9728) and their responses: those
//! of `mcpwire::auth` in front of the endpoint (no or a bad token, the endpoint's scopes), and
//! the `403` of a request the dispatcher's scope decision refused.

use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{CONTENT_TYPE, HeaderValue, WWW_AUTHENTICATE};
use serde_json::json;

/// What went wrong, as the challenge tells the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// No bearer token: `401` without an error code.
    #[cfg_attr(not(feature = "auth"), allow(dead_code))]
    Missing,
    /// A token that does not verify: `401 invalid_token`.
    #[cfg_attr(not(feature = "auth"), allow(dead_code))]
    InvalidToken,
    /// A valid token without the scopes the request needs: `403 insufficient_scope`.
    InsufficientScope,
}

/// The challenge response: status, `WWW-Authenticate`, and the OAuth error object as the body.
#[cfg_attr(not(feature = "auth"), allow(dead_code))]
pub(crate) fn respond(problem: Problem, metadata_url: &str, scopes: &[String]) -> Response {
    let body = json!({
        "error": problem.error().unwrap_or("unauthorized"),
        "error_description": problem.description(),
    });
    with_challenge(problem, Some(metadata_url), scopes, body.to_string())
}

/// `403 insufficient_scope` for a request the scope decision refused, naming every scope it
/// needs, with `body` (its JSON-RPC error) as the body.
pub(crate) fn insufficient_scope(
    metadata_url: Option<&str>,
    scopes: &[String],
    body: String,
) -> Response {
    with_challenge(Problem::InsufficientScope, metadata_url, scopes, body)
}

impl Problem {
    fn error(self) -> Option<&'static str> {
        match self {
            Problem::Missing => None,
            Problem::InvalidToken => Some("invalid_token"),
            Problem::InsufficientScope => Some("insufficient_scope"),
        }
    }

    fn description(self) -> &'static str {
        match self {
            Problem::Missing => "a bearer token is required",
            Problem::InvalidToken => "the access token is not valid for this server",
            Problem::InsufficientScope => "the access token lacks a scope this request needs",
        }
    }
}

fn with_challenge(
    problem: Problem,
    metadata_url: Option<&str>,
    scopes: &[String],
    body: String,
) -> Response {
    let mut params = Vec::new();
    if let Some(url) = metadata_url {
        params.push(format!("resource_metadata=\"{}\"", quoted(url)));
    }
    if !scopes.is_empty() {
        params.push(format!("scope=\"{}\"", quoted(&scopes.join(" "))));
    }
    let status = match problem {
        Problem::InsufficientScope => StatusCode::FORBIDDEN,
        Problem::Missing | Problem::InvalidToken => StatusCode::UNAUTHORIZED,
    };
    if let Some(error) = problem.error() {
        params.insert(0, format!("error=\"{error}\""));
        params.push(format!("error_description=\"{}\"", problem.description()));
    }
    let challenge = format!("Bearer {}", params.join(", "));
    let json = [(CONTENT_TYPE, HeaderValue::from_static("application/json"))];
    let mut response = (status, json, body).into_response();
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// `value` with `"` and `\` escaped, for a quoted-string.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
