//! What a [`SessionStore`](super::SessionStore) is told beyond whole records: a
//! [`SessionChange`] to one field of a live session (so no replica rewrites or reads back the
//! whole record for a log level), and the [`SessionCaps`] a new session is held to across the
//! fleet.

use crate::dispatch::handshake::HandshakeState;
use crate::dispatch::table::row;
use crate::protocol::methods::Method;
use crate::protocol::resources::{SubscribeParams, UnsubscribeParams};
use crate::protocol::{LoggingLevel, SetLevelParams};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// One change to a live 2025-11-25 session, as the replica that took it tells the store and
/// the other replicas (which apply it to their copies, reading nothing back).
///
/// ```
/// use mcpwire::protocol::LoggingLevel;
/// use mcpwire::transport::http::SessionChange;
///
/// let change = SessionChange::LogLevel(LoggingLevel::Error);
/// let json = serde_json::to_string(&change).unwrap();
/// assert_eq!(json, r#"{"log_level":"error"}"#);
/// assert_eq!(serde_json::from_str::<SessionChange>(&json).unwrap(), change);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SessionChange {
    /// `logging/setLevel`: the least severe level the client wants.
    LogLevel(LoggingLevel),
    /// `resources/subscribe`: the URI now subscribed to.
    Subscribed(String),
    /// `resources/unsubscribe`: the URI no longer subscribed to.
    Unsubscribed(String),
}

impl SessionChange {
    /// The change the session request `method` with `params` makes when it succeeds, if it
    /// makes one.
    pub(super) fn of_request(method: &str, params: Option<&RawValue>) -> Option<Self> {
        // The method table says which methods change a session; here, what each one changes.
        let method = Method::of(method).filter(|method| row(*method).changes_session)?;
        let params = params?.get();
        match method {
            Method::LoggingSetLevel => serde_json::from_str::<SetLevelParams>(params)
                .ok()
                .map(|p| SessionChange::LogLevel(p.level)),
            Method::ResourcesSubscribe => serde_json::from_str::<SubscribeParams>(params)
                .ok()
                .map(|p| SessionChange::Subscribed(p.uri)),
            Method::ResourcesUnsubscribe => serde_json::from_str::<UnsubscribeParams>(params)
                .ok()
                .map(|p| SessionChange::Unsubscribed(p.uri)),
            _ => None,
        }
    }

    /// `state` (a [`SessionRecord::state`](super::SessionRecord::state)) with the change
    /// made: what a store that keeps whole records writes back; `None` when `state` is
    /// unreadable.
    pub(super) fn applied_to(&self, state: &str) -> Option<String> {
        let mut state: HandshakeState = serde_json::from_str(state).ok()?;
        match self {
            SessionChange::LogLevel(level) => state.log_level = Some(*level),
            SessionChange::Subscribed(uri) => {
                if !state.subscriptions.contains(uri) {
                    state.subscriptions.push(uri.clone());
                    state.subscriptions.sort_unstable();
                }
            }
            SessionChange::Unsubscribed(uri) => state.subscriptions.retain(|kept| kept != uri),
        }
        Some(serde_json::to_string(&state).expect("states serialize"))
    }
}

/// How many sessions one caller holds across the fleet, as
/// [`SessionStore::create_capped`](super::SessionStore::create_capped) counts them: an
/// authenticated principal at most `per_principal`, the anonymous callers of one network at
/// most `per_network`. Beyond a cap, the caller's least recently used sessions are deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionCaps {
    /// The most sessions of one principal (`HttpServer::max_sessions_per_principal`).
    pub per_principal: usize,
    /// The network of an anonymous session (an IPv4 address such as `192.0.2.7`, or an IPv6
    /// /64 such as `2001:db8:1:2::/64`); `None` for a principal's session, or when the peer is
    /// unknown (then it counts against no network).
    pub network: Option<String>,
    /// The most anonymous sessions of one network (`HttpServer::max_sessions_per_network`).
    pub per_network: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_applies_to_a_whole_record_as_to_a_field() {
        let state = r#"{"protocol_version":"2025-11-25","client_capabilities":{},
            "client_info":{"name":"c","version":"1"},"log_level":null,"subscriptions":["b://"]}"#;
        let changed = SessionChange::LogLevel(LoggingLevel::Error)
            .applied_to(state)
            .unwrap();
        let changed = SessionChange::Subscribed("a://".into())
            .applied_to(&changed)
            .unwrap();
        let changed = SessionChange::Unsubscribed("b://".into())
            .applied_to(&changed)
            .unwrap();
        let state: HandshakeState = serde_json::from_str(&changed).unwrap();
        assert_eq!(state.log_level, Some(LoggingLevel::Error));
        assert_eq!(state.subscriptions, ["a://"]);
        assert!(
            SessionChange::LogLevel(LoggingLevel::Info)
                .applied_to("[")
                .is_none()
        );
    }

    #[test]
    fn the_requests_that_change_a_session_say_how() {
        let of = |method: &str, params: &str| {
            SessionChange::of_request(method, Some(&RawValue::from_string(params.into()).unwrap()))
        };
        assert_eq!(
            of("logging/setLevel", r#"{"level":"warning"}"#),
            Some(SessionChange::LogLevel(LoggingLevel::Warning))
        );
        assert_eq!(
            of("resources/subscribe", r#"{"uri":"a://"}"#),
            Some(SessionChange::Subscribed("a://".into()))
        );
        assert_eq!(
            of("resources/unsubscribe", r#"{"uri":"a://"}"#),
            Some(SessionChange::Unsubscribed("a://".into()))
        );
        assert_eq!(of("tools/call", r#"{"name":"x"}"#), None);
        assert_eq!(SessionChange::of_request("logging/setLevel", None), None);
    }
}
