//! [`ToolOutput`]: what a tool call gives the server to send, built as a [`CallToolResult`]
//! or already written as JSON.

use crate::layer::ResultJson;
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
    /// The result's JSON (an object, as [`CallToolResult`] serializes it), as a response holds
    /// it: written (a result passed on from another server), or structured output written when
    /// it is sent; and its `isError`.
    Json {
        json: ResultJson,
        is_error: bool,
    },
}

impl ToolOutput {
    /// Whether the result is an `isError` one.
    pub fn is_error(&self) -> bool {
        match &self.0 {
            Form::Built(result) => result.is_error == Some(true),
            Form::Json { is_error, .. } => *is_error,
        }
    }

    /// The result as a [`CallToolResult`] (read back from its JSON when it was written). A
    /// written result this SDK cannot read (one passed on from another server, with a kind of
    /// content block it does not know) becomes an `isError` result saying so.
    pub fn into_result(self) -> CallToolResult {
        let json = match self.0 {
            Form::Built(result) => return result,
            Form::Json { json, .. } => json,
        };
        serde_json::from_str(json.as_str()).unwrap_or_else(|error| {
            tracing::warn!(%error, "a tool's written result could not be read back");
            CallToolResult::error("the tool's result could not be read")
        })
    }

    /// The result's JSON, as [`CallToolResult`] serializes it (what the tests compare).
    #[cfg(test)]
    pub(crate) fn into_json(self) -> String {
        self.into_result_json().as_str().to_owned()
    }

    /// The result of structured output `value`: its JSON text as the one content block, and
    /// the value as `structuredContent` (wrapped as `{"result": …}` when `wrapped`). Written
    /// when it is sent: straight into the response line on the common way, with no result
    /// written apart first.
    pub(crate) fn structured(value: Value, wrapped: bool) -> Self {
        Self(Form::Json {
            json: ResultJson::structured(value, wrapped),
            is_error: false,
        })
    }

    /// The result's JSON as a response holds it: structured output not written yet.
    pub(crate) fn into_result_json(self) -> ResultJson {
        match self.0 {
            Form::Built(result) => serde_json::to_string(&result)
                .expect("results serialize")
                .into(),
            Form::Json { json, .. } => json,
        }
    }

    /// A result already written: `json` is a `CallToolResult`'s JSON (an object whose
    /// `content` is an array of content blocks), and `is_error` its `isError`.
    #[cfg(any(test, feature = "gateway"))]
    pub(crate) fn written(json: String, is_error: bool) -> Self {
        Self(Form::Json {
            json: json.into(),
            is_error,
        })
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
                let written = ToolOutput::structured(value.clone(), wrapped);
                assert!(!written.is_error());
                let json = written.into_json();
                assert_eq!(json, built(&value, wrapped), "{value} wrapped: {wrapped}");
                // Read back as the built result's JSON reads.
                let read = ToolOutput::structured(value.clone(), wrapped).into_result();
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
