//! The handler methods (`tools/call`, `prompts/get`, `resources/read`): each looks its handler
//! up by what the request names, decides its scopes, and runs it through the server-wide layers
//! and then the handler's own.

use super::{prompts, resources, tools};
use crate::dispatch::admitted::Admitted;
use crate::dispatch::exchange::parse;
use crate::dispatch::preread::Preread;
use crate::layer::McpResponse;
use crate::protocol::ErrorObject;
use futures_util::future::Either;
use serde_json::value::RawValue;
use std::future::Future;

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
/// mostly serves. A plain function returning the method's future (`Err` when it is refused
/// first), so that every request's future holds no state of this step.
pub(crate) fn serve(
    method: HandlerMethod,
    admitted: Admitted<'_>,
    (params, preread): (Option<Box<RawValue>>, Preread),
) -> Result<impl Future<Output = McpResponse> + Send + use<>, ErrorObject> {
    let Admitted {
        exchange,
        id,
        served,
        context,
        ..
    } = admitted;
    match method {
        HandlerMethod::Tool => {
            let call = match preread {
                Preread::ToolCall(read) => {
                    tools::start_read(exchange, id, read, served, context)?.into()
                }
                Preread::Nothing => {
                    let params = parse(params.as_deref())?;
                    tools::call_tool(exchange, id, params, served, context)?
                }
            };
            Ok(Either::Left(call))
        }
        HandlerMethod::Prompt => {
            let params = parse(params.as_deref())?;
            let get = prompts::get_prompt(exchange, id, params, served, context)?;
            Ok(Either::Right(Either::Left(get)))
        }
        HandlerMethod::Resource => {
            let params = parse(params.as_deref())?;
            let read = resources::read_resource(exchange, id, params, served, context)?;
            Ok(Either::Right(Either::Right(read)))
        }
    }
}
