//! The gate: the tower layer in front of the endpoint's routes that checks each request's bearer
//! token and the scopes every request needs, and either answers the request itself (`401`,
//! `403`, `503`) or passes it on with what it decided as one request extension
//! ([`Admitted`]).
//!
//! A token the verifier keeps (and shares: [`TokenVerifier::verify_shared`]) is admitted with
//! the [`Admitted`] made for it the first time ([`Admissions`]): the request copies no string.

use super::admissions::Admissions;
use super::{Authorization, TokenError, VerifiedToken};
use crate::context::{Grant, Identity};
use crate::transport::http::caller::Admitted;
use crate::transport::http::challenge::{Problem, respond};
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::AUTHORIZATION;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tower_layer::Layer;
use tower_service::Service;

/// The guard as it runs: the authorization, what its challenges and grants name (made once),
/// and the admissions of the tokens its verifier shares.
pub(crate) struct Gate {
    authorization: Arc<Authorization>,
    /// Where the protected-resource metadata is (named by every challenge and grant).
    metadata_url: Arc<str>,
    /// The scopes every request needs (named by every challenge and grant).
    endpoint_scopes: Arc<[String]>,
    admissions: Admissions,
}

impl Gate {
    /// The gate of `authorization`, as a layer for the endpoint's routes.
    pub(crate) fn layer(authorization: Arc<Authorization>) -> GateLayer {
        let metadata_url = Arc::from(authorization.resource.metadata_url());
        let endpoint_scopes = Arc::from(authorization.required_scopes.as_slice());
        GateLayer(Arc::new(Gate {
            authorization,
            metadata_url,
            endpoint_scopes,
            admissions: Admissions::default(),
        }))
    }

    /// Verifies the request's bearer token and the scopes every request needs: the response to
    /// send instead, or the request with its [`Admitted`] in its extensions.
    ///
    /// The scopes of the tool, prompt or resource a request is for are not looked at here: the
    /// dispatcher decides them from the parsed request, right before it runs the handler, and
    /// the transport turns its refusal into the same `403` challenge.
    async fn admit(&self, mut request: Request) -> Result<Request, Response> {
        let required = &self.authorization.required_scopes;
        let challenge = |problem| respond(problem, &self.metadata_url, required);
        let Some(token) = bearer(&request) else {
            return Err(challenge(Problem::Missing));
        };
        let verified = match self.authorization.verifier.verify_shared(token).await {
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
        if !required.iter().all(|scope| verified.has_scope(scope)) {
            return Err(challenge(Problem::InsufficientScope));
        }
        let admitted = self.admissions.of(&verified, |token| self.admitted(token));
        request.extensions_mut().insert(admitted);
        Ok(request)
    }

    /// What a request with `token` is admitted as.
    fn admitted(&self, token: &VerifiedToken) -> Admitted {
        let mut grant = Grant::new(token.scopes.iter().cloned());
        grant.claims = Arc::clone(&token.claims);
        grant.metadata_url = Some(Arc::clone(&self.metadata_url));
        grant.endpoint_scopes = Arc::clone(&self.endpoint_scopes);
        Admitted {
            principal: Arc::from(crate::context::binding(&token.issuer, &token.subject)),
            subject: Identity::new(token.subject.as_str()).with_issuer(token.issuer.as_str()),
            grant: Arc::new(grant),
        }
    }
}

/// The token of an `Authorization: Bearer …` header (the scheme in any case).
fn bearer(request: &Request) -> Option<&str> {
    let value = request.headers().get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The gate as a tower [`Layer`] (what `Router::layer` takes). One gate serves the router and
/// the server's front ([`crate::transport::http`]'s `front`), with one set of admissions.
#[derive(Clone)]
pub(crate) struct GateLayer(Arc<Gate>);

impl GateLayer {
    /// The authorization the gate enforces.
    pub(super) fn authorization(&self) -> &Arc<Authorization> {
        &self.0.authorization
    }

    /// Admits `request` or answers it: see [`Gate::admit`].
    pub(crate) async fn admit(&self, request: Request) -> Result<Request, Response> {
        self.0.admit(request).await
    }
}

impl<S> Layer<S> for GateLayer {
    type Service = Gated<S>;

    fn layer(&self, inner: S) -> Gated<S> {
        Gated {
            gate: Arc::clone(&self.0),
            inner,
        }
    }
}

/// A route behind the gate.
#[derive(Clone)]
pub(crate) struct Gated<S> {
    gate: Arc<Gate>,
    inner: S,
}

impl<S> Service<Request> for Gated<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // The service polled ready serves this request; its clone waits for the next one.
        let ready = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let gate = Arc::clone(&self.gate);
        Box::pin(async move {
            match gate.admit(request).await {
                Ok(request) => inner.call(request).await,
                Err(refusal) => Ok(refusal),
            }
        })
    }
}
