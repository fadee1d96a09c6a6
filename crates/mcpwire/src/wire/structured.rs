//! A tool's structured output as its result is written ([`StructuredResult`]): the value's
//! JSON text once as the one content block's string and once as `structuredContent`, written
//! where it is sent (into a response line, or a result's own JSON), from one serialization of
//! the value.

use serde_json::Value;

/// A structured result, as it is written: `{"content":[{"type":"text","text":"<text>"}],
/// "structuredContent":<text>}` (`{"result":<text>}` when wrapped), the value's JSON text once
/// as the content block's string and once as itself; what serializing that `CallToolResult`
/// writes, byte for byte.
pub(crate) struct StructuredResult<'t> {
    /// The value's JSON text.
    text: &'t str,
    /// How many of its bytes are escaped in the content block's string.
    escapes: usize,
    wrapped: bool,
}

/// What comes before the text in the content block's string.
const OPEN: &str = r#"{"content":[{"type":"text","text":""#;

impl StructuredResult<'_> {
    /// What ends the content block, before the value itself.
    fn middle(&self) -> &'static str {
        match self.wrapped {
            true => r#""}],"structuredContent":{"result":"#,
            false => r#""}],"structuredContent":"#,
        }
    }

    /// The length of what [`StructuredResult::write_open`] writes.
    pub(crate) fn open_len(&self) -> usize {
        OPEN.len()
            + 2 * self.text.len()
            + self.escapes
            + self.middle().len()
            + self.wrapped as usize
    }

    /// Appends the result to `out`, all but its closing brace (a response line puts its own
    /// fields before it).
    pub(crate) fn write_open(&self, out: &mut String) {
        out.push_str(OPEN);
        // Serialized JSON holds no raw control characters, and serde_json escapes nothing else
        // in a string: escaping the text as a string escapes its quotes and backslashes only.
        let mut rest = self.text;
        if self.escapes > 0 {
            while let Some(at) = rest.find(['"', '\\']) {
                out.push_str(&rest[..at]);
                out.push('\\');
                out.push_str(&rest[at..=at]);
                rest = &rest[at + 1..];
            }
        }
        out.push_str(rest);
        out.push_str(self.middle());
        out.push_str(self.text);
        if self.wrapped {
            out.push('}');
        }
    }
}

/// Runs `write` on the structured result of `value` (wrapped as `{"result": …}` when
/// `wrapped`). A short value's text is written on the stack, a longer one's apart.
pub(crate) fn with_structured<R>(
    value: &Value,
    wrapped: bool,
    write: impl FnOnce(StructuredResult<'_>) -> R,
) -> R {
    let mut short = [0u8; 128];
    let mut cursor = std::io::Cursor::new(&mut short[..]);
    let longer;
    let text = match serde_json::to_writer(&mut cursor, value) {
        Ok(()) => {
            let written = cursor.position() as usize;
            std::str::from_utf8(&short[..written]).expect("serde_json writes UTF-8")
        }
        Err(_) => {
            longer = serde_json::to_string(value).expect("a Value serializes");
            longer.as_str()
        }
    };
    let escapes = text.bytes().filter(|b| matches!(b, b'"' | b'\\')).count();
    write(StructuredResult {
        text,
        escapes,
        wrapped,
    })
}

/// The JSON of the structured result of `value` (wrapped as `{"result": …}` when `wrapped`),
/// written apart.
pub(crate) fn structured_json(value: &Value, wrapped: bool) -> String {
    with_structured(value, wrapped, |result| {
        let mut json = String::with_capacity(result.open_len() + 1);
        result.write_open(&mut json);
        json.push('}');
        json
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result of a string value whose JSON text is `n` bytes long, written as it is meant
    /// to be.
    fn expected(n: usize, wrapped: bool) -> String {
        let text = format!("\"{}\"", "x".repeat(n - 2));
        let escaped = text.replace('"', "\\\"");
        let structured = match wrapped {
            true => format!(r#"{{"result":{text}}}"#),
            false => text,
        };
        format!(
            r#"{{"content":[{{"type":"text","text":"{escaped}"}}],"structuredContent":{structured}}}"#
        )
    }

    #[test]
    fn a_value_is_written_the_same_whether_its_text_fits_on_the_stack_or_not() {
        for n in [2, 127, 128, 129, 1000] {
            let value = Value::String("x".repeat(n - 2));
            for wrapped in [false, true] {
                let json = structured_json(&value, wrapped);
                assert_eq!(json, expected(n, wrapped), "{n} {wrapped}");
                assert_eq!(json.len(), json.capacity(), "written at its length");
            }
        }
    }
}
