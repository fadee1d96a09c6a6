//! `prompts TARGET` and `prompt TARGET NAME [ARG=VALUE ...]`.

use super::listing::{items, list, text};
use crate::exit::Failure;
use crate::output;
use crate::session::Context;
use crate::values::split_pair;
use serde_json::{Map, Value, json};

/// Lists the prompts with their arguments.
pub async fn list_all(context: Context) -> Result<(), Failure> {
    if context.client.server().capabilities.prompts.is_none() {
        context.reporter.line("the server offers no prompts");
        if context.json {
            output::json(&json!({"prompts": []}))?;
        }
        return Ok(());
    }
    let listing = list(&context.client, "prompts/list", "prompts").await?;
    if context.json {
        return output::json(&listing);
    }
    for prompt in items(&listing, "prompts") {
        let arguments: Vec<String> = prompt
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|argument| match argument.get("required") {
                Some(Value::Bool(true)) => text(argument, "name").to_owned(),
                _ => format!("[{}]", text(argument, "name")),
            })
            .collect();
        output::line(format_args!(
            "{}({})",
            text(prompt, "name"),
            arguments.join(", ")
        ))?;
        let description = text(prompt, "description");
        if !description.is_empty() {
            output::line(format_args!("    {description}"))?;
        }
    }
    Ok(())
}

/// Gets one prompt (its arguments are strings).
pub async fn get(context: Context, name: &str, pairs: &[String]) -> Result<(), Failure> {
    let mut arguments = Map::new();
    for pair in pairs {
        let (key, value) = split_pair(pair).map_err(Failure::usage)?;
        arguments.insert(key.to_owned(), json!(value));
    }
    let params = json!({"name": name, "arguments": arguments});
    let result = context.client.request("prompts/get", params).await?;
    if context.json {
        return output::json(&result);
    }
    for message in items(&result, "messages") {
        let content = message
            .get("content")
            .map(output::content_block)
            .unwrap_or_default();
        output::line(format_args!("{}: {content}", text(message, "role")))?;
    }
    Ok(())
}
