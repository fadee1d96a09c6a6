//! Bounded reads of what the resource and authorization servers send.

use super::error::AuthError;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde::de::DeserializeOwned;

/// The most bytes read of any metadata document or endpoint response.
pub(crate) const MAX_BODY: usize = 64 * 1024;
/// The longest a metadata or endpoint request may take.
pub(crate) const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The body of `response`, at most [`MAX_BODY`] bytes (an error beyond).
pub(crate) async fn body(mut response: reqwest::Response, url: &str) -> Result<Vec<u8>, AuthError> {
    let mut body = Vec::new();
    loop {
        let chunk = response.chunk().await.map_err(|e| fetch_error(url, e))?;
        let Some(chunk) = chunk else {
            return Ok(body);
        };
        if body.len() + chunk.len() > MAX_BODY {
            return Err(AuthError::Fetch {
                url: url.to_owned(),
                detail: format!("the body is larger than {MAX_BODY} bytes"),
            });
        }
        body.extend_from_slice(&chunk);
    }
}

pub(crate) fn fetch_error(url: &str, error: reqwest::Error) -> AuthError {
    AuthError::Fetch {
        url: url.to_owned(),
        detail: crate::wire::http_error::described(&error.without_url()),
    }
}

/// GETs a JSON document: `Ok(None)` when the server has none there (any 4xx/5xx status).
pub(crate) async fn get_json<T: DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
    what: &'static str,
) -> Result<Option<T>, AuthError> {
    let response = http
        .get(url)
        .header(ACCEPT, "application/json")
        .timeout(TIMEOUT)
        .send()
        .await
        .map_err(|e| fetch_error(url, e))?;
    if !response.status().is_success() {
        return Ok(None);
    }
    let bytes = body(response, url).await?;
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| AuthError::Malformed {
            what,
            detail: e.to_string(),
        })
}

/// POSTs a form (or JSON) and returns the status and the bounded body.
pub(crate) async fn post(
    request: reqwest::RequestBuilder,
    url: &str,
) -> Result<(u16, Vec<u8>), AuthError> {
    let response = request
        .header(ACCEPT, "application/json")
        .timeout(TIMEOUT)
        .send()
        .await
        .map_err(|e| fetch_error(url, e))?;
    let status = response.status().as_u16();
    Ok((status, body(response, url).await?))
}

/// A form body (`application/x-www-form-urlencoded`) from name/value pairs.
pub(crate) fn form(
    request: reqwest::RequestBuilder,
    pairs: &[(&str, &str)],
) -> reqwest::RequestBuilder {
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        serializer.append_pair(name, value);
    }
    request
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serializer.finish())
}

/// An OAuth error body (`{"error": …, "error_description": …}`, RFC 6749 §5.2) as
/// [`AuthError::Refused`]; the HTTP status when the body is not one.
pub(crate) fn refused(endpoint: &'static str, status: u16, body: &[u8]) -> AuthError {
    #[derive(serde::Deserialize)]
    struct OAuthError {
        error: String,
        error_description: Option<String>,
    }
    match serde_json::from_slice::<OAuthError>(body) {
        Ok(e) => AuthError::Refused {
            endpoint,
            error: e.error,
            description: e.error_description.map(|d| d.chars().take(200).collect()),
        },
        Err(_) => AuthError::Refused {
            endpoint,
            error: format!("HTTP {status}"),
            description: None,
        },
    }
}
