//! Finding the authorization server: the protected-resource metadata (RFC 9728) and the
//! authorization-server metadata (RFC 8414, OpenID Connect Discovery), each checked against
//! what it was fetched for.

use super::error::AuthError;
use super::fetch::get_json;
use reqwest::Url;
use serde::Deserialize;

/// A protected resource's metadata (RFC 9728 §2), the fields the client uses.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::ResourceMetadata;
///
/// let metadata: ResourceMetadata = serde_json::from_str(
///     r#"{"resource": "https://mcp.example.com", "authorization_servers": ["https://auth.example.com"]}"#,
/// ).unwrap();
/// assert_eq!(metadata.resource.as_deref(), Some("https://mcp.example.com"));
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResourceMetadata {
    /// The resource identifier, kept exactly as published (it is sent back byte for byte).
    pub resource: Option<String>,
    /// The issuers that grant tokens for it.
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    /// The scopes it knows.
    pub scopes_supported: Option<Vec<String>>,
}

/// An authorization server's metadata (RFC 8414 §2), the fields the client uses.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::ServerMetadata;
///
/// let metadata: ServerMetadata = serde_json::from_str(r#"{
///     "issuer": "https://auth.example.com",
///     "authorization_endpoint": "https://auth.example.com/authorize",
///     "token_endpoint": "https://auth.example.com/token",
///     "code_challenge_methods_supported": ["S256"]
/// }"#).unwrap();
/// assert!(metadata.supports_pkce_s256());
/// assert!(!metadata.authorization_response_iss_parameter_supported);
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerMetadata {
    /// The issuer identifier.
    pub issuer: String,
    /// Where the user is sent to authorize.
    pub authorization_endpoint: Option<String>,
    /// Where codes, refresh tokens and client credentials are exchanged for tokens.
    pub token_endpoint: String,
    /// Dynamic client registration (RFC 7591).
    pub registration_endpoint: Option<String>,
    /// The scopes it knows.
    pub scopes_supported: Option<Vec<String>>,
    /// How clients authenticate at the token endpoint (absent: `client_secret_basic`).
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// The PKCE methods.
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// RFC 9207: the authorization response carries `iss`.
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: bool,
    /// Client ID metadata documents: a URL may be the client id.
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
}

impl ServerMetadata {
    /// Whether PKCE with S256 is advertised (the client refuses to go on otherwise).
    ///
    /// # Examples
    ///
    /// ```
    /// let metadata = mcpwire::client::auth::ServerMetadata::default();
    /// assert!(!metadata.supports_pkce_s256());
    /// ```
    pub fn supports_pkce_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .iter()
            .flatten()
            .any(|method| method == "S256")
    }
}

/// Where to look for a server's protected-resource metadata, in order: the challenge's
/// `resource_metadata` alone when given (it must be on the server's own origin), else the
/// path-based well-known URL (when the server URL has a path), then the root one.
///
/// A `resource_metadata` URL on another origin is refused (a server must not make its
/// clients fetch from elsewhere).
///
/// # Errors
///
/// When the server URL (or the challenge's URL) is not an absolute URL, or the challenge's URL
/// is on another origin than the server.
pub(crate) fn resource_metadata_urls(
    server_url: &str,
    from_challenge: Option<&str>,
) -> Result<Vec<String>, AuthError> {
    let (origin, path) = origin_and_path(server_url, "server URL")?;
    if let Some(url) = from_challenge {
        let (its_origin, _) = origin_and_path(url, "resource_metadata URL")?;
        if its_origin != origin {
            return Err(AuthError::ForeignResourceMetadata {
                url: url.to_owned(),
                server: server_url.to_owned(),
            });
        }
        return Ok(vec![url.to_owned()]);
    }
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    Ok(urls)
}

/// Where to look for an issuer's metadata, in the order of the MCP specification: for an
/// issuer with a path, RFC 8414's path-inserted URL, OpenID Connect's path-inserted one, then
/// OpenID Connect's path-appended one; for a pathless issuer, RFC 8414's then OpenID
/// Connect's.
///
/// # Errors
///
/// When the issuer is not an absolute URL.
pub(crate) fn server_metadata_urls(issuer: &str) -> Result<Vec<String>, AuthError> {
    let (origin, path) = origin_and_path(issuer, "issuer")?;
    Ok(if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    })
}

/// Whether the client may send a user or a secret to `url`: `https`, or `http` on a loopback
/// address (`127.0.0.0/8`, `::1`, `localhost`). Anything else (plain `http` elsewhere,
/// `javascript:`, `file:`, …) is refused, before a browser is shown it.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::secure_endpoint;
///
/// assert!(secure_endpoint("https://auth.example.com/authorize"));
/// assert!(secure_endpoint("http://127.0.0.1:8080/authorize"));
/// assert!(secure_endpoint("http://[::1]/token"));
/// assert!(secure_endpoint("http://localhost:3000/token"));
/// assert!(!secure_endpoint("http://auth.example.com/authorize"));
/// assert!(!secure_endpoint("javascript:alert(1)"));
/// assert!(!secure_endpoint("http://127.0.0.1.evil.example/authorize"));
/// ```
pub fn secure_endpoint(url: &str) -> bool {
    let Ok(parsed) = Url::parse(url) else {
        return false;
    };
    match parsed.scheme() {
        "https" => parsed.host().is_some(),
        "http" => is_loopback(&parsed),
        _ => false,
    }
}

/// Whether `url`'s host is a loopback address (or `localhost`).
pub(crate) fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}

impl ServerMetadata {
    /// Checks that every endpoint the client would send a user or a secret to is
    /// [`secure_endpoint`].
    pub(crate) fn check_endpoints(&self) -> Result<(), AuthError> {
        let endpoints = [
            (
                "authorization_endpoint",
                self.authorization_endpoint.as_deref(),
            ),
            ("token_endpoint", Some(self.token_endpoint.as_str())),
            (
                "registration_endpoint",
                self.registration_endpoint.as_deref(),
            ),
        ];
        for (endpoint, url) in endpoints {
            if let Some(url) = url
                && !secure_endpoint(url)
            {
                return Err(AuthError::InsecureEndpoint {
                    endpoint,
                    url: url.to_owned(),
                });
            }
        }
        Ok(())
    }

    /// The 2025-03-26 fallback for a server with no metadata at all: `/authorize`, `/token`
    /// and `/register` under the issuer, PKCE S256.
    pub(crate) fn fallback(issuer: &str) -> ServerMetadata {
        let base = issuer.trim_end_matches('/');
        ServerMetadata {
            issuer: issuer.to_owned(),
            authorization_endpoint: Some(format!("{base}/authorize")),
            token_endpoint: format!("{base}/token"),
            registration_endpoint: Some(format!("{base}/register")),
            code_challenge_methods_supported: Some(vec!["S256".into()]),
            ..ServerMetadata::default()
        }
    }
}

/// The origin of `url` (`scheme://host[:port]`).
pub(crate) fn origin(url: &str) -> Result<String, AuthError> {
    origin_and_path(url, "server URL").map(|(origin, _)| origin)
}

/// The origin (`scheme://host[:port]`) and the path without its trailing `/` (`""` for none).
fn origin_and_path(url: &str, what: &'static str) -> Result<(String, String), AuthError> {
    let parsed = parse(url, what)?;
    let path = parsed.path().trim_end_matches('/').to_owned();
    Ok((parsed.origin().ascii_serialization(), path))
}

fn parse(url: &str, what: &'static str) -> Result<Url, AuthError> {
    let parsed = Url::parse(url).map_err(|e| AuthError::Malformed {
        what,
        detail: format!("{url}: {e}"),
    })?;
    if parsed.cannot_be_a_base() || parsed.host_str().is_none() {
        return Err(AuthError::Malformed {
            what,
            detail: format!("{url} is not an http(s) URL"),
        });
    }
    Ok(parsed)
}

/// Whether the metadata's `resource` covers the server's URL: same scheme, host and port, and
/// a path that is the server's or one of its parents (segment by segment). The string itself is
/// never rewritten; this only compares.
pub(crate) fn resource_covers(resource: &str, server_url: &str) -> bool {
    let (Ok(resource), Ok(server)) = (parse(resource, "resource"), parse(server_url, "server URL"))
    else {
        return false;
    };
    if resource.fragment().is_some()
        || resource.scheme() != server.scheme()
        || resource.host_str() != server.host_str()
        || resource.port_or_known_default() != server.port_or_known_default()
    {
        return false;
    }
    let parent = resource.path().trim_end_matches('/');
    let path = server.path().trim_end_matches('/');
    path == parent
        || path
            .strip_prefix(parent)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The protected-resource metadata of `server_url`, its `resource` checked.
pub(crate) async fn resource_metadata(
    http: &reqwest::Client,
    server_url: &str,
    from_challenge: Option<&str>,
) -> Result<ResourceMetadata, AuthError> {
    for url in resource_metadata_urls(server_url, from_challenge)? {
        let Some(metadata) =
            get_json::<ResourceMetadata>(http, &url, "protected-resource metadata").await?
        else {
            continue;
        };
        let Some(resource) = &metadata.resource else {
            return Err(AuthError::NoResource(url));
        };
        if !resource_covers(resource, server_url) {
            return Err(AuthError::ResourceMismatch {
                published: resource.clone(),
                server: server_url.to_owned(),
            });
        }
        return Ok(metadata);
    }
    Err(AuthError::NoResourceMetadata(server_url.to_owned()))
}

/// The metadata of `issuer`, its `issuer` equal to it (a plain string comparison). An issuer
/// that is not [`secure_endpoint`] (plain `http` off loopback) is refused before anything is
/// fetched: its metadata, read in the clear, would say where secrets and users go.
pub(crate) async fn server_metadata(
    http: &reqwest::Client,
    issuer: &str,
) -> Result<ServerMetadata, AuthError> {
    if !secure_endpoint(issuer) {
        return Err(AuthError::InsecureEndpoint {
            endpoint: "issuer",
            url: issuer.to_owned(),
        });
    }
    for url in server_metadata_urls(issuer)? {
        let Some(metadata) =
            get_json::<ServerMetadata>(http, &url, "authorization-server metadata").await?
        else {
            continue;
        };
        if metadata.issuer != issuer {
            return Err(AuthError::IssuerMismatch {
                url,
                expected: issuer.to_owned(),
                found: metadata.issuer,
            });
        }
        if !metadata.supports_pkce_s256() {
            return Err(AuthError::PkceUnsupported(issuer.to_owned()));
        }
        return Ok(metadata);
    }
    Err(AuthError::NoServerMetadata(issuer.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_url_is_the_only_place_looked_at() {
        let urls = resource_metadata_urls("http://h/mcp", Some("http://h/custom/x.json")).unwrap();
        assert_eq!(urls, ["http://h/custom/x.json"]);
    }

    #[test]
    fn a_pathless_server_has_only_the_root_location() {
        assert_eq!(
            resource_metadata_urls("http://h:1/", None).unwrap(),
            ["http://h:1/.well-known/oauth-protected-resource"]
        );
        assert!(resource_metadata_urls("not a url", None).is_err());
        assert!(resource_metadata_urls("mailto:a@b", None).is_err());
    }

    #[test]
    fn an_issuer_with_a_trailing_slash_is_pathless() {
        assert_eq!(
            server_metadata_urls("http://h/").unwrap(),
            [
                "http://h/.well-known/oauth-authorization-server",
                "http://h/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn the_resource_check() {
        let server = "http://localhost:3000/mcp";
        assert!(resource_covers("http://localhost:3000/", server));
        assert!(resource_covers("http://localhost:3000/mcp/", server));
        assert!(!resource_covers("http://localhost:3001/mcp", server));
        assert!(!resource_covers("https://localhost:3000/mcp", server));
        assert!(!resource_covers("http://localhost:3000/mcp/deeper", server));
        assert!(!resource_covers("http://localhost:3000/mcp#f", server));
        assert!(!resource_covers("garbage", server));
        assert!(resource_covers(
            "https://a.example",
            "https://a.example:443/x"
        ));
    }

    #[test]
    fn the_documented_metadata_locations() {
        assert_eq!(
            resource_metadata_urls("http://localhost:3000/mcp", None).unwrap(),
            [
                "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
                "http://localhost:3000/.well-known/oauth-protected-resource",
            ]
        );

        let refused =
            resource_metadata_urls("http://localhost:3000/mcp", Some("http://10.0.0.1/prm"));
        assert!(matches!(
            refused,
            Err(AuthError::ForeignResourceMetadata { .. })
        ));
    }

    #[test]
    fn the_documented_issuer_metadata_locations() {
        assert_eq!(
            server_metadata_urls("https://auth.example.com/tenant1").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            server_metadata_urls("https://auth.example.com")
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn the_documented_resource_coverage() {
        assert!(resource_covers(
            "http://localhost:3000/mcp",
            "http://localhost:3000/mcp"
        ));
        assert!(resource_covers(
            "http://localhost:3000",
            "http://localhost:3000/mcp"
        ));
        assert!(!resource_covers(
            "https://evil.example.com/mcp",
            "http://localhost:3000/mcp"
        ));
        assert!(!resource_covers(
            "http://localhost:3000/mc",
            "http://localhost:3000/mcp"
        ));
    }
}
