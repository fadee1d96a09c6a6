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
        Some(raw) => serde_json::from_str(raw.get())
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
        let mounted = mounted(&call.context);
        let route = (mounted.tools.route(call.name())).ok_or_else(|| gone("tool", call.name()))?;
        let arguments = arguments(&call)?;
        let token = authorization(&call.context);
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
            // Nothing to rewrite: read straight into the result, no `Value` in between.
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
        let mounted = mounted(&call.context);
        let route =
            (mounted.prompts.route(call.name())).ok_or_else(|| gone("prompt", call.name()))?;
        let params = named(&route.name, arguments(&call)?);
        let link = &mounted.links[route.backend];
        let token = authorization(&call.context);
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
        let mounted = mounted(&call.context);
        let uri = call.uri().to_owned();
        let route = mounted
            .route_uri(call.name(), &uri)
            .ok_or_else(|| gone("resource", &uri))?;
        let link = &mounted.links[route.backend];
        let token = authorization(&call.context);
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
}
