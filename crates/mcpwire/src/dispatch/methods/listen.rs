//! `subscriptions/listen` (2026-07-28): acknowledge the honoured filter, then forward the
//! requested changes, each tagged with the subscription id, until the client leaves (closing the
//! stream, or `notifications/cancelled` on stdio) or the server stops.
//!
//! An extension's part of the filter (the tasks extension's `taskIds`) is admitted by its hook
//! on the extension seam, and what it follows is forwarded on the same stream.

use crate::context::Change;
use crate::dispatch::admitted::{Admitted, Serving};
use crate::dispatch::authorize;
use crate::dispatch::era::Served;
use crate::dispatch::exchange::{Exchange, parse};
use crate::dispatch::watched::{self, Watched, over_the_cap};
use crate::extension::declared_by;
use crate::extension::listen::{Feed, ListenRequest};
use crate::protocol::jsonrpc::{RequestId, notification_line, result_line};
use crate::protocol::list_changed::ListChangedParams;
use crate::protocol::meta::{SERVER_INFO, SUBSCRIPTION_ID};
use crate::protocol::resources::{ResourceUpdatedParams, UPDATED};
use crate::protocol::subscriptions::{
    ACKNOWLEDGED, AcknowledgedParams, ListenParams, Subscribed, SubscriptionFilter,
};
use crate::protocol::{Era, ErrorObject};
use serde_json::value::RawValue;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Serves `subscriptions/listen` (2026-07-28): admitted with its filter, then held open
/// through the server-wide layers until the client leaves or the server stops.
pub(crate) fn serve(admitted: Admitted<'_>, params: Option<Box<RawValue>>) -> Serving<'_> {
    Box::pin(async move {
        let params = parse(params.as_deref())?;
        let listening = admit(admitted.exchange, params, &admitted.served).await?;
        let (owned, id) = (Arc::clone(admitted.exchange), admitted.id.clone());
        let listening = async move { listen(&owned, &id, listening).await };
        Ok(admitted.through(None, listening).await)
    })
}

/// A listen request admitted: the filter it is honoured with, the URIs it watches, and the
/// feeds of the extensions whose part of the filter it asks for (each subscribed before the
/// acknowledgement, so no change after it is missed).
struct Listening {
    honored: SubscriptionFilter,
    watched: Watched,
    feeds: Vec<Box<dyn Feed>>,
}

/// Admits one listen request: the filter the server honours, each extension's part of it
/// admitted by its hook, and every resource URI it watches admitted like a
/// `resources/subscribe`. Refuses a filter that is unknown, too long or too large, or that
/// watches what the caller's grant does not allow.
async fn admit(
    exchange: &Exchange,
    params: ListenParams,
    served: &Served,
) -> Result<Listening, ErrorObject> {
    let core = &exchange.core;
    let mut honored = params.notifications.honored_by(&core.discover_capabilities);
    let request = Listener { exchange, served };
    let mut feeds = Vec::new();
    for hook in core.extensions.listen_hooks() {
        let admitted = hook.admit(&request, &params.notifications, &mut honored);
        feeds.extend(admitted.await?);
    }
    let watched = watch(exchange, &honored)?;
    Ok(Listening {
        honored,
        watched,
        feeds,
    })
}

/// A listen request, as an extension's hook sees it.
struct Listener<'a> {
    exchange: &'a Exchange,
    served: &'a Served,
}

impl ListenRequest for Listener<'_> {
    fn declared(&self, id: &str) -> bool {
        declared_by(&self.served.capabilities, id)
    }

    fn principal(&self) -> Option<&str> {
        self.exchange.principal.as_deref()
    }

    fn admit_scopes(&self, scopes: &[&str]) -> Result<(), ErrorObject> {
        authorize::admit(self.exchange, scopes)
    }
}

/// Serves one admitted listen request: acknowledges its filter, forwards the changes it asked
/// for, and returns the closing response line once the client leaves or the server stops.
async fn listen(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    listening: Listening,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let Listening {
        honored,
        watched,
        mut feeds,
    } = listening;
    let mut changes = core.notifier.subscribe();
    let ack = Subscribed::new(
        id.clone(),
        AcknowledgedParams {
            notifications: honored.clone(),
        },
    );
    let outbound = exchange.outbound();
    outbound.send(notification_line(ACKNOWLEDGED, &ack)).await;
    loop {
        let line = tokio::select! {
            change = changes.recv() => match change {
                Ok(change) => notification(&honored, &watched, id, &change),
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "a subscription fell behind and missed changes");
                    None
                }
                Err(RecvError::Closed) => break,
            },
            (line, feed) = next_from(&mut feeds, id) => {
                if line.is_none() {
                    feeds.remove(feed);
                }
                line
            },
        };
        if let Some(line) = line
            && !outbound.send(line).await
        {
            break;
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

/// The next line of any of `feeds`, with the index of the feed it came from (`None`: that feed
/// ended); never when there is none.
async fn next_from(feeds: &mut [Box<dyn Feed>], id: &RequestId) -> (Option<String>, usize) {
    if feeds.is_empty() {
        return std::future::pending().await;
    }
    let nexts = feeds.iter_mut().map(|feed| feed.next(id));
    let (line, feed, _) = futures_util::future::select_all(nexts).await;
    (line, feed)
}

/// The resource URIs the filter watches, each admitted like a `resources/subscribe` (the caller
/// must hold the scopes of the resource serving it).
fn watch(exchange: &Exchange, filter: &SubscriptionFilter) -> Result<Watched, ErrorObject> {
    let core = &exchange.core;
    let mut watched = Watched::default();
    for uri in filter.resource_subscriptions.iter().flatten() {
        let scopes = watched::admit(core, Era::Modern, uri)?;
        authorize::admit(exchange, scopes)?;
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
