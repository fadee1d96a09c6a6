//! Parameters named like the locals the generated code binds (`call`, `inputs`, `__output`, …)
//! are the user's own variables: each gets the value the client sent, or the context.
use mcpwire::prelude::*;

/// A resolver whose parameters are the tool's arguments `call`, `inputs` and `__value`, and the
/// context.
#[resolver]
async fn summary(call: String, inputs: u32, ctx: Context, __value: Option<u8>) -> String {
    let _ = ctx.request_id();
    format!("{call}/{inputs}/{__value:?}")
}

/// A plain (blocking) resolver, run on the blocking pool.
#[resolver]
fn doubled(inputs: u32, __body: Option<u8>) -> u32 {
    inputs * 2 + u32::from(__body.unwrap_or(0))
}

/// Every parameter is named like something the generated code could bind.
#[tool]
#[allow(clippy::too_many_arguments)]
async fn echo(
    call: String,
    inputs: u32,
    args: Vec<String>,
    __call: bool,
    __output: String,
    __arguments: String,
    __value: Option<u8>,
    __body: Option<u8>,
    ctx: Context,
    #[resolve(summary)] context: String,
    #[resolve(doubled)] __resolution: u32,
    #[resolve(doubled)] __checks: u32,
) -> String {
    let _ = (ctx.protocol_version(), __value, __body);
    format!(
        "call={call} inputs={inputs} args={args:?} __call={__call} __output={__output} \
         __arguments={__arguments} context={context} __resolution={__resolution} \
         __checks={__checks}"
    )
}

/// A plain (blocking) tool, run on the blocking pool.
#[tool]
fn count(call: String, __body: Vec<u32>) -> String {
    format!("{} {}", call.len(), __body.len())
}

/// A prompt whose argument is named `call`.
#[prompt]
async fn greet(call: String, __output: Option<String>, context: Context) -> String {
    let _ = context.request_id();
    format!("Greet {call} {__output:?}")
}

/// A resource whose URI variable is named `call`.
#[resource(uri = "notes://{call}")]
async fn note(call: String, ctx: Context) -> String {
    let _ = ctx.request_id();
    format!("note {call}")
}

async fn ask(client: &mut mcpwire::transport::MemoryClient, id: u32, method: &str, params: &str) -> String {
    let message = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#);
    client.request(message).await.expect("a reply")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = McpServer::new("t")
        .tool(echo)
        .and_then(|server| server.tool(count))
        .and_then(|server| server.prompt(greet))
        .and_then(|server| server.resource(note))
        .expect("registers");
    let mut client = server.serve_memory().await.expect("serves");

    let reply = ask(
        &mut client,
        1,
        "tools/call",
        r#"{"name":"echo","arguments":{"call":"c","inputs":3,"args":["a"],"__call":true,"__output":"o","__arguments":"g","__body":1}}"#,
    )
    .await;
    let expected = r#"call=c inputs=3 args=[\"a\"] __call=true __output=o __arguments=g context=c/3/None __resolution=7 __checks=7"#;
    assert!(reply.contains(expected), "{reply}");

    let reply = ask(
        &mut client,
        2,
        "tools/call",
        r#"{"name":"count","arguments":{"call":"abc","__body":[1,2]}}"#,
    )
    .await;
    assert!(reply.contains(r#""text":"3 2""#), "{reply}");

    let reply = ask(
        &mut client,
        3,
        "prompts/get",
        r#"{"name":"greet","arguments":{"call":"Ada","__output":"x"}}"#,
    )
    .await;
    assert!(reply.contains(r#"Greet Ada Some(\"x\")"#), "{reply}");

    let reply = ask(&mut client, 4, "resources/read", r#"{"uri":"notes://today"}"#).await;
    assert!(reply.contains("note today"), "{reply}");
}
