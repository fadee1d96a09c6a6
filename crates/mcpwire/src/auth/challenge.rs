//! The `WWW-Authenticate: Bearer …` challenges (RFC 6750, RFC 9728) and their responses.

use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{CONTENT_TYPE, HeaderValue, WWW_AUTHENTICATE};
use serde_json::json;

/// What went wrong, as the challenge tells the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Problem {
    /// No bearer token: `401` without an error code.
    Missing,
    /// A token that does not verify: `401 invalid_token`.
    InvalidToken,
    /// A valid token without the scopes the request needs: `403 insufficient_scope`.
    InsufficientScope,
}

/// The challenge response: status, `WWW-Authenticate`, and the OAuth error object as the body.
pub(super) fn respond(problem: Problem, metadata_url: &str, scopes: &[String]) -> Response {
    let mut params = vec![format!("resource_metadata=\"{}\"", quoted(metadata_url))];
    if !scopes.is_empty() {
        params.push(format!("scope=\"{}\"", quoted(&scopes.join(" "))));
    }
    let (status, error, description) = match problem {
        Problem::Missing => (StatusCode::UNAUTHORIZED, None, "a bearer token is required"),
        Problem::InvalidToken => (
            StatusCode::UNAUTHORIZED,
            Some("invalid_token"),
            "the access token is not valid for this server",
        ),
        Problem::InsufficientScope => (
            StatusCode::FORBIDDEN,
            Some("insufficient_scope"),
            "the access token lacks a scope this request needs",
        ),
    };
    if let Some(error) = error {
        params.insert(0, format!("error=\"{error}\""));
        params.push(format!("error_description=\"{description}\""));
    }
    let challenge = format!("Bearer {}", params.join(", "));
    let body = json!({
        "error": error.unwrap_or("unauthorized"),
        "error_description": description,
    });
    let json = [(CONTENT_TYPE, HeaderValue::from_static("application/json"))];
    let mut response = (status, json, body.to_string()).into_response();
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// `value` with `"` and `\` escaped, for a quoted-string.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
