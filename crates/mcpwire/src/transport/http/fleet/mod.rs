//! The fleet's room. [`Fleet`]: how this replica shares 2025-11-25 sessions with the others,
//! when it does: the session store, the bus, and the messages on it (changes, ended or changed
//! sessions, the client's answers and cancellations for requests another replica runs). Each
//! replica acts on the others' messages (`../fleet_inbox.rs`), acknowledges the end of a session
//! to the replica that ended it (`acks.rs`), and otherwise ignores its own echo;
//! `../fleet_settings.rs` and `../fleet_backend_setting.rs` are `HttpServer`'s fleet settings
//! (outside this room, so that the fleet imports neither the endpoint nor the builder);
//! `redis/` the Redis backend (feature `redis`).

mod acks;
#[cfg(feature = "redis")]
mod redis;

#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis::{RedisBackend, RedisFleet};

use super::session_change::SessionChange;
use super::shared::{BusEvent, FleetBus, SessionStore};
use crate::context::{Change, Notifier};
use crate::protocol::ChangedList;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::{CancellationToken, DropGuard};

/// This replica's place in a fleet.
#[derive(Clone, Default)]
pub(super) struct Fleet {
    /// This process's id (`MCP_REPLICA_ID`, or random): tells its own messages apart.
    pub(super) replica: Arc<str>,
    pub(super) sessions: Option<Arc<dyn SessionStore>>,
    pub(super) bus: Option<Arc<dyn FleetBus>>,
    /// The largest client answer relayed to the other replicas
    /// ([`HttpServer::max_relayed_response_bytes`]); `None`: [`DEFAULT_MAX_RELAYED_BYTES`].
    ///
    /// [`HttpServer::max_relayed_response_bytes`]: super::HttpServer::max_relayed_response_bytes
    pub(super) max_relayed_bytes: Option<usize>,
    /// Replicas waiting for the fleet to acknowledge the end of a session.
    acks: acks::Acks,
}

/// The largest client answer relayed to the other replicas by default: 1 MiB.
pub(super) const DEFAULT_MAX_RELAYED_BYTES: usize = 1024 * 1024;

/// One message between replicas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(super) enum Message {
    /// A list changed (`tools`, `prompts`, `resources`).
    ListChanged { list: String },
    /// A resource changed.
    ResourceUpdated { uri: String },
    /// A session ended (DELETE, eviction, lifetime): every replica ends its copy, and when `ack`
    /// is set acknowledges that to the sender with [`Message::SessionEndApplied`] (a replica of an
    /// earlier version ignores the field and does not).
    SessionEnded {
        session: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ack: bool,
    },
    /// The sending replica ended its copy of `session`, as the replica `to` asked.
    SessionEndApplied { session: String, to: String },
    /// A session changed (log level, subscriptions): copies apply `change`; without one (from
    /// an earlier version), they reload the record.
    SessionChanged {
        session: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        change: Option<SessionChange>,
    },
    /// The client's answer (a JSON-RPC response line) to a request of the server's, for the
    /// replica waiting for it.
    ClientResponse { session: String, line: String },
    /// `notifications/cancelled` for a request another replica runs (its JSON-RPC id).
    Cancelled {
        session: String,
        request: serde_json::Value,
    },
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    origin: String,
    #[serde(flatten)]
    message: Message,
}

/// What a replica does with the others' messages.
pub(super) trait Receiver: Send + Sync + 'static {
    /// Acts on `message` from another replica.
    fn receive(&self, message: Message) -> futures_util::future::BoxFuture<'_, ()>;
    /// The bus was lost and is back: changes may have been missed.
    fn reconnected(&self);
}

impl Fleet {
    /// The place of the replica `replica`, sharing nothing yet.
    pub(super) fn of_replica(replica: Arc<str>) -> Self {
        Self {
            replica,
            ..Self::default()
        }
    }

    /// Whether sessions are shared.
    pub(super) fn shares_sessions(&self) -> bool {
        self.sessions.is_some()
    }

    /// Whether this replica shares anything with others (a session store or a bus): then it is
    /// one of a fleet.
    pub(super) fn is_shared(&self) -> bool {
        self.sessions.is_some() || self.bus.is_some()
    }

    /// Sends `message` to the other replicas; a bus failure is logged (the message is lost, as
    /// a pub/sub message to a replica that is down would be).
    pub(super) async fn send(&self, message: Message) {
        let Some(bus) = &self.bus else {
            return;
        };
        if let Err(error) = bus.publish(self.payload(message)).await {
            tracing::warn!(%error, "a message to the fleet was lost");
        }
    }

    /// `message` as this replica puts it on the bus.
    fn payload(&self, message: Message) -> String {
        encode(&self.replica, message)
    }

    /// Tells the other replicas that `session` ended and waits (at most [`acks::ACK_WAIT`])
    /// until every replica the bus delivered the news to has ended its copy, this one's own echo
    /// included (with a bus that cannot count its receivers: until the echo came back). The
    /// client acts on the end next: its next request, on any replica, must be refused.
    pub(super) async fn end_everywhere(&self, session: &str) {
        let Some(bus) = &self.bus else {
            return;
        };
        let wait = self.acks.expect(session);
        let payload = self.payload(Message::SessionEnded {
            session: session.to_owned(),
            ack: true,
        });
        let receivers = match bus.publish_counted(payload).await {
            Ok(receivers) => receivers.unwrap_or(1),
            Err(error) => {
                tracing::warn!(%error, "a message to the fleet was lost");
                return;
            }
        };
        if let Some(wait) = wait
            && !wait.all_within(receivers, acks::ACK_WAIT).await
        {
            tracing::debug!(
                receivers,
                "not every replica acknowledged the end of a session in time"
            );
        }
    }

    /// Passes this process's changes to the fleet and the fleet's to `receiver`, until the guard
    /// it returns is dropped (with `receiver`); the bus subscription ends with it. `None`: no bus.
    pub(super) fn start<R: Receiver>(
        &self,
        notifier: &Notifier,
        receiver: std::sync::Weak<R>,
    ) -> Option<DropGuard> {
        let bus = self.bus.as_ref()?;
        let stop = CancellationToken::new();
        let guard = stop.clone().drop_guard();
        let outgoing = self.clone();
        let mut changes = notifier.subscribe_local();
        let watched = receiver.clone();
        let stopped = stop.clone();
        tokio::spawn(async move {
            while let Some(received) = stopped.run_until_cancelled(changes.recv()).await {
                let change = match received {
                    Ok(change) => change,
                    Err(RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "changes came faster than the fleet bus took them");
                        continue;
                    }
                    Err(RecvError::Closed) => return,
                };
                if watched.strong_count() == 0 {
                    return;
                }
                outgoing.send(message_of(change)).await;
            }
        });
        // Ends when the guard is dropped (or the bus's stream ends).
        let incoming = bus.subscribe().take_until(stop.cancelled_owned());
        let replica = self.replica.clone();
        let acks = self.acks.clone();
        // Weak: the bus ends this task's stream only once it is dropped.
        let acknowledging = Arc::downgrade(bus);
        tokio::spawn(async move {
            let mut incoming = std::pin::pin!(incoming);
            while let Some(event) = incoming.next().await {
                let Some(receiver) = receiver.upgrade() else {
                    return;
                };
                match event {
                    BusEvent::Reconnected => receiver.reconnected(),
                    BusEvent::Message(payload) => {
                        match serde_json::from_str::<Envelope>(&payload) {
                            Ok(Envelope {
                                origin,
                                message: Message::SessionEnded { session, .. },
                            }) if *origin == *replica => acks.heard(&session, &origin),
                            Ok(envelope) if *envelope.origin == *replica => {}
                            Ok(Envelope {
                                origin,
                                message: Message::SessionEndApplied { session, to },
                            }) => {
                                if *to == *replica {
                                    acks.heard(&session, &origin);
                                }
                            }
                            Ok(Envelope { origin, message }) => {
                                let acknowledge = match &message {
                                    Message::SessionEnded { session, ack: true } => {
                                        Some(session.clone())
                                    }
                                    _ => None,
                                };
                                receiver.receive(message).await;
                                if let Some(session) = acknowledge
                                    && let Some(bus) = acknowledging.upgrade()
                                {
                                    let applied = Message::SessionEndApplied {
                                        session,
                                        to: origin,
                                    };
                                    if let Err(error) = bus.publish(encode(&replica, applied)).await
                                    {
                                        tracing::warn!(%error, "an acknowledgement to the fleet was lost");
                                    }
                                }
                            }
                            Err(error) => {
                                tracing::debug!(%error, "an unreadable fleet message; ignored")
                            }
                        }
                    }
                }
            }
        });
        Some(guard)
    }
}

/// `message` as the replica `origin` puts it on the bus.
fn encode(origin: &str, message: Message) -> String {
    let envelope = Envelope {
        origin: origin.to_owned(),
        message,
    };
    serde_json::to_string(&envelope).expect("messages serialize")
}

/// The bus message announcing `change`.
fn message_of(change: Change) -> Message {
    match change {
        Change::List(list) => Message::ListChanged {
            list: match list {
                ChangedList::Tools => "tools",
                ChangedList::Prompts => "prompts",
                ChangedList::Resources => "resources",
            }
            .to_owned(),
        },
        Change::ResourceUpdated(uri) => Message::ResourceUpdated { uri },
    }
}

/// The change a bus message announces, if it is one.
pub(super) fn change_of(message: &Message) -> Option<Change> {
    match message {
        Message::ListChanged { list } => Some(Change::List(match list.as_str() {
            "tools" => ChangedList::Tools,
            "prompts" => ChangedList::Prompts,
            "resources" => ChangedList::Resources,
            _ => return None,
        })),
        Message::ResourceUpdated { uri } => Some(Change::ResourceUpdated(uri.clone())),
        _ => None,
    }
}

/// Every list, as announced after the bus was lost (changes may have been missed).
pub(super) fn every_list() -> [Change; 3] {
    [
        Change::List(ChangedList::Tools),
        Change::List(ChangedList::Prompts),
        Change::List(ChangedList::Resources),
    ]
}

/// A fresh replica id: 64 random bits, hex.
pub(super) fn random_replica_id() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_cross_the_bus_as_they_were() {
        for change in every_list()
            .into_iter()
            .chain([Change::ResourceUpdated("file:///a".into())])
        {
            let message = message_of(change.clone());
            let json = serde_json::to_string(&message).unwrap();
            let back: Message = serde_json::from_str(&json).unwrap();
            assert_eq!(change_of(&back), Some(change));
        }
        let ended = Message::SessionEnded {
            session: "s".into(),
            ack: false,
        };
        assert_eq!(change_of(&ended), None);
    }

    #[test]
    fn an_end_asks_for_acknowledgement_in_a_field_an_earlier_version_ignores() {
        let asked = Message::SessionEnded {
            session: "s".into(),
            ack: true,
        };
        let json = serde_json::to_value(&asked).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"t": "session_ended", "session": "s", "ack": true})
        );
        let unasked = serde_json::json!({"t": "session_ended", "session": "s"});
        assert_eq!(
            serde_json::from_value::<Message>(unasked.clone()).unwrap(),
            Message::SessionEnded {
                session: "s".into(),
                ack: false
            }
        );
        let quiet = Message::SessionEnded {
            session: "s".into(),
            ack: false,
        };
        assert_eq!(serde_json::to_value(&quiet).unwrap(), unasked);
    }
}
