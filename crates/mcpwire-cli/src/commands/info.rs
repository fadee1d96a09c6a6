//! `info TARGET`: who the server is, what it offers, and the revision negotiated.

use crate::exit::Failure;
use crate::output;
use crate::session::Context;
use mcpwire::protocol::Era;
use serde_json::{Value, json};

/// Prints the server's details.
pub async fn run(context: Context) -> Result<(), Failure> {
    let server = context.client.server();
    let era = match context.client.era() {
        Era::Legacy => "legacy",
        Era::Modern => "modern",
    };
    let details = json!({
        "era": era,
        "protocolVersion": server.protocol_version,
        "supportedVersions": server.supported_versions,
        "serverInfo": server.info,
        "capabilities": server.capabilities,
        "instructions": server.instructions,
    });
    if context.json {
        return output::json(&details);
    }
    if let Some(info) = &server.info {
        output::line(format_args!("server:       {} {}", info.name, info.version))?;
    }
    output::line(format_args!(
        "era:          {era} ({})",
        server.protocol_version
    ))?;
    if !server.supported_versions.is_empty() {
        output::line(format_args!(
            "supports:     {}",
            server.supported_versions.join(", ")
        ))?;
    }
    let capabilities = details["capabilities"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let offered: Vec<String> = capabilities
        .iter()
        .filter(|(_, value)| !value.is_null())
        .map(|(name, value)| match value {
            Value::Object(map) if !map.is_empty() => format!("{name} {value}"),
            _ => name.clone(),
        })
        .collect();
    output::line(format_args!("capabilities: {}", offered.join(", ")))?;
    if let Some(instructions) = &server.instructions {
        output::line(format_args!("instructions: {instructions}"))?;
    }
    Ok(())
}
