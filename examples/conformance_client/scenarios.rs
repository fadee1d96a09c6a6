//! One function per scenario (or family), and the dispatch on the scenario's name.

use crate::Run;
use mcpwire::client::{Client, EraChoice};
use mcpwire::protocol::Tool;
use serde_json::{Map, Value, json};

type Outcome = Result<(), Box<dyn std::error::Error>>;

pub async fn run(run: &Run) -> Outcome {
    match run.scenario.as_str() {
        "initialize" => initialize(run).await,
        "tools_call" => tools_call(run).await,
        "http-custom-headers" => custom_headers(run).await,
        "http-invalid-tool-headers" => invalid_tool_headers(run).await,
        // The mock is an SDK-v1 server: the legacy lifecycle, whatever the revision.
        "json-schema-ref-no-deref" => list_only(run, EraChoice::Legacy).await,
        "json-schema-2020-12-preservation" => schema_preservation(run).await,
        "http-standard-headers" => everything(run).await,
        // elicitation defaults, sse-retry, request-metadata, request state and any other.
        _ => generic(run).await,
    }
}

/// Connect, and nothing else the raw server would not answer.
async fn initialize(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    client.close().await;
    Ok(())
}

async fn tools_call(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    client.list_tools().await?;
    let result = client
        .call_tool("add_numbers", json!({"a": 2, "b": 3}))
        .await?;
    eprintln!("add_numbers: {:?}", result.content);
    client.close().await;
    Ok(())
}

async fn list_only(run: &Run, era: EraChoice) -> Outcome {
    let client = run.connect(era).await?;
    let tools = client.list_tools().await?;
    eprintln!("{} tools", tools.len());
    client.close().await;
    Ok(())
}

/// Connect, list the tools and call each, one after the other, with arguments made up from
/// its schema.
async fn generic(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    call_every_tool(&client).await?;
    client.close().await;
    Ok(())
}

async fn call_every_tool(client: &Client) -> Outcome {
    for tool in client.list_tools().await? {
        let result = client.call_tool(&tool.name, arguments_for(&tool)).await?;
        eprintln!("{}: error={:?}", tool.name, result.is_error);
    }
    Ok(())
}

/// Tools (listed and called), resources (listed and read), prompts (listed and got): whatever
/// the server answers; a listing the server refuses is skipped.
async fn everything(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    if let Err(error) = call_every_tool(&client).await {
        eprintln!("tools: {error}");
    }
    for resource in client.list_resources().await.unwrap_or_default() {
        client.read_resource(&resource.uri).await?;
    }
    for prompt in client.list_prompts().await.unwrap_or_default() {
        let arguments: Vec<(String, String)> = prompt
            .arguments
            .iter()
            .flatten()
            .map(|argument| (argument.name.clone(), "value".to_owned()))
            .collect();
        client.get_prompt(&prompt.name, arguments).await?;
    }
    client.close().await;
    Ok(())
}

/// Replays the context's `toolCalls` verbatim, after listing the tools (which teaches the
/// client the `x-mcp-header` parameters to mirror).
async fn custom_headers(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    client.list_tools().await?;
    let calls = run
        .context
        .get("toolCalls")
        .and_then(Value::as_array)
        .cloned();
    for call in calls.unwrap_or_default() {
        let name = call
            .get("name")
            .and_then(Value::as_str)
            .ok_or("a tool call without a name")?;
        let arguments = call.get("arguments").cloned().unwrap_or_else(|| json!({}));
        client.call_tool(name, arguments).await?;
    }
    client.close().await;
    Ok(())
}

/// The client drops the tools whose `x-mcp-header` annotations break the rules; calls what is
/// left.
async fn invalid_tool_headers(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    let tools = client.list_tools().await?;
    eprintln!(
        "kept {:?}",
        tools.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    for tool in tools {
        client.call_tool(&tool.name, arguments_for(&tool)).await?;
    }
    client.close().await;
    Ok(())
}

/// Echoes one tool's input schema, as listed, to the server.
async fn schema_preservation(run: &Run) -> Outcome {
    let client = run.connect(run.era).await?;
    let tools = client.list_tools().await?;
    let schema = tools
        .iter()
        .find(|tool| tool.name == "json_schema_2020_12_tool")
        .map(|tool| tool.input_schema.clone())
        .ok_or("no json_schema_2020_12_tool")?;
    client
        .call_tool("json_schema_echo", json!({ "schema": schema }))
        .await?;
    client.close().await;
    Ok(())
}

/// Arguments for a tool: each required property, with a value of its type.
fn arguments_for(tool: &Tool) -> Value {
    let schema = &tool.input_schema;
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    let mut arguments = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let property = properties.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
        arguments.insert(name.to_owned(), value_for(property));
    }
    Value::Object(arguments)
}

/// A value for one schema property: its `default`, its first `enum` value, else one of its type.
pub fn value_for(property: &Value) -> Value {
    if let Some(default) = property.get("default") {
        return default.clone();
    }
    if let Some(first) = property
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    match property.get("type").and_then(Value::as_str) {
        Some("number") | Some("integer") => json!(1),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => json!({}),
        _ => json!("test"),
    }
}
