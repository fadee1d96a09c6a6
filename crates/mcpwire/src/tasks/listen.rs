//! The tasks extension's hook on `subscriptions/listen` (2026-07-28): `taskIds` needs the
//! extension declared on the listen request (`-32021`); only the caller's own tasks are
//! honoured, each of a tool whose scopes the caller's grant holds (any other refuses the
//! request), at most `max_listened` of them; each change of one is a `notifications/tasks`
//! carrying the task as `tasks/get` shows it.

use super::refusals::store_failed;
use super::runtime::{Lookup, Tasks};
use super::{TaskRecord, not_negotiated};
use crate::extension::intercept::Boxed;
use crate::extension::listen::{Feed, ListenHook, ListenRequest};
use crate::protocol::jsonrpc::notification_line;
use crate::protocol::subscriptions::Subscribed;
use crate::protocol::tasks::{EXTENSION, NOTIFICATION};
use crate::protocol::{ErrorObject, RequestId, SubscriptionFilter};
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// The tasks extension's listen hook, over the server's tasks.
pub(crate) struct TaskListen {
    pub(crate) tasks: Arc<Tasks>,
    /// The most task ids one listen request may name (more refuses it, before any lookup).
    pub(crate) max_listened: usize,
}

impl ListenHook for TaskListen {
    fn admit<'a>(
        &'a self,
        request: &'a dyn ListenRequest,
        asked: &'a SubscriptionFilter,
        honored: &'a mut SubscriptionFilter,
    ) -> Boxed<'a, Result<Option<Box<dyn Feed>>, ErrorObject>> {
        Box::pin(async move {
            let asks = asked.task_ids.as_ref().is_some_and(|ids| !ids.is_empty());
            if asks && !declared_in_request(request) {
                return Err(not_negotiated("subscriptions/listen with taskIds"));
            }
            let Some(ids) = honored.task_ids.take() else {
                return Ok(None);
            };
            // Subscribed before the lookup and the acknowledgement: no change after is missed.
            let changes = self.tasks.subscribe();
            let owned = self.owned(request, ids).await?;
            honored.task_ids = owned.clone();
            Ok(owned.map(|ids| Box::new(TaskFeed { changes, ids }) as Box<dyn Feed>))
        })
    }
}

impl TaskListen {
    /// The ids among `ids` of tasks that exist and belong to the caller (`None` when none
    /// does), looked up together; a task of a tool whose scopes the caller's grant lacks
    /// refuses the request, and so do more ids than `max_listened`.
    async fn owned(
        &self,
        request: &dyn ListenRequest,
        mut ids: Vec<String>,
    ) -> Result<Option<Vec<String>>, ErrorObject> {
        let limit = self.max_listened;
        if ids.len() > limit {
            return Err(ErrorObject::invalid_params(format!(
                "Invalid params: at most {limit} taskIds"
            ))
            .with_data(serde_json::json!({ "limit": limit })));
        }
        let mut seen = HashSet::new();
        ids.retain(|id| seen.insert(id.clone()));
        let found = self.tasks.lookup_many(&ids, request.principal()).await;
        let found = found.map_err(store_failed)?;
        let mut owned = Vec::new();
        for (id, found) in ids.into_iter().zip(found) {
            if let Lookup::Found(task) = found {
                let scopes: Vec<&str> = task.scopes.iter().map(String::as_str).collect();
                request.admit_scopes(&scopes)?;
                owned.push(id);
            }
        }
        Ok((!owned.is_empty()).then_some(owned))
    }
}

/// Whether the listen request declared the tasks extension.
fn declared_in_request(request: &dyn ListenRequest) -> bool {
    request.declared(EXTENSION)
}

/// The changes of the tasks one listen stream watches.
struct TaskFeed {
    changes: broadcast::Receiver<Arc<TaskRecord>>,
    ids: Vec<String>,
}

impl Feed for TaskFeed {
    fn next<'a>(&'a mut self, id: &'a RequestId) -> Boxed<'a, Option<String>> {
        Box::pin(async move {
            loop {
                match self.changes.recv().await {
                    Ok(task) if self.ids.contains(&task.id) => {
                        let params = Subscribed::new(id.clone(), task.to_detailed());
                        return Some(notification_line(NOTIFICATION, &params));
                    }
                    Ok(_) => {}
                    Err(RecvError::Lagged(missed)) => {
                        tracing::warn!(
                            missed,
                            "a subscription fell behind and missed task changes"
                        );
                    }
                    Err(RecvError::Closed) => return None,
                }
            }
        })
    }
}
