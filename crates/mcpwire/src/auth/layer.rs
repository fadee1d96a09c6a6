//! `Authorization`: the verifier and the metadata in front of the MCP endpoint.

use super::challenge::{Problem, respond};
use super::{ProtectedResource, TokenError, TokenVerifier};
use crate::context::{Grant, Principal};
use crate::server::core::ServerCore;
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

    /// Verifies the request's bearer token and the scopes its operation needs: the response to
    /// send instead, or the request with its [`Principal`], [`Grant`] and
    /// [`VerifiedToken`](super::VerifiedToken) in its extensions.
    async fn admit(&self, request: Request, core: &ServerCore) -> Result<Request, Response> {
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
        let (mut request, operation) = operation_scopes(request, core).await?;
        // Every scope the operation needs, in one challenge (SEP-2350).
        let mut needed: Vec<String> = self.required_scopes.clone();
        for scope in operation {
            if !needed.iter().any(|n| n == scope) {
                needed.push((*scope).to_owned());
            }
        }
        if !needed.iter().all(|scope| verified.has_scope(scope)) {
            return Err(respond(Problem::InsufficientScope, &url, &needed));
        }
        let mut grant = Grant::new(verified.scopes.clone()).with_claims(verified.claims.clone());
        grant.metadata_url = Some(Arc::from(url.as_str()));
        let extensions = request.extensions_mut();
        extensions.insert(Principal(verified.subject.clone()));
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

/// The scopes the request's operation needs beyond the endpoint's: those of the tool a
/// `tools/call` names, the prompt a `prompts/get` names, the resource a `resources/read` reads.
/// On 2026-07-28 the validated `Mcp-Method` and `Mcp-Name` headers say which (the endpoint
/// refuses a body that disagrees with them); otherwise, when something needs scopes, the body
/// is read (within the message limit) and put back.
async fn operation_scopes(
    request: Request,
    core: &ServerCore,
) -> Result<(Request, &'static [&'static str]), Response> {
    let any_scoped = {
        let snapshot = core.snapshot();
        snapshot.tools.any_scoped()
            || snapshot.prompts.any_scoped()
            || snapshot.resources.any_scoped()
    };
    if !any_scoped {
        return Ok((request, &[]));
    }
    let (method, name) = {
        let header = |name: &str| {
            request
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        (header("mcp-method"), header("mcp-name"))
    };
    if let Some(method) = method {
        let scopes = scopes_of(core, &method, name.as_deref());
        return Ok((request, scopes));
    }
    let (parts, body) = request.into_parts();
    let limit = core.limits.max_message_bytes;
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return Err(StatusCode::PAYLOAD_TOO_LARGE.into_response());
    };
    #[derive(serde::Deserialize)]
    struct Peek {
        method: Option<String>,
        params: Option<PeekParams>,
    }
    #[derive(serde::Deserialize)]
    struct PeekParams {
        name: Option<String>,
        uri: Option<String>,
    }
    let scopes = match serde_json::from_slice::<Peek>(&bytes) {
        Ok(Peek {
            method: Some(method),
            params: Some(params),
        }) => scopes_of(core, &method, params.name.or(params.uri).as_deref()),
        _ => &[],
    };
    Ok((
        Request::from_parts(parts, axum::body::Body::from(bytes)),
        scopes,
    ))
}

/// The scopes `method` on `target` (a tool or prompt name, a resource URI) needs.
fn scopes_of(core: &ServerCore, method: &str, target: Option<&str>) -> &'static [&'static str] {
    let Some(target) = target else {
        return &[];
    };
    let snapshot = core.snapshot();
    match method {
        "tools/call" => snapshot.tools.scopes(target),
        "prompts/get" => snapshot.prompts.scopes(target),
        "resources/read" => snapshot.resources.scopes(target),
        _ => &[],
    }
}

/// The middleware's state: the authorization, and the server whose tools say their scopes.
#[derive(Clone)]
struct Guarded {
    authorization: Arc<Authorization>,
    core: Arc<ServerCore>,
}

async fn authenticate(State(guarded): State<Guarded>, request: Request, next: Next) -> Response {
    match guarded.authorization.admit(request, &guarded.core).await {
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
    let guarded = Guarded {
        authorization,
        core,
    };
    router
        .layer(middleware::from_fn_with_state(guarded, authenticate))
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
