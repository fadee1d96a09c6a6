//! What [`HttpServer::serve`](super::HttpServer::serve) puts in front of the endpoint, as each
//! connection's hyper service ([`super::serve`]): a POST to the MCP path goes straight to it,
//! everything else to the endpoint's axum router.
//!
//! The router serves every request the same way, but each request through it pays for the
//! routing, the `Host` check as `from_fn` middleware, the boxed clones of its services and the
//! peer address as a request extension: about 20 allocations and several thousand instructions
//! for a call that does not need them. The front decides the one case it takes from the request
//! line alone (method and path, which the router matches the same way) and runs what the router
//! would: the authorization's gate first (`Guard::admit`), when there is one, then the POST
//! handler ([`post::serve`]), which makes the `Host`/`Origin` check itself. A request it does
//! not take goes to the router with its peer address, as `into_make_service_with_connect_info`
//! would have added it.

use super::activity::{Activity, Answering, Read};
use super::answer_body::{self, Answer};
use super::endpoint::Endpoint;
use super::guard::Guard;
use super::post;
use super::proxies::TrustedProxies;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use futures_util::future::Either;
use http::Method;
use http::request::Parts;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use tower_service::Service;

/// The front: made once per server; each connection gets its own ([`Front::connection`]).
pub(super) struct Front(Arc<Shared>);

/// What every connection's front shares.
struct Shared {
    endpoint: Arc<Endpoint>,
    /// The MCP path, as the router matches it.
    path: Box<str>,
    /// The endpoint's router, for every request the front does not take.
    router: Router,
    /// The authorization, when there is one: the router's gate, the same admissions.
    guard: Guard,
}

impl Front {
    /// The front of `endpoint` served at `path`, `router` being the endpoint's router behind
    /// `guard`.
    pub(super) fn new(endpoint: Arc<Endpoint>, path: &str, router: Router, guard: Guard) -> Self {
        Front(Arc::new(Shared {
            endpoint,
            path: path.into(),
            router,
            guard,
        }))
    }

    /// The proxies the endpoint trusts to name their clients.
    pub(super) fn trusted_proxies(&self) -> TrustedProxies {
        self.0.endpoint.trusted_proxies.clone()
    }

    /// The front of a connection from `peer`, which counts its requests in `activity`.
    pub(super) fn connection(&self, peer: SocketAddr, activity: Arc<Activity>) -> FrontConnection {
        FrontConnection {
            shared: Arc::clone(&self.0),
            peer,
            activity,
        }
    }
}

/// The front of one connection, from `peer`.
pub(super) struct FrontConnection {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// The connection's requests, started and finished.
    activity: Arc<Activity>,
}

/// A request's answer to come, boxed: a request the router serves, or a POST behind the
/// authorization's gate.
type Pending = Pin<Box<dyn Future<Output = Result<Answer, Infallible>> + Send>>;

/// A request's body, as the connection counts it while it is read.
type Incoming = Read<hyper::body::Incoming>;

impl FrontConnection {
    /// The answer to `request`, counted by the connection: what the connection's hyper service
    /// ([`hyper::service::service_fn`] over this) returns.
    ///
    /// Not boxed on the common way (a POST to the MCP path, without authorization): hyper keeps
    /// the future of a connection's request in flight in one place of its own, made once per
    /// connection, so the POST's future goes there as it is.
    pub(super) fn serve(
        &self,
        request: http::Request<hyper::body::Incoming>,
    ) -> Answering<impl Future<Output = Result<Answer, Infallible>> + Send + use<>> {
        let finishing = self.activity.start();
        let (parts, body) = request.into_parts();
        let body = self.activity.reading(body);
        Answering::new(self.answer(parts, body), finishing)
    }

    /// The answer to the request with `parts` and `body`: taken apart once, where the body is
    /// wrapped, and put together again only for the router.
    fn answer(
        &self,
        parts: Parts,
        body: Incoming,
    ) -> Either<impl Future<Output = Result<Answer, Infallible>> + Send + use<>, Pending> {
        let shared = Arc::clone(&self.shared);
        let peer = self.peer;
        if parts.method == Method::POST && parts.uri.path() == &*shared.path {
            return Either::Left(shared.post(parts, body, peer));
        }
        let mut request = http::Request::from_parts(parts, Body::new(body));
        request.extensions_mut().insert(ConnectInfo(peer));
        let mut router = shared.router.clone();
        Either::Right(Box::pin(async move {
            router.call(request).await.map(answer_body::of)
        }))
    }
}

impl Shared {
    /// A POST to the MCP path, as the router serves it: the gate, the `Host` check, the handler.
    ///
    /// Without authorization, the handler's future, as it is; behind the gate, boxed.
    fn post(
        self: Arc<Self>,
        parts: Parts,
        body: Incoming,
        peer: SocketAddr,
    ) -> Either<impl Future<Output = Result<Answer, Infallible>> + Send + use<>, Pending> {
        if self.guard.is_open() {
            return Either::Left(post::serve(
                self.endpoint.clone(),
                (parts, body),
                Some(peer),
            ));
        }
        Either::Right(Box::pin(async move {
            let request = http::Request::from_parts(parts, Body::new(body));
            let request = match self.guard.admit(request).await {
                Ok(admitted) => admitted,
                Err(refusal) => return Ok(answer_body::of(refusal)),
            };
            let request = request.into_parts();
            post::serve(self.endpoint.clone(), request, Some(peer)).await
        }))
    }
}
