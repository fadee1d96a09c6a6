//! The fixture server of the official MCP conformance suite (`@modelcontextprotocol/conformance`):
//! the tools, resources and prompts its server scenarios call, with the exact names, arguments
//! and answers they expect. `scripts/conformance` builds it, serves it over Streamable HTTP and
//! runs the suite against it; `docs/conformance.md` has the scores.
//!
//! Every question goes through a resolver (`Elicit`, `Sample`, `ListRoots`), so the same fixture
//! is a real `elicitation/create` / `sampling/createMessage` request on a 2025-11-25 session and
//! an `input_required` round with a sealed `requestState` on 2026-07-28. Resolvers whose question
//! the suite looks up by key fix it with `#[resolver(key = "…")]`.
//!
//! Run: `cargo run --example conformance -- --http 127.0.0.1:3001` (or on stdio, without flags).

mod support;

use mcpwire::prelude::*;
use mcpwire::protocol::ChangedList;
use mcpwire::protocol::ResourceContents;
use mcpwire::protocol::{CompleteParams, Completion, CompletionReference};
use mcpwire::protocol::{GetPromptResult, LoggingLevel, PromptMessage, Role};
use mcpwire::skills::Skills;
use serde_json::{Value, json};
use std::time::Duration;
use support::ServeFromArgs;

/// A 1x1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV header with no samples.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

fn embedded_text(uri: &str, mime_type: &str, text: &str) -> Content {
    Content::Resource {
        resource: ResourceContents::Text {
            uri: uri.to_owned(),
            mime_type: Some(mime_type.to_owned()),
            text: text.to_owned(),
            meta: None,
        },
        annotations: None,
    }
}

// --- Content -------------------------------------------------------------------------------

/// Returns one text block.
#[tool]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns one image block (a 1x1 PNG).
#[tool]
async fn test_image_content() -> Content {
    Content::image(PNG, "image/png")
}

/// Returns one audio block (an empty WAV).
#[tool]
async fn test_audio_content() -> Content {
    Content::audio(WAV, "audio/wav")
}

/// Returns one embedded text resource.
#[tool]
async fn test_embedded_resource() -> Content {
    embedded_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Returns text, an image and an embedded resource.
#[tool]
async fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(PNG, "image/png"),
        embedded_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Always fails, as a tool error (`isError: true`).
#[tool]
async fn test_error_handling() -> CallToolResult {
    CallToolResult::error("This tool intentionally returns an error for testing")
}

/// The input schema of `json_schema_2020_12_tool`: JSON Schema 2020-12 keywords a generated
/// schema cannot express (`$defs` with an `$anchor`, `$ref`, `allOf`/`anyOf`, `if`/`then`/`else`,
/// `additionalProperties: false`), listed exactly as written.
fn contact_schema() -> schemars::Schema {
    schemars::json_schema!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    })
}

/// Tool with JSON Schema 2020-12 features
#[tool(input_schema = "contact_schema")]
async fn json_schema_2020_12_tool(
    name: Option<String>,
    #[arg(rename = "contactMethod")] contact_method: Option<String>,
    phone: Option<String>,
    email: Option<String>,
) -> String {
    let how = match contact_method.as_deref() {
        Some("phone") => phone.unwrap_or_default(),
        _ => email.unwrap_or_default(),
    };
    format!("Contact {} via {how}", name.unwrap_or_default())
}

// --- Notifications while running -----------------------------------------------------------

/// Sends three log messages at info level, 50 ms apart.
#[tool]
async fn test_tool_with_logging(ctx: Context) -> &'static str {
    for (i, message) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.log(LoggingLevel::Info, None, json!(message)).await;
    }
    "Logging test completed"
}

/// Reports progress 0, 50 and 100 of 100, 50 ms apart.
#[tool]
async fn test_tool_with_progress(ctx: Context) -> &'static str {
    for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.report_progress(progress, Some(100.0), None).await;
    }
    "Progress test completed"
}

// --- Questions on a 2025-11-25 session ------------------------------------------------------

#[resolver]
fn ask_llm(prompt: String) -> Sample {
    Sample::prompt(prompt, 100)
}

/// Asks the client's LLM the given prompt.
#[tool]
async fn test_sampling(
    /// The prompt to send to the LLM.
    prompt: String,
    #[resolve(ask_llm)] answer: CreateMessageResult,
) -> String {
    let _ = prompt;
    format!(
        "LLM response: {}",
        answer.content.text().unwrap_or_default()
    )
}

/// The user's contact details.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Contact {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

#[resolver]
fn ask_contact(message: String) -> Elicit<Contact> {
    Elicit::ask(message)
}

/// Human-readable outcome of an elicitation, with the content sent back.
fn outcome<M: Serialize>(result: &ElicitationResult<M>) -> (&'static str, Value) {
    match result {
        ElicitationResult::Accept(content) => ("accept", json!(content)),
        ElicitationResult::Decline => ("decline", json!({})),
        ElicitationResult::Cancel => ("cancel", json!({})),
    }
}

/// Asks the user for their contact details.
#[tool]
async fn test_elicitation(
    /// The message to show the user.
    message: String,
    #[resolve(ask_contact)] contact: ElicitationResult<Contact>,
) -> String {
    let _ = message;
    let (action, content) = outcome(&contact);
    format!("User response: action={action}, content={content}")
}

fn default_name() -> String {
    "John Doe".to_owned()
}
fn default_age() -> i64 {
    30
}
fn default_score() -> f64 {
    95.5
}
fn default_verified() -> bool {
    true
}

/// An account status.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

/// A form whose every field has a default (SEP-1034).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Profile {
    #[serde(default = "default_name")]
    name: String,
    #[serde(default = "default_age")]
    age: i64,
    #[serde(default = "default_score")]
    score: f64,
    #[serde(default)]
    status: Status,
    #[serde(default = "default_verified")]
    verified: bool,
}

#[resolver]
fn ask_profile() -> Elicit<Profile> {
    Elicit::ask("Please review your profile (every field has a default).")
}

/// Asks for a form whose fields all have defaults.
#[tool]
async fn test_elicitation_sep1034_defaults(
    #[resolve(ask_profile)] profile: ElicitationResult<Profile>,
) -> String {
    let (action, content) = outcome(&profile);
    format!("Elicitation completed: action={action}, content={content}")
}

/// Three untitled options.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// Three titled options.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Titled {
    #[schemars(title = "First Option")]
    Value1,
    #[schemars(title = "Second Option")]
    Value2,
    #[schemars(title = "Third Option")]
    Value3,
}

/// Three titled choices (for the multi-select).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    #[schemars(title = "First Choice")]
    Value1,
    #[schemars(title = "Second Choice")]
    Value2,
    #[schemars(title = "Third Choice")]
    Value3,
}

/// Three options titled the deprecated way (`enumNames`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// Every enum shape an elicitation form may use (SEP-1330).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Choices {
    untitled_single: Untitled,
    titled_single: Titled,
    #[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
    legacy_enum: Legacy,
    untitled_multi: Vec<Untitled>,
    titled_multi: Vec<TitledChoice>,
}

#[resolver]
fn ask_choices() -> Elicit<Choices> {
    Elicit::ask("Pick your options.")
}

/// Asks for a form with all five enum shapes.
#[tool]
async fn test_elicitation_sep1330_enums(
    #[resolve(ask_choices)] choices: ElicitationResult<Choices>,
) -> String {
    let (action, content) = outcome(&choices);
    format!("Elicitation completed: action={action}, content={content}")
}

// --- Questions on 2026-07-28: input_required rounds (SEP-2322) ------------------------------
//
// The suite looks some questions up by key, so these resolvers fix theirs.

/// A name.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[resolver(key = "user_name")]
fn ask_name() -> Elicit<Name> {
    Elicit::ask("What is your name?")
}

/// Asks the user's name, then greets them.
#[tool]
async fn test_input_required_result_elicitation(#[resolve(ask_name)] user: Name) -> String {
    format!("Hello, {}!", user.name)
}

#[resolver(key = "capital_question")]
fn ask_capital() -> Sample {
    Sample::prompt("What is the capital of France?", 100)
}

/// Asks the client's LLM a question.
#[tool]
async fn test_input_required_result_sampling(
    #[resolve(ask_capital)] answer: CreateMessageResult,
) -> String {
    format!("LLM says: {}", answer.content.text().unwrap_or_default())
}

#[resolver(key = "client_roots")]
fn client_roots() -> ListRoots {
    ListRoots
}

/// Lists the client's roots.
#[tool]
async fn test_input_required_result_list_roots(
    #[resolve(client_roots)] roots: ListRootsResult,
) -> String {
    let uris: Vec<&str> = roots.roots.iter().map(|root| root.uri.as_str()).collect();
    format!("Client roots: {}", uris.join(", "))
}

/// A confirmation.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Confirmation {
    ok: bool,
}

#[resolver(key = "confirm")]
fn ask_confirmation() -> Elicit<Confirmation> {
    Elicit::ask("Please confirm")
}

/// Asks for a confirmation. The tool body only runs once the SDK has opened and verified the
/// sealed `requestState` the answer came back with.
#[tool]
async fn test_input_required_result_request_state(
    #[resolve(ask_confirmation)] confirmation: Confirmation,
) -> String {
    format!("state-ok: confirmed={}", confirmation.ok)
}

/// Asks for a confirmation; a tampered `requestState` on the retry is refused by the SDK.
#[tool]
async fn test_input_required_result_tampered_state(
    #[resolve(ask_confirmation)] confirmation: Confirmation,
) -> String {
    format!("confirmed={}", confirmation.ok)
}

#[resolver(key = "greeting")]
fn ask_greeting() -> Sample {
    Sample::prompt("Generate a greeting", 50)
}

/// Asks three independent questions, all in the same round.
#[tool]
async fn test_input_required_result_multiple_inputs(
    #[resolve(ask_name)] user: Name,
    #[resolve(ask_greeting)] greeting: CreateMessageResult,
    #[resolve(client_roots)] roots: ListRootsResult,
) -> String {
    format!(
        "{} {} ({} roots)",
        greeting.content.text().unwrap_or_default(),
        user.name,
        roots.roots.len()
    )
}

#[resolver(key = "step1")]
fn step1() -> Elicit<Name> {
    Elicit::ask("Step 1: What is your name?")
}

/// A favourite colour.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Color {
    color: String,
}

/// Depends on the first answer, so it is asked in the next round.
#[resolver(key = "step2")]
fn step2(#[resolve(step1)] user: Name) -> Elicit<Color> {
    let _ = user;
    Elicit::ask("Step 2: What is your favorite color?")
}

/// Asks two questions, one round after the other.
#[tool]
async fn test_input_required_result_multi_round(
    #[resolve(step1)] user: Name,
    #[resolve(step2)] color: Color,
) -> String {
    format!("{} likes {}", user.name, color.color)
}

/// Asks the user's name only when the client can show a form; otherwise goes on anonymously.
#[resolver(key = "user_name")]
fn name_if_possible(ctx: Context) -> Elicit<Name> {
    if !ctx.client_capabilities().elicitation_form() {
        return Elicit::Ready(Name {
            name: "anonymous".to_owned(),
        });
    }
    Elicit::ask("What is your name?")
}

/// Asks only what the client declared it can answer (here: the LLM always, the user if the
/// client can show forms).
#[tool]
async fn test_input_required_result_capabilities(
    #[resolve(name_if_possible)] user: Name,
    #[resolve(ask_greeting)] greeting: CreateMessageResult,
) -> String {
    format!(
        "{} {}",
        greeting.content.text().unwrap_or_default(),
        user.name
    )
}

/// Context for a prompt.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct PromptContext {
    context: String,
}

#[resolver(key = "user_context")]
fn ask_prompt_context() -> Elicit<PromptContext> {
    Elicit::ask("What context should the prompt use?")
}

/// A prompt that asks the user for its context first.
#[prompt]
async fn test_input_required_result_prompt(
    #[resolve(ask_prompt_context)] context: PromptContext,
) -> String {
    format!("Answer with this context in mind: {}", context.context)
}

// --- Diagnostics of the stateless wire (SEP-2575) --------------------------------------------

#[resolver]
fn ask_llm_anything() -> Sample {
    Sample::prompt("Say anything.", 10)
}

/// Needs sampling: a client that did not declare it gets `-32021`, naming `sampling`.
#[tool]
async fn test_missing_capability(
    #[resolve(ask_llm_anything)] answer: CreateMessageResult,
) -> String {
    answer.content.text().unwrap_or_default().to_owned()
}

/// Asks the user a question: on 2026-07-28 it comes back as an `input_required` result, never
/// as a request on the response stream.
#[tool]
async fn test_streaming_elicitation(#[resolve(ask_name)] user: Name) -> String {
    format!("Hello, {}!", user.name)
}

/// Logs at every level; a 2026-07-28 request that set no `logLevel` gets none of it.
#[tool]
async fn test_logging_tool(ctx: Context) -> &'static str {
    for level in [
        LoggingLevel::Debug,
        LoggingLevel::Info,
        LoggingLevel::Warning,
        LoggingLevel::Error,
    ] {
        ctx.log(level, Some("conformance"), json!("a log message"))
            .await;
    }
    "Logged (if the request asked for it)."
}

/// Ends its event stream mid-call (SEP-1699 polling); the client resumes with `Last-Event-ID`.
#[tool]
async fn test_reconnection(ctx: Context) -> &'static str {
    ctx.close_sse_stream();
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed successfully"
}

/// Announces that the tool list changed.
#[tool]
async fn test_trigger_tool_change(ctx: Context) -> &'static str {
    ctx.notify_list_changed(ChangedList::Tools);
    "Tool list change announced."
}

/// Announces that the prompt list changed.
#[tool]
async fn test_trigger_prompt_change(ctx: Context) -> &'static str {
    ctx.notify_list_changed(ChangedList::Prompts);
    "Prompt list change announced."
}

/// Looks up a region's weather; the region travels in the `Mcp-Param-Region` header too.
#[tool]
async fn test_header_parameter(
    /// The region.
    #[arg(header = "Region")]
    region: String,
) -> String {
    format!("Sunny in {region}.")
}

// --- Resources -----------------------------------------------------------------------------

/// A static text resource.
#[resource(
    uri = "test://static-text",
    name = "Static Text Resource",
    mime_type = "text/plain"
)]
async fn static_text() -> String {
    "This is the content of the static text resource.".to_owned()
}

/// A static binary resource (a 1x1 PNG).
#[resource(
    uri = "test://static-binary",
    name = "Static Binary Resource",
    mime_type = "image/png"
)]
async fn static_binary() -> ResourceContents {
    ResourceContents::Blob {
        uri: "test://static-binary".to_owned(),
        mime_type: Some("image/png".to_owned()),
        blob: PNG.to_owned(),
        meta: None,
    }
}

/// Data for one id.
#[resource(
    uri = "test://template/{id}/data",
    name = "Dynamic Resource",
    mime_type = "application/json"
)]
async fn template_data(id: String) -> String {
    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string()
}

/// A resource clients may watch.
#[resource(
    uri = "test://watched-resource",
    name = "Watched Resource",
    mime_type = "text/plain"
)]
async fn watched_resource() -> String {
    "Watched resource content.".to_owned()
}

/// The resource `test_embedded_resource` embeds.
#[resource(
    uri = "test://embedded-resource",
    name = "Embedded Resource",
    mime_type = "text/plain"
)]
async fn embedded_resource() -> String {
    "This is an embedded resource content.".to_owned()
}

// --- Prompts -------------------------------------------------------------------------------

/// A prompt without arguments.
#[prompt]
async fn test_simple_prompt() -> String {
    "This is a simple prompt for testing.".to_owned()
}

/// A prompt with two arguments.
#[prompt]
async fn test_prompt_with_arguments(
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that embeds a resource.
#[prompt]
async fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    #[arg(rename = "resourceUri")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage {
            role: Role::User,
            content: embedded_text(
                &resource_uri,
                "text/plain",
                "Embedded resource content for testing.",
            ),
        },
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image.
#[prompt]
async fn test_prompt_with_image() -> GetPromptResult {
    GetPromptResult {
        description: None,
        messages: vec![
            PromptMessage {
                role: Role::User,
                content: Content::image(PNG, "image/png"),
            },
            PromptMessage::user("Please analyze the image above."),
        ],
    }
}

// --- Tasks (the io.modelcontextprotocol/tasks extension, 2026-07-28) ------------------------
//
// A tool with `task = "optional"` runs as a task when the request declares the extension, and
// as a plain call otherwise; `task = "required"` only as a task. Inside a task, a resolver's
// question puts the task in `input_required`; `tasks/update` brings the answer.

/// Greets someone (never a task).
#[tool]
async fn greet(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Computes for `seconds` seconds; stops as soon as the task is cancelled.
#[tool(task = "optional")]
async fn slow_compute(
    /// How long to compute.
    seconds: f64,
    /// A label for the result.
    label: Option<String>,
    ctx: Context,
) -> String {
    let label = label.unwrap_or_else(|| "slow_compute".into());
    let duration = Duration::from_secs_f64(seconds.clamp(0.0, 3600.0));
    tokio::select! {
        _ = tokio::time::sleep(duration) => format!("{label}: computed for {seconds}s"),
        _ = ctx.cancelled() => format!("{label}: cancelled"),
    }
}

/// A job that only runs as a task, and ends with a tool error.
#[tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    Err(ToolError::new("the job failed"))
}

/// A job that ends with a JSON-RPC error (its task ends `failed`).
#[tool(task = "optional")]
async fn protocol_error_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    Err(ToolError::protocol(mcpwire::protocol::ErrorObject::new(
        -32603,
        "protocol_error_job: the job's backend is unavailable",
    )))
}

/// A yes or no.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

#[resolver(key = "confirm")]
fn ask_delete(filename: String) -> Elicit<Confirm> {
    Elicit::ask(format!("Delete {filename}?"))
}

/// Deletes a file after the user confirms (the question parks the task).
#[tool(task = "optional")]
async fn confirm_delete(
    /// The file to delete.
    filename: String,
    #[resolve(ask_delete)] answer: Confirm,
) -> String {
    if answer.confirm {
        format!("Deleted {filename}")
    } else {
        format!("Kept {filename}")
    }
}

#[resolver(key = "first")]
fn ask_first() -> Elicit<Name> {
    Elicit::ask("First input: a name")
}

#[resolver(key = "second")]
fn ask_second() -> Elicit<Confirm> {
    Elicit::ask("Second input: confirm")
}

/// Asks two independent questions at once (the task shows both).
#[tool(task = "optional")]
async fn multi_input(
    #[resolve(ask_first)] first: Name,
    #[resolve(ask_second)] second: Confirm,
) -> String {
    format!("Got {} and confirm={}", first.name, second.confirm)
}

/// Asks the user's name in `input_required` rounds of the call, then runs as a task.
#[tool(task = "required", ask_before_task)]
async fn test_tool_with_task(#[resolve(ask_name)] user: Name) -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    format!("Task done for {}", user.name)
}

// --- Completion ----------------------------------------------------------------------------

/// Suggests values for `test_prompt_with_arguments`'s arguments and the template's `{id}`: a
/// fixed list, filtered by what the user typed so far.
async fn complete(request: CompleteParams, _ctx: Context) -> Completion {
    let typed = request.argument.value;
    let candidates: &[&str] = match request.reference {
        CompletionReference::Prompt { .. } => &["paris", "park", "party", "test", "testValue1"],
        CompletionReference::Resource { .. } => &["1", "12", "123"],
    };
    Completion::from_values(
        candidates
            .iter()
            .copied()
            .filter(|value| value.starts_with(typed.as_str())),
    )
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    let server = McpServer::new("mcp-conformance-fixtures")
        .tool(test_simple_text)?
        .tool(test_image_content)?
        .tool(test_audio_content)?
        .tool(test_embedded_resource)?
        .tool(test_multiple_content_types)?
        .tool(test_error_handling)?
        .tool(json_schema_2020_12_tool)?
        .tool(test_tool_with_logging)?
        .tool(test_tool_with_progress)?
        .tool(test_sampling)?
        .tool(test_elicitation)?
        .tool(test_elicitation_sep1034_defaults)?
        .tool(test_elicitation_sep1330_enums)?
        .tool(test_input_required_result_elicitation)?
        .tool(test_input_required_result_sampling)?
        .tool(test_input_required_result_list_roots)?
        .tool(test_input_required_result_request_state)?
        .tool(test_input_required_result_tampered_state)?
        .tool(test_input_required_result_multiple_inputs)?
        .tool(test_input_required_result_multi_round)?
        .tool(test_input_required_result_capabilities)?
        .tool(test_missing_capability)?
        .tool(test_streaming_elicitation)?
        .tool(test_logging_tool)?
        .tool(test_reconnection)?
        .tool(test_trigger_tool_change)?
        .tool(test_trigger_prompt_change)?
        .tool(test_header_parameter)?
        .tool(greet)?
        .tool(slow_compute)?
        .tool(failing_job)?
        .tool(protocol_error_job)?
        .tool(confirm_delete)?
        .tool(multi_input)?
        .tool(test_tool_with_task)?
        .resource(static_text)?
        .resource(static_binary)?
        .resource(template_data)?
        .resource(watched_resource)?
        .resource(embedded_resource)?
        .prompt(test_simple_prompt)?
        .prompt(test_prompt_with_arguments)?
        .prompt(test_prompt_with_embedded_resource)?
        .prompt(test_prompt_with_image)?
        .prompt(test_input_required_result_prompt)?
        // The Skills extension, so that the suite's sep-2640 scenarios run (the bookshop's
        // skills folder: its first skill has a subfolder, which the directory scenario reads).
        .extension(Skills::from_dir(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/skills"
        ))?)?
        .completion(complete);
    // The trigger tools announce list changes: holding a catalog is what makes the server
    // declare (and deliver) them.
    let _catalog = server.catalog();
    server.serve_from_args().await
}
