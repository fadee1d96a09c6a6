//! Request `_meta`: how a 2026-07-28 request carries its revision and capabilities, and how any
//! request asks for progress.

use super::capabilities::ClientCapabilities;
use super::implementation::Implementation;
use super::interned::{self, Interned};
use super::logging::LoggingLevel;
use super::progress::ProgressToken;
use super::version::{LEGACY_VERSIONS, MODERN_VERSIONS};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

/// `_meta` key: the request's protocol revision (2026-07-28).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities for this request (2026-07-28).
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: who the client is (2026-07-28).
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key: the lowest log level the client wants for this request (2026-07-28).
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// Result `_meta` key: who the server is (2026-07-28).
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// Notification `_meta` key: the subscription a notification belongs to (2026-07-28).
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The parts of a request's `_meta` the server acts on. Everything else is ignored.
#[derive(Debug, Default)]
pub struct RequestMeta {
    /// Present exactly when the request is a 2026-07-28 one. A revision this SDK knows is read
    /// as its name (nothing allocated); any other as sent.
    pub protocol_version: Option<Cow<'static, str>>,
    /// Required on 2026-07-28 requests. Shared: the request's context holds it as read.
    pub client_capabilities: Option<Arc<ClientCapabilities>>,
    /// Optional on 2026-07-28 requests; for display and logs only. Shared, as the
    /// capabilities.
    pub client_info: Option<Arc<Implementation>>,
    /// The per-request log opt-in (2026-07-28).
    pub log_level: Option<LoggingLevel>,
    /// The opt-in to progress notifications (both revisions).
    pub progress_token: Option<ProgressToken>,
    /// The caller's W3C trace context (`traceparent`), as the OpenTelemetry conventions for MCP
    /// carry it in `params._meta`. Read here, kept as sent, for whatever traces the request
    /// (`mcpwire::otel::Tracing`, or an application's own layer).
    pub traceparent: Option<String>,
    /// The vendor part of the caller's W3C trace context (`tracestate`).
    pub tracestate: Option<String>,
}

/// `_meta` read by serde alone, its values made anew each time: the reading the tests hold
/// the server's ([`RawMeta::read`]) to. The server reads no `_meta` this way.
#[cfg(test)]
impl<'de> Deserialize<'de> for RequestMeta {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        MetaFields::<ClientCapabilities, Implementation>::deserialize(deserializer)?.into_meta(
            (
                |capabilities| Ok(Arc::new(capabilities)),
                |info| Ok(Arc::new(info)),
            ),
            (Ok, Ok),
        )
    }
}

/// `_meta`'s fields, with the client's capabilities read as `C`, who it is as `I`, the progress
/// token as `P` and the trace context's entries as `S`: their text, for the server's reading
/// ([`RawMeta`]); their own types, for the reading the tests hold it to (`RequestMeta`'s
/// `Deserialize`).
#[derive(Deserialize)]
pub(crate) struct MetaFields<C, I, P = ProgressToken, S = String> {
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        deserialize_with = "version_text"
    )]
    protocol_version: Option<Cow<'static, str>>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<C>,
    #[serde(rename = "io.modelcontextprotocol/clientInfo")]
    client_info: Option<I>,
    #[serde(rename = "io.modelcontextprotocol/logLevel")]
    log_level: Option<LoggingLevel>,
    #[serde(rename = "progressToken")]
    progress_token: Option<P>,
    traceparent: Option<S>,
    tracestate: Option<S>,
}

impl<C, I, P, S> MetaFields<C, I, P, S> {
    /// The `_meta` these fields make, the capabilities and the client's identity shared as
    /// `capabilities` and `info` make them, the progress token and the trace context's entries
    /// as `progress` and `text` read them (`Err` when one of them fails).
    fn into_meta<E>(
        self,
        (capabilities, info): (
            impl FnOnce(C) -> Result<Arc<ClientCapabilities>, E>,
            impl FnOnce(I) -> Result<Arc<Implementation>, E>,
        ),
        (progress, text): (
            impl FnOnce(P) -> Result<ProgressToken, E>,
            impl Fn(S) -> Result<String, E>,
        ),
    ) -> Result<RequestMeta, E> {
        Ok(RequestMeta {
            protocol_version: self.protocol_version,
            client_capabilities: self.client_capabilities.map(capabilities).transpose()?,
            client_info: self.client_info.map(info).transpose()?,
            log_level: self.log_level,
            progress_token: self.progress_token.map(progress).transpose()?,
            traceparent: self.traceparent.map(&text).transpose()?,
            tracestate: self.tracestate.map(&text).transpose()?,
        })
    }
}

/// `_meta` as the server reads it from a request's text: the client's capabilities and who it
/// is kept as their text until [`RawMeta::read`], which shares their values with the recent
/// requests that sent the same ([`interned`]), since a 2026-07-28 client sends both again with
/// every request. The progress token and the trace context, seldom sent, are kept as their text
/// too, and read then: a reading of `_meta` is moved through several functions whole, and their
/// text is smaller to move than their values.
pub(crate) type RawMeta<'a> = MetaFields<&'a RawValue, &'a RawValue, &'a RawValue, &'a RawValue>;

thread_local! {
    static SHARED_CAPABILITIES: RefCell<Interned<ClientCapabilities>> = RefCell::default();
    static SHARED_CLIENT_INFO: RefCell<Interned<Implementation>> = RefCell::default();
}

impl RawMeta<'_> {
    /// The request's `_meta`, exactly as [`RequestMeta`]'s own reading of the same text gives
    /// it; `None` where that reading fails (the capabilities or the client's identity do not
    /// read as theirs).
    pub(crate) fn read(self) -> Option<RequestMeta> {
        self.into_meta(
            (
                |raw| interned::read(&SHARED_CAPABILITIES, raw),
                |raw| interned::read(&SHARED_CLIENT_INFO, raw),
            ),
            (
                |raw| serde_json::from_str(raw.get()),
                |raw| serde_json::from_str(raw.get()),
            ),
        )
        .ok()
    }

    /// `_meta` as [`RawMeta::read`] gives it, an absent one read as empty.
    pub(crate) fn read_or_empty(meta: Option<Self>) -> Option<RequestMeta> {
        meta.map_or_else(|| Some(RequestMeta::default()), RawMeta::read)
    }
}

/// A protocol revision's name: one this SDK knows as its static name, any other as sent. Read
/// through serde's own `Option`, the string by [`RevisionName`].
fn version_text<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Cow<'static, str>>, D::Error> {
    Option::<RevisionName>::deserialize(deserializer).map(|name| name.map(|name| name.0))
}

/// A revision's name, read without keeping the text when it names a known revision.
struct RevisionName(Cow<'static, str>);

impl<'de> Deserialize<'de> for RevisionName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Reads the string.
        struct Text;

        impl serde::de::Visitor<'_> for Text {
            type Value = RevisionName;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a protocol revision's name")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<RevisionName, E> {
                let known = MODERN_VERSIONS.iter().chain(LEGACY_VERSIONS);
                Ok(RevisionName(
                    match known.copied().find(|name| *name == text) {
                        Some(name) => Cow::Borrowed(name),
                        None => Cow::Owned(text.to_owned()),
                    },
                ))
            }
        }

        deserializer.deserialize_str(Text)
    }
}

/// The W3C trace context a request carried in `params._meta` (`traceparent`, and `tracestate`
/// when sent), as sent: nothing parses it until something traces the request
/// ([`Context::trace_context`](crate::Context::trace_context)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceContext {
    /// `traceparent`, as sent.
    pub traceparent: String,
    /// `tracestate`, as sent.
    pub tracestate: Option<String>,
}

impl TraceContext {
    /// The trace context of a `_meta` with these entries; `None` without a `traceparent`.
    pub fn of(traceparent: Option<String>, tracestate: Option<String>) -> Option<Self> {
        traceparent.map(|traceparent| Self {
            traceparent,
            tracestate,
        })
    }
}

/// Reads only `params._meta` of any request, through [`RequestMeta`]'s own reading: what the
/// tests hold the server's reading ([`RawMetaOnly`]) to.
#[cfg(test)]
#[derive(Debug, Default, Deserialize)]
pub struct MetaOnly {
    /// The request's `_meta`, if any.
    #[serde(rename = "_meta", default)]
    pub meta: Option<RequestMeta>,
}

/// Reads only `params._meta` of a request's text, as the server reads it ([`RawMeta`]).
#[derive(Deserialize)]
pub(crate) struct RawMetaOnly<'a> {
    /// The request's `_meta`, if any.
    #[serde(rename = "_meta", default, borrow)]
    pub(crate) meta: Option<RawMeta<'a>>,
}

impl RawMetaOnly<'_> {
    /// The `_meta` of the request's `params` text (empty when it has none); `None` when it is
    /// malformed, as [`MetaOnly`] would fail to read it.
    pub(crate) fn read(text: &str) -> Option<RequestMeta> {
        let only = serde_json::from_str::<RawMetaOnly<'_>>(text).ok()?;
        RawMeta::read_or_empty(only.meta)
    }
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn meta() {
        use serde_json::json;

        let mut result_meta = serde_json::Map::new();
        result_meta.insert(
            meta::SERVER_INFO.into(),
            json!({"name": "bookshop", "version": "1.0.0"}),
        );
        assert_eq!(
            serde_json::Value::Object(result_meta),
            json!({"io.modelcontextprotocol/serverInfo": {"name": "bookshop", "version": "1.0.0"}})
        );
        let keys = [
            meta::PROTOCOL_VERSION,
            meta::CLIENT_CAPABILITIES,
            meta::CLIENT_INFO,
            meta::LOG_LEVEL,
        ];
        for key in keys.into_iter().chain([meta::SUBSCRIPTION_ID]) {
            assert!(key.starts_with("io.modelcontextprotocol/"));
        }
    }

    #[test]
    fn meta_requestmeta() {
        use serde_json::json;

        let meta: RequestMeta = serde_json::from_value(json!({
            "io.modelcontextprotocol/logLevel": "warning",
            "io.modelcontextprotocol/clientInfo": {"name": "cli", "version": "2.0"}
        }))
        .unwrap();
        assert_eq!(meta.log_level, Some(LoggingLevel::Warning));
        assert_eq!(meta.client_info.unwrap().name, "cli");
        assert!(meta.protocol_version.is_none());
    }

    #[test]
    fn a_known_revision_is_read_as_its_static_name_and_any_other_as_sent() {
        use serde_json::json;
        use std::borrow::Cow;

        let read = |version: serde_json::Value| {
            serde_json::from_value::<RequestMeta>(
                json!({ "io.modelcontextprotocol/protocolVersion": version }),
            )
            .map(|meta| meta.protocol_version)
        };
        for known in ["2026-07-28", "2025-11-25", "2025-03-26"] {
            assert!(
                matches!(read(json!(known)).unwrap(), Some(Cow::Borrowed(name)) if name == known)
            );
        }
        assert!(
            matches!(read(json!("2099-01-01")).unwrap(), Some(Cow::Owned(name)) if name == "2099-01-01")
        );
        // From text too (a borrowed string, and one with an escape).
        let meta: RequestMeta = serde_json::from_str(
            r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-\u0032\u0038"}"#,
        )
        .unwrap();
        assert!(matches!(
            meta.protocol_version,
            Some(Cow::Borrowed("2026-07-28"))
        ));
        assert_eq!(read(json!(null)).unwrap(), None);
        assert_eq!(
            serde_json::from_value::<RequestMeta>(json!({}))
                .unwrap()
                .protocol_version,
            None
        );
        assert!(read(json!(20260728)).is_err(), "a revision is a string");
    }

    #[test]
    fn the_server_reads_meta_as_its_own_reading_does_and_shares_what_clients_send_again() {
        let texts = [
            r#"{}"#,
            r#"{"_meta":{}}"#,
            r#"{"_meta":null}"#,
            r#"{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"cli","version":"2.0"},"io.modelcontextprotocol/logLevel":"info","progressToken":"p","traceparent":"00-a-b-01","tracestate":"k=v","other":[1]}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":null,"io.modelcontextprotocol/clientInfo":null}}"#,
            // What the reading refuses, it refuses the same way.
            r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":5}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/clientInfo":{"version":"1"}}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":1,"roots":2}}}"#,
            r#"{"_meta":{"progressToken":[]}}"#,
            // The progress token and the trace context, read as their own readings read them.
            r#"{"_meta":{"progressToken":7,"traceparent":"00-a\u0062-c","tracestate":null}}"#,
            r#"{"_meta":{"progressToken":"p\"q","tracestate":"k=\u0076"}}"#,
            r#"{"_meta":{"progressToken":1.5}}"#,
            r#"{"_meta":{"progressToken":null,"traceparent":null}}"#,
            r#"{"_meta":{"traceparent":5}}"#,
            r#"{"_meta":{"tracestate":{}}}"#,
            r#"{"_meta":{"traceparent":"a","traceparent":"b"}}"#,
            r#"{"_meta":5}"#,
            r#"[1]"#,
        ];
        for text in texts {
            let own = serde_json::from_str::<MetaOnly>(text)
                .ok()
                .map(|only| only.meta.unwrap_or_default());
            assert_eq!(
                format!("{:?}", RawMetaOnly::read(text)),
                format!("{own:?}"),
                "{text}"
            );
        }
        let read = |text: &str| RawMetaOnly::read(text).unwrap();
        let sent = texts[3];
        let (first, again) = (read(sent), read(sent));
        assert!(Arc::ptr_eq(
            first.client_capabilities.as_ref().unwrap(),
            again.client_capabilities.as_ref().unwrap()
        ));
        assert!(Arc::ptr_eq(
            first.client_info.as_ref().unwrap(),
            again.client_info.as_ref().unwrap()
        ));
        // Another client's capabilities are its own.
        let other =
            read(r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}"#);
        assert!(other.client_capabilities.unwrap().roots());
    }

    #[test]
    fn meta_metaonly() {
        use serde_json::json;

        let params: MetaOnly = serde_json::from_value(json!({
            "name": "search",
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"roots": {}},
                "progressToken": 5
            }
        }))
        .unwrap();
        let meta = params.meta.unwrap();
        assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
        assert!(meta.client_capabilities.unwrap().roots());
        assert_eq!(meta.progress_token, Some(ProgressToken::Number(5)));
    }
}
