//! `subscriptions/listen` (2026-07-28): acknowledge the honoured filter, then forward the
//! requested changes, each tagged with the subscription id, until the client leaves (closing the
//! stream, or `notifications/cancelled` on stdio) or the server stops.
//!
//! `taskIds` (tasks extension), on a server that offers tasks, needs the extension declared on
//! the listen request (`-32021`);
//! only the caller's own tasks are honoured, and each change of one is a `notifications/tasks`
//! carrying the task as `tasks/get` shows it.

use super::tasks::{negotiated, not_negotiated};
use crate::context::Change;
use crate::dispatch::admitted::{Admitted, Serving};
use crate::dispatch::authorize;
use crate::dispatch::era::Served;
use crate::dispatch::exchange::{Exchange, parse};
use crate::dispatch::watched::{self, Watched, over_the_cap};
use crate::protocol::jsonrpc::{RequestId, notification_line, result_line};
use crate::protocol::list_changed::ListChangedParams;
use crate::protocol::meta::{SERVER_INFO, SUBSCRIPTION_ID};
use crate::protocol::resources::{ResourceUpdatedParams, UPDATED};
use crate::protocol::subscriptions::{
    ACKNOWLEDGED, AcknowledgedParams, ListenParams, Subscribed, SubscriptionFilter,
};
use crate::protocol::tasks::NOTIFICATION as TASK_NOTIFICATION;
use crate::protocol::{Era, ErrorObject};
use crate::tasks::TaskRecord;
use crate::tasks::runtime::Lookup;
use serde_json::value::RawValue;
use std::sync::Arc;
use tokio::sync::broadcast;
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

/// A listen request admitted: the filter it is honoured with, the URIs it watches, and the task
/// changes it follows (subscribed before the acknowledgement, so no change after it is missed).
struct Listening {
    honored: SubscriptionFilter,
    watched: Watched,
    task_changes: Option<broadcast::Receiver<Arc<TaskRecord>>>,
}

/// Admits one listen request: the filter the server honours, every resource URI it watches
/// admitted like a `resources/subscribe`, and only the caller's own tasks, each of a tool whose
/// scopes the caller holds. Refuses a filter that is unknown, too long or too large, or that
/// watches a task or a resource the caller's grant does not allow.
async fn admit(
    exchange: &Exchange,
    params: ListenParams,
    served: &Served,
) -> Result<Listening, ErrorObject> {
    let core = &exchange.core;
    let asks_tasks = params
        .notifications
        .task_ids
        .as_ref()
        .is_some_and(|ids| !ids.is_empty());
    if asks_tasks && core.tasks.is_some() && !negotiated(served) {
        return Err(not_negotiated("subscriptions/listen with taskIds"));
    }
    let mut honored = params.notifications.honored_by(&core.discover_capabilities);
    let mut task_changes = match (&core.tasks, &honored.task_ids) {
        (Some(tasks), Some(_)) => Some(tasks.subscribe()),
        _ => None,
    };
    honored.task_ids = owned_tasks(exchange, honored.task_ids.take()).await?;
    if honored.task_ids.is_none() {
        task_changes = None;
    }
    let watched = watch(exchange, &honored)?;
    Ok(Listening {
        honored,
        watched,
        task_changes,
    })
}

/// Serves one admitted listen request: acknowledges its filter, forwards the changes it asked
/// for, and returns the closing response line once the client leaves or the server stops.
async fn listen(
    exchange: &Exchange,
    id: &RequestId,
    listening: Listening,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let Listening {
        honored,
        watched,
        mut task_changes,
    } = listening;
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
        let line = tokio::select! {
            change = changes.recv() => match change {
                Ok(change) => notification(&honored, &watched, id, &change),
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "a subscription fell behind and missed changes");
                    None
                }
                Err(RecvError::Closed) => break,
            },
            task = next_task(&mut task_changes) => match task {
                Ok(task) => task_notification(&honored, id, &task),
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "a subscription fell behind and missed task changes");
                    None
                }
                Err(RecvError::Closed) => {
                    task_changes = None;
                    None
                }
            },
        };
        if let Some(line) = line
            && !exchange.outbound.send(line).await
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

/// The ids among `ids` of tasks that exist and belong to the caller (`None` when none does),
/// looked up together; a task of a tool whose scopes the caller's grant lacks refuses the
/// request, and so do more ids than `max_listened_tasks` (before any lookup).
async fn owned_tasks(
    exchange: &Exchange,
    ids: Option<Vec<String>>,
) -> Result<Option<Vec<String>>, ErrorObject> {
    let (Some(tasks), Some(mut ids)) = (&exchange.core.tasks, ids) else {
        return Ok(None);
    };
    let limit = exchange.core.limits.max_listened_tasks;
    if ids.len() > limit {
        return Err(ErrorObject::invalid_params(format!(
            "Invalid params: at most {limit} taskIds"
        ))
        .with_data(serde_json::json!({ "limit": limit })));
    }
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    let owner = exchange.principal.as_deref();
    let found = tasks.lookup_many(&ids, owner).await;
    let found = found.map_err(crate::tasks::store_failed)?;
    let mut owned = Vec::new();
    for (id, found) in ids.into_iter().zip(found) {
        if let Lookup::Found(task) = found {
            let scopes: Vec<&str> = task.scopes.iter().map(String::as_str).collect();
            authorize::admit(exchange, &scopes)?;
            owned.push(id);
        }
    }
    Ok((!owned.is_empty()).then_some(owned))
}

/// The next task change, or never when the stream watches no task.
async fn next_task(
    changes: &mut Option<broadcast::Receiver<Arc<TaskRecord>>>,
) -> Result<Arc<TaskRecord>, RecvError> {
    match changes {
        Some(changes) => changes.recv().await,
        None => std::future::pending().await,
    }
}

/// `notifications/tasks` for a change of a watched task.
fn task_notification(
    filter: &SubscriptionFilter,
    id: &RequestId,
    task: &TaskRecord,
) -> Option<String> {
    let watched = filter.task_ids.as_ref()?;
    watched.contains(&task.id).then(|| {
        let params = Subscribed::new(id.clone(), task.to_detailed());
        notification_line(TASK_NOTIFICATION, &params)
    })
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
