//! A backend's own list changes, followed: while a connection is the backend's current one,
//! each `notifications/{tools,prompts,resources}/list_changed` it sends lists the backend's
//! entries again (the front's clients are told the lists changed, as for any change of the
//! catalog). On 2025-11-25 the notifications come on the session; on 2026-07-28 the gateway
//! opens a `subscriptions/listen` for them.

use super::mounted::{Mounted, OnCollision};
use crate::client::{Client, ServerNotification};
use crate::protocol::{Era, SubscriptionFilter, list_changed};
use std::sync::Weak;
use std::time::Duration;

/// How often a follower checks that its connection is still the backend's current one.
const CHECK: Duration = Duration::from_secs(5);

/// The list changes a connection sends.
enum Changes {
    Session(crate::client::Notifications),
    Subscription(crate::client::Subscription),
}

impl Changes {
    async fn next(&mut self) -> Option<ServerNotification> {
        match self {
            Changes::Session(notes) => notes.next().await,
            Changes::Subscription(subscription) => subscription.next().await,
        }
    }
}

fn is_list_change(method: &str) -> bool {
    [
        list_changed::TOOLS,
        list_changed::PROMPTS,
        list_changed::RESOURCES,
    ]
    .contains(&method)
}

/// Lists backend `index` again on each list change `client` (its connection number `opened`)
/// sends; ends when the connection is replaced or lost, or the gateway is gone.
pub(crate) async fn follow(mounted: Weak<Mounted>, index: usize, client: Client, opened: u64) {
    let mut changes = match client.era() {
        Era::Legacy => Changes::Session(client.notifications()),
        _ => {
            let filter = SubscriptionFilter {
                tools_list_changed: Some(true),
                prompts_list_changed: Some(true),
                resources_list_changed: Some(true),
                ..SubscriptionFilter::default()
            };
            match client.listen(filter).await {
                Ok(subscription) => Changes::Subscription(subscription),
                Err(error) => {
                    tracing::debug!(%error, "a backend's list changes cannot be followed");
                    return;
                }
            }
        }
    };
    loop {
        let next = tokio::time::timeout(CHECK, changes.next()).await;
        let Some(gateway) = mounted.upgrade() else {
            return;
        };
        let link = &gateway.links[index];
        if !link.is_current(opened) {
            return;
        }
        match next {
            Err(_) => continue,
            Ok(None) => return,
            Ok(Some(note)) if is_list_change(&note.method) => {
                gateway.unmount(index);
                if let Err(error) = gateway.mount(index, &client, OnCollision::Skip).await {
                    tracing::warn!(backend = %link.backend.name, %error, "a backend's changed lists cannot be listed");
                }
            }
            Ok(Some(_)) => {}
        }
    }
}
