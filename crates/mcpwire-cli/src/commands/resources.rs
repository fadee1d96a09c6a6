//! `resources TARGET` (resources and templates) and `read TARGET URI`.

use super::listing::{items, list, text};
use crate::exit::Failure;
use crate::output;
use crate::session::Context;
use serde_json::{Value, json};

/// Lists the resources and the resource templates.
pub async fn list_all(context: Context) -> Result<(), Failure> {
    let capabilities = context.client.server().capabilities;
    if capabilities.resources.is_none() {
        context.reporter.line("the server offers no resources");
        if context.json {
            output::json(&json!({"resources": [], "resourceTemplates": []}))?;
        }
        return Ok(());
    }
    let resources = list(&context.client, "resources/list", "resources").await?;
    // Templates are optional; a server without them answers -32601.
    let mut templates = list(
        &context.client,
        "resources/templates/list",
        "resourceTemplates",
    )
    .await
    .unwrap_or_else(|_| json!({"resourceTemplates": []}));
    if context.json {
        let mut all = resources;
        all["resourceTemplates"] = templates["resourceTemplates"].take();
        return output::json(&all);
    }
    for resource in items(&resources, "resources") {
        output::line(format_args!(
            "{}  {}",
            text(resource, "uri"),
            describe(resource)
        ))?;
    }
    for template in items(&templates, "resourceTemplates") {
        output::line(format_args!(
            "{}  {}",
            text(template, "uriTemplate"),
            describe(template)
        ))?;
    }
    Ok(())
}

fn describe(item: &Value) -> String {
    let mut line = text(item, "name").to_owned();
    let mime = text(item, "mimeType");
    if !mime.is_empty() {
        line.push_str(&format!(" ({mime})"));
    }
    let description = text(item, "description");
    if !description.is_empty() {
        line.push_str(&format!(": {description}"));
    }
    line
}

/// Reads one resource.
pub async fn read(context: Context, uri: &str) -> Result<(), Failure> {
    let result = context
        .client
        .request("resources/read", json!({"uri": uri}))
        .await?;
    if context.json {
        return output::json(&result);
    }
    for contents in items(&result, "contents") {
        output::line(output::resource_contents(contents))?;
    }
    Ok(())
}
