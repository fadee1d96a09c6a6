//! Notifications from the server (list changes, resource updates, log messages, …), as a stream
//! every interested task can subscribe to.

use serde_json::Value;
use tokio::sync::broadcast;

/// One notification from the server.
///
/// # Examples
///
/// ```
/// use mcpwire::client::ServerNotification;
///
/// let note = ServerNotification {
///     method: "notifications/tools/list_changed".into(),
///     params: serde_json::json!({}),
/// };
/// assert!(note.method.ends_with("list_changed"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ServerNotification {
    /// The notification's method, e.g. `notifications/message`.
    pub method: String,
    /// Its params (`{}` when absent).
    pub params: Value,
}

/// The server's notifications from the moment of subscribing: see
/// [`Client::notifications`](super::Client::notifications). Progress notifications go to the
/// call's progress callback instead.
///
/// # Examples
///
/// ```no_run
/// # async fn demo(client: mcpwire::client::Client) {
/// let mut notes = client.notifications();
/// while let Some(note) = notes.next().await {
///     println!("{}: {}", note.method, note.params);
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct Notifications(pub(crate) broadcast::Receiver<ServerNotification>);

impl Notifications {
    /// The next notification, or `None` once the connection is closed. A subscriber that falls
    /// far behind skips the oldest ones.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) {
    /// let first = client.notifications().next().await;
    /// # drop(first);
    /// # }
    /// ```
    pub async fn next(&mut self) -> Option<ServerNotification> {
        loop {
            match self.0.recv().await {
                Ok(note) => return Some(note),
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}
