//! `subscriptions/listen` (2026-07-28): a long-lived request whose stream carries the change
//! notifications the client opted in to. The notifications arrive on the subscription (and on
//! [`Client::notifications`]); dropping the subscription ends the request (on stdio with
//! `notifications/cancelled`, on HTTP by closing the stream).

use super::client::Client;
use super::error::ClientError;
use super::notifications::{Notifications, ServerNotification};
use super::options::CallOptions;
use super::requests;
use crate::protocol::subscriptions::{ACKNOWLEDGED, LISTEN, ListenParams};
use crate::protocol::{Era, SubscriptionFilter};
use serde_json::json;
use std::time::Duration;

/// How long a subscription may stay open.
const FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
/// How long the server has to acknowledge a subscription.
const ACKNOWLEDGE_WITHIN: Duration = Duration::from_secs(30);

/// An open `subscriptions/listen` request; dropping it ends the subscription.
///
/// # Examples
///
/// ```no_run
/// use mcpwire::protocol::SubscriptionFilter;
///
/// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
/// let filter = SubscriptionFilter { tools_list_changed: Some(true), ..Default::default() };
/// let mut subscription = client.listen(filter).await?;
/// while let Some(note) = subscription.next().await {
///     println!("{}", note.method); // notifications/tools/list_changed
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Subscription {
    honored: SubscriptionFilter,
    notifications: Notifications,
    request: tokio::task::JoinHandle<Result<(), ClientError>>,
}

impl Subscription {
    /// The part of the filter the server honors (from its acknowledgement).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(subscription: mcpwire::client::Subscription) {
    /// println!("{:?}", subscription.honored().tools_list_changed);
    /// # }
    /// ```
    pub fn honored(&self) -> &SubscriptionFilter {
        &self.honored
    }

    /// The next notification of the subscription, or `None` once it ended.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(mut subscription: mcpwire::client::Subscription) {
    /// if let Some(note) = subscription.next().await {
    ///     println!("{}", note.method);
    /// }
    /// # }
    /// ```
    pub async fn next(&mut self) -> Option<ServerNotification> {
        loop {
            if self.request.is_finished() {
                return None;
            }
            let note = tokio::select! {
                note = self.notifications.next() => note?,
                _ = &mut self.request => return None,
            };
            if note.method != ACKNOWLEDGED && note.params.get("_meta").is_some() {
                return Some(note);
            }
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.request.abort();
    }
}

impl Client {
    /// Opens a `subscriptions/listen` subscription (2026-07-28) and waits for the server's
    /// acknowledgement. On 2025-11-25 the server's notifications come on
    /// [`Client::notifications`] (and resource updates after
    /// [`Client::subscribe_resource`]); this returns [`ClientError::Unsupported`] there.
    ///
    /// # Errors
    ///
    /// When the server refuses the subscription or does not acknowledge it.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::protocol::SubscriptionFilter;
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let filter = SubscriptionFilter { prompts_list_changed: Some(true), ..Default::default() };
    /// let subscription = client.listen(filter).await?;
    /// println!("{:?}", subscription.honored());
    /// # Ok(()) }
    /// ```
    pub async fn listen(&self, filter: SubscriptionFilter) -> Result<Subscription, ClientError> {
        if self.era() != Era::Modern {
            return Err(ClientError::Unsupported(LISTEN));
        }
        let mut notifications = self.notifications();
        let params = requests::fields(&ListenParams {
            notifications: filter,
        })?;
        let session = self.session().clone();
        let mut request = tokio::spawn(async move {
            let options = CallOptions::new().timeout(FOREVER);
            session
                .request(LISTEN, params, None, &options)
                .await
                .map(drop)
        });
        let acknowledged = async {
            loop {
                let note = notifications
                    .next()
                    .await
                    .ok_or(ClientError::Closed(None))?;
                if note.method == ACKNOWLEDGED {
                    let honored = note
                        .params
                        .get("notifications")
                        .cloned()
                        .unwrap_or(json!({}));
                    return Ok::<_, ClientError>(serde_json::from_value(honored)?);
                }
            }
        };
        let honored = tokio::select! {
            honored = tokio::time::timeout(ACKNOWLEDGE_WITHIN, acknowledged) => match honored {
                Ok(honored) => honored?,
                Err(_) => {
                    request.abort();
                    return Err(ClientError::Timeout(ACKNOWLEDGE_WITHIN));
                }
            },
            ended = &mut request => {
                return Err(match ended {
                    Ok(Err(error)) => error,
                    _ => ClientError::Protocol("the subscription ended at once".into()),
                });
            }
        };
        Ok(Subscription {
            honored,
            notifications,
            request,
        })
    }
}
