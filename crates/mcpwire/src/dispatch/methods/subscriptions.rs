//! `resources/subscribe` and `resources/unsubscribe` (2025-11-25): a session watches a
//! resource's URI, within its cap, and is told when it changes.

use crate::dispatch::admitted::{Admitted, Serving};
use crate::dispatch::authorize;
use crate::dispatch::exchange::{Exchange, parse};
use crate::dispatch::watched;
use crate::protocol::ErrorObject;
use crate::protocol::resources::{SubscribeParams, UnsubscribeParams};
use serde_json::value::RawValue;
use std::sync::Arc;

/// Serves `resources/subscribe`: admitted by the resource's scopes, then watched through the
/// server-wide layers.
pub(crate) fn serve_subscribe(
    admitted: Admitted<'_>,
    params: Option<Box<RawValue>>,
) -> Serving<'_> {
    Box::pin(async move {
        let params: SubscribeParams = parse(params.as_deref())?;
        admit_subscription(admitted.exchange, &params)?;
        let uri = params.uri.clone();
        let (owned, responder) = (Arc::clone(admitted.exchange), admitted.responder());
        let subscribing = async move {
            subscribe(&owned, &params)?;
            responder.empty()
        };
        Ok(admitted.through(Some(&uri), subscribing).await)
    })
}

/// Serves `resources/unsubscribe` through the server-wide layers.
pub(crate) fn serve_unsubscribe(
    admitted: Admitted<'_>,
    params: Option<Box<RawValue>>,
) -> Serving<'_> {
    Box::pin(async move {
        let params: UnsubscribeParams = parse(params.as_deref())?;
        let uri = params.uri.clone();
        let (owned, responder) = (Arc::clone(admitted.exchange), admitted.responder());
        let unsubscribing = async move {
            unsubscribe(&owned, &params);
            responder.empty()
        };
        Ok(admitted.through(Some(&uri), unsubscribing).await)
    })
}

/// Admits `resources/subscribe`: a registered resource serves the URI, and the caller's grant
/// holds its scopes.
fn admit_subscription(exchange: &Exchange, params: &SubscribeParams) -> Result<(), ErrorObject> {
    let scopes = watched::admit(&exchange.core, crate::protocol::Era::Legacy, &params.uri)?;
    authorize::admit(exchange, scopes)
}

/// An admitted `resources/subscribe`: watches the URI, within the session's cap.
fn subscribe(exchange: &Exchange, params: &SubscribeParams) -> Result<(), ErrorObject> {
    let core = &exchange.core;
    exchange
        .session
        .subscribe(&params.uri, core.limits.max_subscriptions)
        .map_err(|_| {
            watched::over_the_cap(&core.limits, "subscriptions per session; unsubscribe first")
        })
}

/// `resources/unsubscribe`.
fn unsubscribe(exchange: &Exchange, params: &UnsubscribeParams) {
    exchange.session.unsubscribe(&params.uri);
}
