//! A request's `_meta` as the client writes it, as JSON text: the 2026-07-28 entries every
//! request of a connection carries (the revision, the client's capabilities and who it is),
//! written once per revision (and per capabilities a call declares instead) and reused; then the
//! call's own (its log level, its progress token) and whatever `_meta` the caller's params
//! carried, each written as it comes.

use crate::protocol::LoggingLevel;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::meta;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex};

/// The 2026-07-28 entries of a connection's requests, written once per revision: the text of
/// `"…protocolVersion":…,"…clientCapabilities":…,"…clientInfo":…`, without braces. Calls
/// that declare capabilities of their own (a gateway's, on behalf of each caller) have theirs
/// written once per capabilities, the last ones kept.
#[derive(Default)]
pub(crate) struct FixedEntries {
    /// With the client's own capabilities, by revision.
    own: LastWritten<String>,
    /// With the capabilities the last call that declared some declared, by revision and those.
    declared: LastWritten<(String, ClientCapabilities)>,
}

impl FixedEntries {
    /// The entries for `version`, written by `write` the first time (and again only when the
    /// revision changes).
    pub(crate) fn of(&self, version: &str, write: impl FnOnce() -> String) -> Arc<str> {
        self.own
            .get_or_write(|written| written == version, || version.to_owned(), write)
    }

    /// The entries for `version` of a call that declares `capabilities`, written by `write`
    /// unless the last such call declared the same.
    pub(crate) fn declared(
        &self,
        version: &str,
        capabilities: &ClientCapabilities,
        write: impl FnOnce() -> String,
    ) -> Arc<str> {
        self.declared.get_or_write(
            |(written, declared)| written == version && declared == capabilities,
            || (version.to_owned(), capabilities.clone()),
            write,
        )
    }
}

/// A text written for a key, the last one kept.
struct LastWritten<K>(Mutex<Option<(K, Arc<str>)>>);

impl<K> Default for LastWritten<K> {
    fn default() -> Self {
        Self(Mutex::new(None))
    }
}

impl<K> LastWritten<K> {
    /// The text kept when its key is the one `matches` accepts; else `write`'s, kept under the
    /// key `key` makes.
    fn get_or_write(
        &self,
        matches: impl FnOnce(&K) -> bool,
        key: impl FnOnce() -> K,
        write: impl FnOnce() -> String,
    ) -> Arc<str> {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((written_for, text)) = &*kept
            && matches(written_for)
        {
            return text.clone();
        }
        let text: Arc<str> = write().into();
        *kept = Some((key(), text.clone()));
        text
    }
}

/// The text of the 2026-07-28 entries for `version`, `capabilities` and `info` (each already
/// JSON).
pub(crate) fn fixed_entries(version: &str, capabilities: &Value, info: &Value) -> String {
    let mut out = Vec::with_capacity(160);
    write_entry(&mut out, meta::PROTOCOL_VERSION, version);
    out.push(b',');
    write_entry(&mut out, meta::CLIENT_CAPABILITIES, capabilities);
    out.push(b',');
    write_entry(&mut out, meta::CLIENT_INFO, info);
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// A request's `_meta`: what the caller's params carried (`own`), and what the client adds,
/// each of which replaces the caller's entry of the same name.
#[derive(Default)]
pub(crate) struct OutgoingMeta {
    /// The caller's own `_meta`, when it was an object.
    pub(crate) own: Map<String, Value>,
    /// The 2026-07-28 entries ([`fixed_entries`]).
    pub(crate) fixed: Option<Arc<str>>,
    /// The call's log level (2026-07-28).
    pub(crate) log_level: Option<LoggingLevel>,
    /// The call's progress token.
    pub(crate) progress_token: Option<i64>,
}

impl OutgoingMeta {
    /// Whether `_meta` has no entry at all (it is then left out).
    pub(crate) fn is_empty(&self) -> bool {
        self.own.is_empty()
            && self.fixed.is_none()
            && self.log_level.is_none()
            && self.progress_token.is_none()
    }

    /// Writes `_meta`'s object to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        let mut first = true;
        let mut comma = |out: &mut Vec<u8>| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
        };
        for (key, value) in &self.own {
            if self.replaces(key) {
                continue;
            }
            comma(out);
            write_entry(out, key, value);
        }
        if let Some(fixed) = &self.fixed {
            comma(out);
            out.extend_from_slice(fixed.as_bytes());
        }
        if let Some(level) = &self.log_level {
            comma(out);
            write_entry(out, meta::LOG_LEVEL, level);
        }
        if let Some(token) = &self.progress_token {
            comma(out);
            write_entry(out, "progressToken", token);
        }
        out.push(b'}');
    }

    /// Whether the client writes an entry `key` itself.
    fn replaces(&self, key: &str) -> bool {
        match key {
            meta::PROTOCOL_VERSION | meta::CLIENT_CAPABILITIES | meta::CLIENT_INFO => {
                self.fixed.is_some()
            }
            meta::LOG_LEVEL => self.log_level.is_some(),
            "progressToken" => self.progress_token.is_some(),
            _ => false,
        }
    }
}

/// Writes `"key":value`.
fn write_entry<T: Serialize + ?Sized>(out: &mut Vec<u8>, key: &str, value: &T) {
    serde_json::to_writer(&mut *out, key).expect("a string serializes");
    out.push(b':');
    // Strings, numbers, a level and `Value`s: none fails to serialize.
    serde_json::to_writer(&mut *out, value).expect("a _meta entry serializes");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(meta: &OutgoingMeta) -> Value {
        let mut out = Vec::new();
        meta.write(&mut out);
        serde_json::from_slice(&out).expect("JSON")
    }

    #[test]
    fn the_client_s_entries_replace_the_caller_s_and_the_rest_pass() {
        let own = json!({"progressToken": "theirs", "trace": {"id": 1}, "io.modelcontextprotocol/logLevel": "debug"});
        let fixed = fixed_entries(
            "2026-07-28",
            &json!({"roots": {}}),
            &json!({"name": "c", "version": "1"}),
        );
        let meta = OutgoingMeta {
            own: own.as_object().unwrap().clone(),
            fixed: Some(fixed.into()),
            log_level: None,
            progress_token: Some(7),
        };
        assert_eq!(
            written(&meta),
            json!({
                "trace": {"id": 1},
                "io.modelcontextprotocol/logLevel": "debug",
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"roots": {}},
                "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
                "progressToken": 7
            })
        );
        let meta = OutgoingMeta {
            log_level: Some(LoggingLevel::Info),
            ..meta
        };
        assert_eq!(written(&meta)["io.modelcontextprotocol/logLevel"], "info");
        assert!(OutgoingMeta::default().is_empty());
        assert_eq!(written(&OutgoingMeta::default()), json!({}));
    }

    #[test]
    fn the_fixed_entries_are_written_once_per_revision() {
        let entries = FixedEntries::default();
        let mut writes = 0;
        for version in ["2026-07-28", "2026-07-28", "2027-01-01", "2027-01-01"] {
            let text = entries.of(version, || {
                writes += 1;
                fixed_entries(version, &json!({}), &json!({}))
            });
            assert!(text.contains(version));
        }
        assert_eq!(writes, 2);
    }

    #[test]
    fn a_call_s_declared_capabilities_are_written_once_until_they_change() {
        let entries = FixedEntries::default();
        let roots = ClientCapabilities {
            roots: Some(json!({})),
            ..ClientCapabilities::default()
        };
        let none = ClientCapabilities::default();
        let mut writes = Vec::new();
        for (version, declared) in [
            ("2026-07-28", &roots),
            ("2026-07-28", &roots),
            ("2026-07-28", &none),
            ("2027-01-01", &none),
            ("2027-01-01", &none),
        ] {
            let text = entries.declared(version, declared, || {
                writes.push((version, declared.clone()));
                let capabilities = serde_json::to_value(declared).unwrap();
                fixed_entries(version, &capabilities, &json!({}))
            });
            let read: Value = serde_json::from_str(&format!("{{{text}}}")).unwrap();
            assert_eq!(read[meta::PROTOCOL_VERSION], version);
            assert_eq!(
                read[meta::CLIENT_CAPABILITIES],
                serde_json::to_value(declared).unwrap()
            );
        }
        assert_eq!(writes.len(), 3, "{writes:?}");
        // The client's own entries are apart: not replaced by a call's.
        assert!(entries.of("2026-07-28", || "own".into()).contains("own"));
    }
}
