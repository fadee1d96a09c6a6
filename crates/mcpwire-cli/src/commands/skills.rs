//! `skills TARGET`: the skills a server publishes (the Skills extension), each with its files'
//! sizes; read a file with `read TARGET URI`.

use super::listing::{items, list, text};
use crate::exit::Failure;
use crate::output;
use crate::session::Context;
use mcpwire::protocol::skills::{EXTENSION, LIST};
use serde_json::{Value, json};

/// Lists the skills and their files.
pub async fn list_all(context: Context) -> Result<(), Failure> {
    let capabilities = context.client.server().capabilities;
    let offered = (capabilities.extensions.as_ref()).is_some_and(|e| e.contains_key(EXTENSION));
    if !offered {
        context.reporter.line("the server publishes no skills");
        if context.json {
            output::json(&json!({ "skills": [] }))?;
        }
        return Ok(());
    }
    let skills = list(&context.client, LIST, "skills").await?;
    if context.json {
        return output::json(&skills);
    }
    for skill in items(&skills, "skills") {
        let front_matter = skill.get("frontmatter").unwrap_or(&Value::Null);
        output::line(format_args!(
            "{}  {}: {}",
            text(skill, "uri"),
            text(front_matter, "name"),
            text(front_matter, "description")
        ))?;
        for file in items(skill, "resources") {
            let size = file.get("size").and_then(Value::as_u64).unwrap_or_default();
            output::line(format_args!("  {}  {size} bytes", text(file, "uri")))?;
        }
    }
    Ok(())
}
