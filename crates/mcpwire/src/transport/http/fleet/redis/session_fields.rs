//! A session record as the fields of a Redis hash, so a change to one (a log level, a
//! subscription) is written alone and nobody reads the record back for it:
//!
//! | field | what |
//! |---|---|
//! | `p` | the principal (absent: anonymous) |
//! | `c` | created, ms since the Unix epoch |
//! | `h` | the handshake: the state's other members (revision, client capabilities and info), JSON |
//! | `l` | the log level, JSON (absent: none set) |
//! | `u:{uri}` | one per subscription |
//! | `n` | the hash of an anonymous session's network (its cap's set) |

use super::super::super::session_change::SessionChange;
use super::super::super::shared::{SessionRecord, Unavailable};
use serde_json::{Map, Value};
use std::collections::HashMap;

const LOG_LEVEL: &str = "log_level";
const SUBSCRIPTIONS: &str = "subscriptions";
const SUBSCRIPTION: &str = "u:";

/// The fields of `record` (its network aside).
pub(super) fn fields_of(record: &SessionRecord) -> Result<Vec<(String, String)>, Unavailable> {
    let mut state: Map<String, Value> = serde_json::from_str(&record.state)
        .map_err(|_| Unavailable::new("a session state that is no JSON object"))?;
    let mut fields = vec![("c".to_owned(), record.created_at_ms.to_string())];
    if let Some(principal) = &record.principal {
        fields.push(("p".to_owned(), principal.clone()));
    }
    match state.remove(LOG_LEVEL) {
        None | Some(Value::Null) => {}
        Some(level) => fields.push(("l".to_owned(), level.to_string())),
    }
    if let Some(Value::Array(uris)) = state.remove(SUBSCRIPTIONS) {
        for uri in uris.iter().filter_map(Value::as_str) {
            fields.push((format!("{SUBSCRIPTION}{uri}"), String::new()));
        }
    }
    fields.push(("h".to_owned(), Value::Object(state).to_string()));
    Ok(fields)
}

/// The record of session `id` from its fields; `None` when there are none (it is gone).
pub(super) fn record_of(
    id: &str,
    mut fields: HashMap<String, String>,
) -> Result<Option<SessionRecord>, Unavailable> {
    if fields.is_empty() {
        return Ok(None);
    }
    let broken = || Unavailable::new("an unreadable session record");
    let handshake = fields.remove("h").ok_or_else(broken)?;
    let mut state: Map<String, Value> = serde_json::from_str(&handshake).map_err(|_| broken())?;
    let level = match fields.remove("l") {
        Some(level) => serde_json::from_str(&level).map_err(|_| broken())?,
        None => Value::Null,
    };
    state.insert(LOG_LEVEL.to_owned(), level);
    let mut uris: Vec<&str> = fields
        .keys()
        .filter_map(|field| field.strip_prefix(SUBSCRIPTION))
        .collect();
    uris.sort_unstable();
    state.insert(SUBSCRIPTIONS.to_owned(), uris.into());
    let created_at_ms = fields
        .get("c")
        .and_then(|c| c.parse().ok())
        .ok_or_else(broken)?;
    Ok(Some(SessionRecord {
        id: id.to_owned(),
        principal: fields.get("p").cloned(),
        created_at_ms,
        state: Value::Object(state).to_string(),
    }))
}

/// What `change` does to the fields: (`set` or `del`, field, value).
pub(super) fn write_of(change: &SessionChange) -> (&'static str, String, String) {
    match change {
        SessionChange::LogLevel(level) => (
            "set",
            "l".to_owned(),
            serde_json::to_string(level).expect("levels serialize"),
        ),
        SessionChange::Subscribed(uri) => ("set", format!("{SUBSCRIPTION}{uri}"), String::new()),
        SessionChange::Unsubscribed(uri) => ("del", format!("{SUBSCRIPTION}{uri}"), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::LoggingLevel;

    #[test]
    fn a_record_comes_back_from_its_fields_and_changes_as_a_field() {
        let record = SessionRecord {
            id: "9f".into(),
            principal: Some("alice".into()),
            created_at_ms: 42,
            state: r#"{"protocol_version":"2025-11-25","client_capabilities":{"x":1},"client_info":{"name":"c","version":"1"},"log_level":"info","subscriptions":["b://","a://"]}"#.into(),
        };
        let mut fields: HashMap<String, String> = fields_of(&record).unwrap().into_iter().collect();
        assert_eq!(fields["l"], r#""info""#);
        assert!(fields.contains_key("u:a://") && fields.contains_key("u:b://"));
        let (op, field, value) = write_of(&SessionChange::LogLevel(LoggingLevel::Error));
        assert_eq!(op, "set");
        fields.insert(field, value);
        let (op, field, _) = write_of(&SessionChange::Unsubscribed("b://".into()));
        assert_eq!(op, "del");
        fields.remove(&field);
        let back = record_of("9f", fields).unwrap().unwrap();
        let state: Value = serde_json::from_str(&back.state).unwrap();
        assert_eq!(state["log_level"], "error");
        assert_eq!(state["subscriptions"], serde_json::json!(["a://"]));
        assert_eq!(state["client_capabilities"]["x"], 1);
        assert_eq!(
            (back.principal.as_deref(), back.created_at_ms),
            (Some("alice"), 42)
        );
        assert!(record_of("9f", HashMap::new()).unwrap().is_none());
    }
}
