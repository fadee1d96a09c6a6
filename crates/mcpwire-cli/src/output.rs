//! Printing results for people: text blocks as they are, images and audio summarised,
//! structured content pretty-printed. With `--json` the raw result goes to stdout instead.
//!
//! Everything goes through [`line()`]: a reader that stops early (`| head -1`) closes stdout,
//! and the command then ends quietly with exit 0 instead of panicking on the broken pipe.

use crate::exit::Failure;
use serde_json::Value;
use std::fmt::Display;
use std::io::{ErrorKind, Write};

/// Prints one line on stdout; a closed stdout ends the command quietly.
pub fn line(text: impl Display) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == ErrorKind::BrokenPipe => Err(Failure::stdout_closed()),
        Err(error) => Err(Failure::usage(format!("cannot write to stdout: {error}"))),
    }
}

/// Prints `value` as one JSON document on stdout.
pub fn json(value: &Value) -> Result<(), Failure> {
    line(serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string()))
}

/// A content block (tool results, prompt messages) as lines for people.
pub fn content_block(block: &Value) -> String {
    let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
    let text = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or("");
    match kind {
        "text" => text("text").to_owned(),
        "image" | "audio" => {
            format!(
                "[{kind} {}, {} bytes]",
                text("mimeType"),
                base64_len(text("data"))
            )
        }
        "resource_link" => format!("[link {}: {}]", text("name"), text("uri")),
        "resource" => block
            .get("resource")
            .map_or_else(String::new, resource_contents),
        _ => serde_json::to_string_pretty(block).unwrap_or_default(),
    }
}

/// One part of a resource's contents: its text, or a summary of its blob.
pub fn resource_contents(contents: &Value) -> String {
    let field = |key: &str| contents.get(key).and_then(Value::as_str);
    match (field("text"), field("blob")) {
        (Some(text), _) => text.to_owned(),
        (None, Some(blob)) => format!(
            "[{} {}, {} bytes]",
            field("uri").unwrap_or(""),
            field("mimeType").unwrap_or("blob"),
            base64_len(blob)
        ),
        _ => serde_json::to_string_pretty(contents).unwrap_or_default(),
    }
}

/// Prints a `CallToolResult`.
pub fn tool_result(result: &Value) -> Result<(), Failure> {
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        line(content_block(block))?;
    }
    if let Some(structured) = result.get("structuredContent") {
        line(serde_json::to_string_pretty(structured).unwrap_or_default())?;
    }
    Ok(())
}

/// How many bytes a Base64 text holds.
fn base64_len(data: &str) -> usize {
    let data = data.trim_end_matches('=');
    data.len() * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_are_shown_for_people() {
        assert_eq!(content_block(&json!({"type": "text", "text": "hi"})), "hi");
        assert_eq!(
            content_block(&json!({"type": "image", "mimeType": "image/png", "data": "AAAA"})),
            "[image image/png, 3 bytes]"
        );
        assert_eq!(
            content_block(
                &json!({"type": "resource_link", "name": "blurb", "uri": "books://Dune"})
            ),
            "[link blurb: books://Dune]"
        );
        assert_eq!(
            content_block(&json!({"type": "resource", "resource": {"uri": "x", "text": "inside"}})),
            "inside"
        );
    }
}
