//! `subscriptions/listen` (2026-07-28): acknowledge the honoured filter, then forward the
//! requested changes, each tagged with the subscription id, until the client leaves (closing the
//! stream, or `notifications/cancelled` on stdio) or the server stops.

use super::router::Exchange;
use super::watched::{Watched, admit, over_the_cap};
use crate::context::Change;
use crate::protocol::jsonrpc::{RequestId, notification_line, result_line};
use crate::protocol::list_changed::ListChangedParams;
use crate::protocol::meta::{SERVER_INFO, SUBSCRIPTION_ID};
use crate::protocol::resources::{ResourceUpdatedParams, UPDATED};
use crate::protocol::subscriptions::{
    ACKNOWLEDGED, AcknowledgedParams, ListenParams, Subscribed, SubscriptionFilter,
};
use crate::protocol::{Era, ErrorObject};
use crate::server::core::ServerCore;
use tokio::sync::broadcast::error::RecvError;

/// Serves one listen request; returns the closing response line, or the error that refused the
/// filter before it was acknowledged (a resource URI that is unknown or too long, too many).
pub(crate) async fn listen(
    exchange: &Exchange,
    id: &RequestId,
    params: ListenParams,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let honored = params.notifications.honored_by(&core.capabilities);
    let watched = watch(core, &honored)?;
    // Subscribed before the acknowledgement, so no change after it is missed.
    let mut changes = core.notifier.subscribe();
    let ack = Subscribed::new(
        id.clone(),
        AcknowledgedParams {
            notifications: honored.clone(),
        },
    );
    exchange
        .outbound
        .send(notification_line(ACKNOWLEDGED, &ack))
        .await;
    loop {
        match changes.recv().await {
            Ok(change) => {
                if let Some(line) = notification(&honored, &watched, id, &change)
                    && !exchange.outbound.send(line).await
                {
                    break;
                }
            }
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "a subscription fell behind and missed changes");
            }
            Err(RecvError::Closed) => break,
        }
    }
    let result = format!(
        r#"{{"resultType":"complete","_meta":{{{}:{},{}:{}}}}}"#,
        serde_json::to_string(SUBSCRIPTION_ID).expect("strings serialize"),
        serde_json::to_string(id).expect("ids serialize"),
        serde_json::to_string(SERVER_INFO).expect("strings serialize"),
        serde_json::to_string(&core.info).expect("implementations serialize"),
    );
    Ok(result_line(id, &result))
}

/// The resource URIs the filter watches, each admitted like a `resources/subscribe`.
fn watch(core: &ServerCore, filter: &SubscriptionFilter) -> Result<Watched, ErrorObject> {
    let mut watched = Watched::default();
    for uri in filter.resource_subscriptions.iter().flatten() {
        admit(core, Era::Modern, uri)?;
        watched
            .insert(uri, core.limits.max_subscriptions)
            .map_err(|_| over_the_cap(&core.limits, "resource subscriptions per listen request"))?;
    }
    Ok(watched)
}

/// The tagged notification for `change`, when the filter asked for it.
fn notification(
    filter: &SubscriptionFilter,
    watched: &Watched,
    id: &RequestId,
    change: &Change,
) -> Option<String> {
    match change {
        Change::List(list) if filter.wants(*list) => {
            let params = Subscribed::new(id.clone(), ListChangedParams {});
            Some(notification_line(list.method(), &params))
        }
        Change::ResourceUpdated(uri) if watched.covers(uri) => {
            let params = Subscribed::new(id.clone(), ResourceUpdatedParams { uri: uri.clone() });
            Some(notification_line(UPDATED, &params))
        }
        Change::List(_) | Change::ResourceUpdated(_) => None,
    }
}
