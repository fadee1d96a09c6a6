//! A result's JSON as a response holds it ([`ResultJson`]): written, or a tool's structured
//! output, written when it is sent.

use crate::wire::structured::structured_json;
use serde_json::Value;
use std::sync::OnceLock;

/// A result object's JSON, as a [`McpResponse`](super::McpResponse) holds it.
#[derive(Debug)]
pub(crate) enum ResultJson {
    /// Written already.
    Written(String),
    /// A tool's structured output (its value, wrapped as `{"result": …}` when `wrapped`):
    /// written straight into its response line when it is sent, or here the first time a
    /// layer reads it.
    Structured {
        value: Value,
        wrapped: bool,
        written: OnceLock<String>,
    },
}

impl ResultJson {
    /// Structured output `value`, not written yet.
    pub(crate) fn structured(value: Value, wrapped: bool) -> Self {
        ResultJson::Structured {
            value,
            wrapped,
            written: OnceLock::new(),
        }
    }

    /// The JSON (written now, the first time structured output is read).
    pub(crate) fn as_str(&self) -> &str {
        match self {
            ResultJson::Written(json) => json,
            ResultJson::Structured {
                value,
                wrapped,
                written,
            } => written.get_or_init(|| structured_json(value, *wrapped)),
        }
    }
}

impl From<String> for ResultJson {
    fn from(json: String) -> Self {
        ResultJson::Written(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_output_is_written_once_when_read() {
        let json = ResultJson::structured(serde_json::json!({"n": 1}), true);
        let ResultJson::Structured { written, .. } = &json else {
            unreachable!()
        };
        assert!(written.get().is_none(), "not written before it is read");
        let first = json.as_str();
        assert_eq!(
            first,
            r#"{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"result":{"n":1}}}"#
        );
        assert!(std::ptr::eq(first, json.as_str()), "written once");
        assert_eq!(ResultJson::from("{}".to_owned()).as_str(), "{}");
        let unread = ResultJson::structured(serde_json::json!(2), false);
        assert_eq!(
            unread.as_str(),
            r#"{"content":[{"type":"text","text":"2"}],"structuredContent":2}"#
        );
    }
}
