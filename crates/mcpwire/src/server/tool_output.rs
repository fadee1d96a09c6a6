//! [`ToolOutput`]: what a tool call gives the server to send, built as a [`CallToolResult`]
//! or already written as JSON.

use crate::protocol::tools::CallToolResult;
use serde_json::Value;

/// A tool call's result on its way to the client: a [`CallToolResult`], or the JSON of one,
/// written where the result was made (a tool's structured output is written straight from its
/// value, with no `CallToolResult`, map or content block in between). Read back into a
/// `CallToolResult` only where one is needed (an interceptor's, a task's).
///
/// Made by a `#[tool]` function's generated code, and by hand with `From<CallToolResult>`.
///
/// # Examples
///
/// ```
/// use mcpwire::CallToolResult;
/// use mcpwire::server::ToolOutput;
///
/// let output = ToolOutput::from(CallToolResult::error("out of stock"));
/// assert!(output.is_error());
/// assert_eq!(output.into_result(), CallToolResult::error("out of stock"));
/// ```
#[derive(Debug)]
pub struct ToolOutput(Form);

#[derive(Debug)]
enum Form {
    Built(CallToolResult),
    /// The result's JSON: an object, as [`CallToolResult`] serializes it.
    Written {
        json: String,
        is_error: bool,
    },
}

impl ToolOutput {
    /// Whether the result is an `isError` one.
    pub fn is_error(&self) -> bool {
        match &self.0 {
            Form::Built(result) => result.is_error == Some(true),
            Form::Written { is_error, .. } => *is_error,
        }
    }

    /// The result as a [`CallToolResult`] (read back from its JSON when it was written). A
    /// written result this SDK cannot read (one passed on from another server, with a kind of
    /// content block it does not know) becomes an `isError` result saying so.
    pub fn into_result(self) -> CallToolResult {
        match self.0 {
            Form::Built(result) => result,
            Form::Written { json, .. } => serde_json::from_str(&json).unwrap_or_else(|error| {
                tracing::warn!(%error, "a tool's written result could not be read back");
                CallToolResult::error("the tool's result could not be read")
            }),
        }
    }

    /// The result's JSON, as [`CallToolResult`] serializes it.
    pub(crate) fn into_json(self) -> String {
        match self.0 {
            Form::Built(result) => serde_json::to_string(&result).expect("results serialize"),
            Form::Written { json, .. } => json,
        }
    }

    /// The result of structured output `value`: its JSON text as the one content block, and
    /// the value as `structuredContent` (wrapped as `{"result": …}` when `wrapped`); what
    /// serializing that `CallToolResult` writes, byte for byte.
    ///
    /// Written into one buffer: the value's JSON text first where the content block's text goes,
    /// then copied to where `structuredContent` goes, and escaped back into its place.
    pub(crate) fn structured(value: &Value, wrapped: bool) -> Self {
        const HEAD: &[u8] = br#"{"content":[{"type":"text","text":""#;
        let (middle, tail): (&[u8], &[u8]) = if wrapped {
            (br#""}],"structuredContent":{"result":"#, b"}}")
        } else {
            (br#""}],"structuredContent":"#, b"}")
        };
        let mut json = Vec::with_capacity(128);
        json.extend_from_slice(HEAD);
        let start = json.len();
        serde_json::to_writer(&mut json, value).expect("a Value serializes");
        let text = json.len() - start;
        // Serialized JSON holds no raw control characters, and serde_json escapes nothing else
        // in a string: escaping the text as a string escapes its quotes and backslashes only.
        let escaped = |b: &u8| matches!(b, b'"' | b'\\');
        let escapes = json[start..].iter().filter(|b| escaped(b)).count();
        let middle_at = start + text + escapes;
        let raw_at = middle_at + middle.len();
        json.resize(raw_at + text, 0);
        json.copy_within(start..start + text, raw_at);
        json[middle_at..raw_at].copy_from_slice(middle);
        let (front, raw) = json.split_at_mut(raw_at);
        let mut at = start;
        for &byte in raw.iter() {
            if escaped(&byte) {
                front[at] = b'\\';
                at += 1;
            }
            front[at] = byte;
            at += 1;
        }
        debug_assert_eq!(at, middle_at);
        json.extend_from_slice(tail);
        let json = String::from_utf8(json).expect("serde_json writes UTF-8");
        Self::written(json, false)
    }

    /// A result already written: `json` is a `CallToolResult`'s JSON (an object whose
    /// `content` is an array of content blocks), and `is_error` its `isError`.
    pub(crate) fn written(json: String, is_error: bool) -> Self {
        Self(Form::Written { json, is_error })
    }
}

impl From<CallToolResult> for ToolOutput {
    fn from(result: CallToolResult) -> Self {
        Self(Form::Built(result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::content::Content;
    use serde_json::json;

    /// What the result of structured output was written as when it was built first.
    fn built(value: &Value, wrapped: bool) -> String {
        let result = CallToolResult {
            content: vec![Content::text(value.to_string())],
            structured_content: Some(if wrapped {
                json!({ "result": value })
            } else {
                value.clone()
            }),
            is_error: None,
        };
        serde_json::to_string(&result).unwrap()
    }

    #[test]
    fn structured_output_is_written_as_its_built_result_serializes() {
        for value in [
            json!(5),
            json!(-1.5),
            json!(null),
            json!("a \"quoted\" line\nand a tab\t, é, \u{1F600} and \\"),
            json!([1, "two", {"three": [3]}]),
            json!({"title": "Dune", "copies": 2, "tags": ["sf"], "nested": {"b": 1, "a": 2}}),
            json!({}),
            json!({"k\"ey\\": ["\\\\", "\"\"", {"long": "y\"".repeat(300)}]}),
        ] {
            for wrapped in [false, true] {
                let written = ToolOutput::structured(&value, wrapped);
                assert!(!written.is_error());
                let json = written.into_json();
                assert_eq!(json, built(&value, wrapped), "{value} wrapped: {wrapped}");
                // Read back as the built result's JSON reads.
                let read = ToolOutput::structured(&value, wrapped).into_result();
                let expected: CallToolResult = serde_json::from_str(&json).unwrap();
                assert_eq!(read, expected);
            }
        }
    }

    #[test]
    fn a_written_result_that_cannot_be_read_back_becomes_an_error_result() {
        let newer = r#"{"content":[{"type":"hologram","data":"x"}]}"#;
        let read = ToolOutput::written(newer.to_owned(), false).into_result();
        assert_eq!(
            read,
            CallToolResult::error("the tool's result could not be read")
        );
    }

    #[test]
    fn a_built_result_is_written_as_it_serializes() {
        let result = CallToolResult::error("no");
        let output = ToolOutput::from(result.clone());
        assert!(output.is_error());
        assert_eq!(output.into_json(), serde_json::to_string(&result).unwrap());
    }
}
