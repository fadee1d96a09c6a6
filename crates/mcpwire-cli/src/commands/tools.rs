//! `tools TARGET`: each tool with its description and its arguments.

use super::listing::{items, list, text};
use crate::exit::Failure;
use crate::output;
use crate::session::Context;
use serde_json::Value;

/// Lists the tools.
pub async fn run(context: Context) -> Result<(), Failure> {
    let listing = list(&context.client, "tools/list", "tools").await?;
    if context.json {
        return output::json(&listing);
    }
    for tool in items(&listing, "tools") {
        output::line(signature(tool))?;
        let description = text(tool, "description");
        if !description.is_empty() {
            output::line(format_args!("    {description}"))?;
        }
        for (name, property) in properties(tool) {
            let about = text(property, "description");
            if !about.is_empty() {
                output::line(format_args!("    {name}: {about}"))?;
            }
        }
    }
    Ok(())
}

fn properties(tool: &Value) -> impl Iterator<Item = (&String, &Value)> {
    tool.pointer("/inputSchema/properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

/// `name(title: string, [copies: integer])`: optional arguments in brackets.
pub fn signature(tool: &Value) -> String {
    let required: Vec<&str> = tool
        .pointer("/inputSchema/required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let arguments: Vec<String> = properties(tool)
        .map(|(name, property)| {
            let kind = match property.get("type") {
                Some(Value::String(kind)) => kind.clone(),
                Some(other) => other.to_string(),
                None => "any".into(),
            };
            match required.contains(&name.as_str()) {
                true => format!("{name}: {kind}"),
                false => format!("[{name}: {kind}]"),
            }
        })
        .collect();
    format!("{}({})", text(tool, "name"), arguments.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_signature_brackets_optional_arguments() {
        let tool = json!({"name": "order", "inputSchema": {"type": "object", "properties": {
            "title": {"type": "string"}, "copies": {"type": "integer"}}, "required": ["title"]}});
        assert_eq!(signature(&tool), "order([copies: integer], title: string)");
    }
}
