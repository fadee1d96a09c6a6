//! Request `_meta`: how a 2026-07-28 request carries its revision and capabilities, and how any
//! request asks for progress.

use super::capabilities::ClientCapabilities;
use super::implementation::Implementation;
use super::logging::LoggingLevel;
use super::progress::ProgressToken;
use super::version::{LEGACY_VERSIONS, MODERN_VERSIONS};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
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
#[derive(Debug, Default, Deserialize)]
pub struct RequestMeta {
    /// Present exactly when the request is a 2026-07-28 one. A revision this SDK knows is read
    /// as its name (nothing allocated); any other as sent.
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        deserialize_with = "version_text"
    )]
    pub protocol_version: Option<Cow<'static, str>>,
    /// Required on 2026-07-28 requests. Shared: the request's context holds it as read.
    #[serde(
        rename = "io.modelcontextprotocol/clientCapabilities",
        default,
        deserialize_with = "shared_capabilities"
    )]
    pub client_capabilities: Option<Arc<ClientCapabilities>>,
    /// Optional on 2026-07-28 requests; for display and logs only. Shared, as the
    /// capabilities.
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        default,
        deserialize_with = "shared"
    )]
    pub client_info: Option<Arc<Implementation>>,
    /// The per-request log opt-in (2026-07-28).
    #[serde(rename = "io.modelcontextprotocol/logLevel")]
    pub log_level: Option<LoggingLevel>,
    /// The opt-in to progress notifications (both revisions).
    #[serde(rename = "progressToken")]
    pub progress_token: Option<ProgressToken>,
    /// The caller's W3C trace context (`traceparent`), as the OpenTelemetry conventions for MCP
    /// carry it in `params._meta`. Read here, kept as sent, for whatever traces the request
    /// (`mcpwire::otel::Tracing`, or an application's own layer).
    #[serde(rename = "traceparent")]
    pub traceparent: Option<String>,
    /// The vendor part of the caller's W3C trace context (`tracestate`).
    #[serde(rename = "tracestate")]
    pub tracestate: Option<String>,
}

/// An optional value read into an `Arc` where it is read, so that what holds it on (the
/// request's context) takes it as it is, and `_meta` moves as a few pointers.
fn shared<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Arc<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(|value| value.map(Arc::new))
}

/// The client's capabilities, shared as [`shared`] reads a value; none declared (`{}`, what a
/// client sends on every request when it offers nothing) is one `Arc` for every request, not an
/// allocation each.
fn shared_capabilities<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Arc<ClientCapabilities>>, D::Error> {
    static NONE: std::sync::LazyLock<Arc<ClientCapabilities>> =
        std::sync::LazyLock::new(Arc::default);
    Option::<ClientCapabilities>::deserialize(deserializer).map(|read| {
        read.map(|capabilities| match capabilities.is_empty() {
            true => Arc::clone(&NONE),
            false => Arc::new(capabilities),
        })
    })
}

/// A protocol revision's name: one this SDK knows as its static name, any other as sent. Read
/// through serde's own `Option` (as [`shared`]), the string by [`RevisionName`].
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

/// Reads only `params._meta` of any request.
#[derive(Debug, Default, Deserialize)]
pub struct MetaOnly {
    /// The request's `_meta`, if any.
    #[serde(rename = "_meta", default)]
    pub meta: Option<RequestMeta>,
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
    fn capabilities_that_declare_nothing_are_one_shared_value_and_any_others_are_read_as_sent() {
        let read = |capabilities: &str| {
            let text =
                format!(r#"{{"io.modelcontextprotocol/clientCapabilities":{capabilities}}}"#);
            serde_json::from_str::<RequestMeta>(&text)
                .unwrap()
                .client_capabilities
                .unwrap()
        };
        let (first, second) = (read("{}"), read(" { } "));
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(*first, ClientCapabilities::default());
        for declared in [
            r#"{"roots":{}}"#,
            r#"{"sampling":{}}"#,
            r#"{"elicitation":{}}"#,
            r#"{"experimental":{}}"#,
        ] {
            let read = read(declared);
            assert!(!Arc::ptr_eq(&read, &first), "{declared}");
            let expected: ClientCapabilities = serde_json::from_str(declared).unwrap();
            assert_eq!(*read, expected);
        }
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
