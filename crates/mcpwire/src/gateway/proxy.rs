//! The handlers of the entries a gateway registers: each finds its route by the name (or URI)
//! it was called by, sends the request to that backend (`call.rs`: its questions and progress
//! passed on), and rewrites the answer's resource references to the front URIs.

use super::call::forward;
use super::mounted::Mounted;
use super::names::{front_uri, rewrite_content};
use crate::context::Context;
use crate::error::ToolError;
use crate::protocol::ErrorObject;
use crate::protocol::content::ResourceContents;
use crate::protocol::methods::{PROMPTS_GET, RESOURCES_READ, TOOLS_CALL};
use crate::protocol::tools::CallToolResult;
use crate::resolve::Stop;
use crate::server::handler::HandlerCall;
use crate::server::prompt::PromptFuture;
use crate::server::resource::ResourceFuture;
use crate::server::tool::ToolFuture;
use crate::server::tool_output::ToolOutput;
use crate::wire::object::Object;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The shared state of the gateway serving `context`.
fn mounted(context: &Context) -> Arc<Mounted> {
    Arc::clone(context.state::<Arc<Mounted>>())
}

/// The caller's `Authorization` header, for a backend that opted in to receive it.
pub(super) fn authorization(context: &Context) -> Option<String> {
    let value = context.headers()?.get(http::header::AUTHORIZATION)?;
    value.to_str().ok().map(str::to_owned)
}

fn arguments(call: &HandlerCall) -> Result<Value, Stop> {
    match call.raw_arguments() {
        None => Ok(json!({})),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| Stop::InvalidArguments(ToolError::new(format!("invalid arguments: {e}")))),
    }
}

/// A request's params: `name` and the caller's `arguments`.
fn named(name: &str, arguments: Value) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert("name".into(), Value::String(name.to_owned()));
    params.insert("arguments".into(), arguments);
    params
}

/// Whether a result's text may hold a resource reference to rewrite: a `"uri"` key, or an
/// escape that could spell one (read as a `Value` then, never passed on unread).
fn may_name_resources(raw: &RawValue) -> bool {
    let text = raw.get();
    text.contains("\"uri\"") || text.contains("\\u")
}

/// The parts of a backend's tool result that the front's result carries, as the backend wrote
/// them.
#[derive(Deserialize)]
struct ResultParts<'a> {
    #[serde(borrow)]
    content: &'a RawValue,
    #[serde(borrow, rename = "structuredContent", default)]
    structured_content: Option<&'a RawValue>,
    #[serde(rename = "isError", default)]
    is_error: Option<bool>,
}

/// Content blocks as a front client must get them: an array of objects, each with a string
/// `type`; what else a block carries is the backend's, passed on as written.
struct Blocks;

impl<'de> Deserialize<'de> for Blocks {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(BlocksVisitor)
    }
}

struct BlocksVisitor;

impl<'de> serde::de::Visitor<'de> for BlocksVisitor {
    type Value = Blocks;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of content blocks")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut blocks: A) -> Result<Blocks, A::Error> {
        while blocks.next_element::<Object<Typed<'de>>>()?.is_some() {}
        Ok(Blocks)
    }
}

/// A content block's kind (a string; borrowed unless it has escapes).
#[derive(Deserialize)]
struct Typed<'a> {
    #[serde(rename = "type", borrow)]
    _kind: std::borrow::Cow<'a, str>,
}

/// A backend's tool result passed on as written: its `content` (an array of typed blocks, each
/// as the backend wrote it, so a kind of block this SDK does not know yet passes too),
/// `structuredContent` and `isError`; what else it carries (its revision's `resultType` and
/// `_meta`) is the front's to write. `None` when `raw` is not such a result: it is then read as
/// a `CallToolResult`, which says what is wrong with it.
fn passed(raw: &RawValue) -> Option<ToolOutput> {
    let Object(sent) = serde_json::from_str::<Object<ResultParts<'_>>>(raw.get()).ok()?;
    let content = sent.content.get();
    serde_json::from_str::<Blocks>(content).ok()?;
    let structured = sent.structured_content.map(RawValue::get);
    let mut json = String::with_capacity(raw.get().len() + 32);
    json.push_str(r#"{"content":"#);
    json.push_str(content);
    if let Some(structured) = structured {
        json.push_str(r#","structuredContent":"#);
        json.push_str(structured);
    }
    if let Some(is_error) = sent.is_error {
        json.push_str(if is_error {
            r#","isError":true"#
        } else {
            r#","isError":false"#
        });
    }
    json.push('}');
    Some(ToolOutput::written(json, sent.is_error == Some(true)))
}

/// The backend's answer read as `T`: the typed result itself, or a `Value` to rewrite first.
fn parsed<T: serde::de::DeserializeOwned>(raw: &RawValue) -> Result<T, Stop> {
    serde_json::from_str(raw.get()).map_err(undecodable)
}

fn internal(message: String) -> ErrorObject {
    ErrorObject::new(crate::protocol::code::INTERNAL_ERROR, message)
}

/// A backend that is unavailable or failed, for a prompt or a resource (an error).
fn unavailable(message: String) -> Stop {
    Stop::Protocol(internal(message))
}

fn gone(what: &str, name: &str) -> Stop {
    Stop::Protocol(ErrorObject::invalid_params(format!(
        "{what} '{name}' is no longer served"
    )))
}

fn undecodable(e: serde_json::Error) -> Stop {
    Stop::Protocol(internal(format!(
        "the backend's answer cannot be decoded: {e}"
    )))
}

/// A proxied `tools/call`, its questions and progress passed on (`call.rs`). A backend that is
/// unavailable gives an `isError` result naming it.
pub(crate) fn call_tool(call: HandlerCall) -> ToolFuture {
    Box::pin(async move {
        let mounted = mounted(call.context_ref());
        let route = (mounted.tools.route(call.name())).ok_or_else(|| gone("tool", call.name()))?;
        let arguments = arguments(&call)?;
        let token = authorization(call.context_ref());
        let backend = route.backend;
        let params = named(&route.name, arguments);
        let failed = |message| Stop::Failed(ToolError::new(message));
        let forwarded = forward(
            &call,
            mounted.clone(),
            backend,
            TOOLS_CALL,
            params,
            token,
            failed,
        );
        let raw = forwarded.await?;
        if !may_name_resources(&raw) {
            // Nothing to rewrite: passed on as written, or read straight into the result.
            if let Some(output) = passed(&raw) {
                return Ok(output);
            }
            return parsed::<CallToolResult>(&raw).map(ToolOutput::from);
        }
        let mut result: Value = parsed(&raw)?;
        rewrite_content(&mounted.links[backend].backend.namespace, &mut result);
        serde_json::from_value::<CallToolResult>(result)
            .map(ToolOutput::from)
            .map_err(undecodable)
    })
}

/// A proxied `prompts/get`, its questions and progress passed on (`call.rs`).
pub(crate) fn get_prompt(call: HandlerCall) -> PromptFuture {
    Box::pin(async move {
        let mounted = mounted(call.context_ref());
        let route =
            (mounted.prompts.route(call.name())).ok_or_else(|| gone("prompt", call.name()))?;
        let params = named(&route.name, arguments(&call)?);
        let link = &mounted.links[route.backend];
        let token = authorization(call.context_ref());
        let forwarded = forward(
            &call,
            mounted.clone(),
            route.backend,
            PROMPTS_GET,
            params,
            token,
            unavailable,
        );
        let mut result: Value = parsed(&forwarded.await?)?;
        if let Some(messages) = result.get_mut("messages").and_then(Value::as_array_mut) {
            for message in messages {
                if let Some(content) = message.get_mut("content") {
                    let mut wrapped = json!({"content": [content.take()]});
                    rewrite_content(&link.backend.namespace, &mut wrapped);
                    *content = wrapped["content"][0].take();
                }
            }
        }
        serde_json::from_value(result).map_err(undecodable)
    })
}

/// A proxied `resources/read`, of a listed resource or under a template, its questions and
/// progress passed on (`call.rs`).
pub(crate) fn read_resource(call: HandlerCall) -> ResourceFuture {
    Box::pin(async move {
        let mounted = mounted(call.context_ref());
        let uri = call.uri().to_owned();
        let route = mounted
            .route_uri(call.name(), &uri)
            .ok_or_else(|| gone("resource", &uri))?;
        let link = &mounted.links[route.backend];
        let token = authorization(call.context_ref());
        let mut params = Map::new();
        params.insert("uri".into(), Value::String(route.name.clone()));
        let forwarded = forward(
            &call,
            mounted.clone(),
            route.backend,
            RESOURCES_READ,
            params,
            token,
            unavailable,
        );
        let mut result: Value = parsed(&forwarded.await?)?;
        let namespace = &link.backend.namespace;
        let contents = result.get_mut("contents").map(Value::take);
        let mut contents: Vec<ResourceContents> =
            serde_json::from_value(contents.unwrap_or_default()).map_err(undecodable)?;
        for content in &mut contents {
            let (ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. }) = content;
            *uri = front_uri(namespace, uri);
        }
        Ok(contents)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn a_result_is_read_as_a_value_only_when_it_may_name_a_resource() {
        assert!(!may_name_resources(&raw(
            r#"{"content":[{"type":"text","text":"a uri"}]}"#
        )));
        let link = r#"{"content":[{"type":"resource_link","uri":"ui://a/b","name":"b"}]}"#;
        assert!(may_name_resources(&raw(link)));
        // A key spelt with an escape is found by the `Value` path.
        let escaped = r#"{"content":[{"type":"resource_link","\u0075ri":"ui://a/b","name":"b"}]}"#;
        assert!(may_name_resources(&raw(escaped)));
    }

    #[test]
    fn a_backends_result_passes_as_its_reading_would_write_it() {
        for text in [
            r#"{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5}}"#,
            r#"{"content":[],"isError":true,"resultType":"complete","_meta":{"x":1}}"#,
            r#"{"isError":false,"content":[{"type":"text","text":"a\nb"}],"structuredContent":null}"#,
            r#" { "content" : [ {"type":"text","text":"x"} ] , "structuredContent" : [1, 2] } "#,
        ] {
            let output = passed(&raw(text)).unwrap_or_else(|| panic!("not passed: {text}"));
            let read: CallToolResult = parsed(&raw(text)).unwrap();
            assert_eq!(output.is_error(), read.is_error == Some(true), "{text}");
            let written = output.into_json();
            let reread: CallToolResult = serde_json::from_str(&written).unwrap();
            assert_eq!(reread, read, "{text}");
            assert!(!written.contains("resultType") && !written.contains("_meta"));
        }
    }

    #[test]
    fn a_block_of_a_kind_not_known_here_passes_and_a_result_that_is_none_does_not() {
        let newer = r#"{"content":[{"type":"hologram","data":"…","_meta":{"k":1}}]}"#;
        let written = passed(&raw(newer)).expect("passed").into_json();
        assert_eq!(
            written,
            r#"{"content":[{"type":"hologram","data":"…","_meta":{"k":1}}]}"#
        );
        for text in [
            r#"{"structuredContent":{}}"#,
            r#"{"content":{"type":"text","text":"x"}}"#,
            r#"{"content":"x"}"#,
            r#"{"content":null}"#,
            r#"{"content":[],"content":[]}"#,
            r#"{"content":[],"isError":"yes"}"#,
            r#"{"content":[1,2]}"#,
            r#"{"content":[{"text":"no type"}]}"#,
            r#"{"content":[{"type":7}]}"#,
            r#"{"content":[["text","x"]]}"#,
            r#"[[]]"#,
        ] {
            assert!(passed(&raw(text)).is_none(), "{text}");
        }
    }
}
