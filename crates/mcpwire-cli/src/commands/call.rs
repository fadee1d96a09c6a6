//! `call TARGET TOOL [ARG=VALUE ...] [--args JSON]`: the arguments converted by the tool's
//! input schema, progress shown on stderr, exit code 5 when the tool reports `isError`.

use crate::exit::{Failure, TOOL_ERROR};
use crate::output;
use crate::session::Context;
use crate::values;
use mcpwire::client::CallOptions;
use serde_json::{Map, Value, json};

/// Calls `tool`.
pub async fn run(
    context: Context,
    tool: &str,
    pairs: &[String],
    args: Option<&str>,
) -> Result<(), Failure> {
    let base = match args {
        None => Map::new(),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(object)) => object,
            _ => {
                return Err(Failure::usage(format!(
                    "--args {text:?}: not a JSON object"
                )));
            }
        },
    };
    // Listing the tools gives the input schema, and teaches the client the tool's mirrored
    // headers (2026-07-28).
    let tools = context.client.list_tools().await?;
    let schema = tools
        .iter()
        .find(|t| t.name == tool)
        .map_or(Value::Null, |t| t.input_schema.clone());
    let arguments = values::object(&schema, base, pairs).map_err(Failure::usage)?;
    let reporter = context.reporter.clone();
    let options = CallOptions::new().on_progress(move |progress| reporter.progress(&progress));
    let params = json!({"name": tool, "arguments": arguments});
    let result = context
        .client
        .request_with("tools/call", params, options)
        .await?;
    context.reporter.finish();
    match context.json {
        true => output::json(&result)?,
        false => output::tool_result(&result)?,
    }
    match result.get("isError") {
        Some(Value::Bool(true)) => Err(Failure {
            code: TOOL_ERROR,
            message: String::new(),
        }),
        _ => Ok(()),
    }
}
