//! The guard in front of the MCP endpoint: `Authorization` (the verifier, the metadata, the
//! scopes every request needs) and the axum middleware that turns a request away before it
//! reaches the dispatcher.

use super::{ProtectedResource, TokenError, TokenVerifier};
use crate::context::{Grant, Issuer, Principal};
use crate::server::core::ServerCore;
use crate::transport::http::challenge::{Problem, respond};
use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use http::{HeaderName, StatusCode};
use std::sync::Arc;

/// How the HTTP endpoint is protected: who verifies tokens, what the metadata says, and the
/// scopes every request needs.
///
/// Give it to [`HttpServer::authorization`](crate::transport::http::HttpServer::authorization).
///
/// ```
/// use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
///
/// let resource = ProtectedResource::new("https://books.example.com/mcp", "https://auth.example.com");
/// let verifier = JwtVerifier::new(
///     "https://auth.example.com",
///     resource.resource(),
///     JwksSource::parse("jwks.json"),
/// );
/// let authorization = Authorization::new(verifier, resource).required_scopes(["mcp"]);
/// # drop(authorization);
/// ```
pub struct Authorization {
    verifier: Box<dyn TokenVerifier>,
    resource: ProtectedResource,
    required_scopes: Vec<String>,
}

impl Authorization {
    /// Tokens checked by `verifier`, `resource` published as this server's metadata.
    pub fn new(verifier: impl TokenVerifier, resource: ProtectedResource) -> Self {
        Self {
            verifier: Box::new(verifier),
            resource,
            required_scopes: Vec::new(),
        }
    }

    /// Scopes every request needs; a valid token without all of them gets `403
    /// insufficient_scope` naming all of them, and a `401` challenge names them as `scope`.
    ///
    /// ```
    /// # use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
    /// # let resource = ProtectedResource::new("https://h/mcp", "https://a");
    /// # let verifier = JwtVerifier::new("https://a", "https://h/mcp", JwksSource::parse("k.json"));
    /// let authorization = Authorization::new(verifier, resource).required_scopes(["mcp:read"]);
    /// # drop(authorization);
    /// ```
    pub fn required_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.required_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Verifies the request's bearer token and the scopes every request needs: the response to
    /// send instead, or the request with its [`Principal`], [`Issuer`], [`Grant`] and
    /// [`VerifiedToken`](super::VerifiedToken) in its extensions.
    ///
    /// The scopes of the tool, prompt or resource a request is for are not looked at here: the
    /// dispatcher decides them from the parsed request, right before it runs the handler, and
    /// the transport turns its refusal into the same `403` challenge.
    async fn admit(&self, mut request: Request) -> Result<Request, Response> {
        let url = self.resource.metadata_url();
        let challenge = |problem| respond(problem, &url, &self.required_scopes);
        let Some(token) = bearer(&request).map(str::to_owned) else {
            return Err(challenge(Problem::Missing));
        };
        let verified = match self.verifier.verify(&token).await {
            Ok(verified) => verified,
            Err(TokenError::Invalid(why)) => {
                tracing::info!(reason = %why, "refused a bearer token");
                return Err(challenge(Problem::InvalidToken));
            }
            Err(TokenError::Unavailable(why)) => {
                tracing::error!(reason = %why, "cannot verify bearer tokens");
                return Err(StatusCode::SERVICE_UNAVAILABLE.into_response());
            }
        };
        if !self
            .required_scopes
            .iter()
            .all(|scope| verified.has_scope(scope))
        {
            return Err(challenge(Problem::InsufficientScope));
        }
        let mut grant = Grant::new(verified.scopes.clone());
        grant.claims = Arc::clone(&verified.claims);
        grant.metadata_url = Some(Arc::from(url.as_str()));
        grant.endpoint_scopes = self.required_scopes.clone().into();
        let extensions = request.extensions_mut();
        extensions.insert(Principal(verified.subject.clone()));
        extensions.insert(Issuer(verified.issuer.clone()));
        extensions.insert(grant);
        extensions.insert(verified);
        Ok(request)
    }
}

/// The token of an `Authorization: Bearer …` header (the scheme in any case).
fn bearer(request: &Request) -> Option<&str> {
    let value = request.headers().get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

async fn authenticate(
    State(authorization): State<Arc<Authorization>>,
    request: Request,
    next: Next,
) -> Response {
    match authorization.admit(request).await {
        Ok(request) => next.run(request).await,
        Err(refusal) => refusal,
    }
}

/// `router` (the MCP endpoint) behind `authorization`, and the metadata routes beside it (open
/// to everyone, with CORS for browsers).
pub(crate) fn protect(
    router: Router,
    authorization: Arc<Authorization>,
    core: Arc<ServerCore>,
) -> Router {
    // `scopes_supported`: what the metadata names, what every request needs, and what the
    // tools need.
    let mut registered = Vec::new();
    {
        let snapshot = core.snapshot();
        snapshot.tools.collect_scopes(&mut registered);
        snapshot.prompts.collect_scopes(&mut registered);
        snapshot.resources.collect_scopes(&mut registered);
    }
    let resource = authorization.resource.clone().including_scopes(
        authorization
            .required_scopes
            .iter()
            .map(String::as_str)
            .chain(registered),
    );
    let metadata = resource.metadata().to_string();
    let serve = move || {
        let metadata = metadata.clone();
        async move {
            let json = [(CONTENT_TYPE, HeaderValue::from_static("application/json"))];
            (cors(), json, metadata).into_response()
        }
    };
    let preflight = || async { (StatusCode::NO_CONTENT, cors()).into_response() };
    let path_based = authorization.resource.metadata_path();
    let root = ProtectedResource::root_metadata_path();
    let mut metadata_routes =
        Router::new().route(&path_based, get(serve.clone()).options(preflight));
    if path_based != root {
        metadata_routes = metadata_routes.route(root, get(serve).options(preflight));
    }
    router
        .layer(middleware::from_fn_with_state(authorization, authenticate))
        .merge(metadata_routes)
}

/// Open CORS for the metadata: any origin may read it.
fn cors() -> [(HeaderName, HeaderValue); 3] {
    let header = |name, value| {
        (
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        )
    };
    [
        header("access-control-allow-origin", "*"),
        header("access-control-allow-methods", "GET, OPTIONS"),
        header("access-control-allow-headers", "*"),
    ]
}
