//! The handler methods (`tools/call`, `prompts/get`, `resources/read`): each looks its handler
//! up by what the request names, decides its scopes, and runs it through the server-wide layers
//! and then the handler's own.

use super::{prompts, resources, tools};
use crate::dispatch::admitted::Admitted;
use crate::dispatch::exchange::parse;
use crate::dispatch::preread::Preread;
use crate::layer::McpResponse;
use crate::protocol::ErrorObject;
use serde_json::value::RawValue;

/// Which handler method.
#[derive(Clone, Copy, Debug)]
pub(crate) enum HandlerMethod {
    /// `tools/call`.
    Tool,
    /// `prompts/get`.
    Prompt,
    /// `resources/read`.
    Resource,
}

/// Serves an admitted handler method: the method's parameters parsed (unless the transport
/// already read them: `preread`), then its handler run. Not boxed: these are the calls a server
/// mostly serves.
pub(crate) async fn serve(
    method: HandlerMethod,
    admitted: Admitted<'_>,
    (params, preread): (Option<Box<RawValue>>, Preread),
) -> Result<McpResponse, ErrorObject> {
    let Admitted {
        exchange,
        id,
        served,
        context,
        ..
    } = admitted;
    match method {
        HandlerMethod::Tool => {
            let params = match preread {
                Preread::ToolCall(read) => *read,
                Preread::Nothing => parse(params.as_deref())?,
            };
            tools::call_tool(exchange, id, params, served, context).await
        }
        HandlerMethod::Prompt => {
            let params = parse(params.as_deref())?;
            prompts::get_prompt(exchange, id, params, served, context).await
        }
        HandlerMethod::Resource => {
            let params = parse(params.as_deref())?;
            resources::read_resource(exchange, id, params, served, context).await
        }
    }
}
