//! The params of the client's requests that `protocol` has no serializable type for.

use super::error::ClientError;
use crate::protocol::{ClientCapabilities, Implementation, LoggingLevel};
use serde::Serialize;
use serde_json::{Map, Value};

/// `initialize` (2025-11-25).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Initialize<'a> {
    pub(crate) protocol_version: &'a str,
    pub(crate) capabilities: ClientCapabilities,
    pub(crate) client_info: &'a Implementation,
}

/// One page of a `*/list` request.
#[derive(Serialize)]
pub(crate) struct ListPage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cursor: Option<String>,
}

/// `tools/call`.
#[derive(Serialize)]
pub(crate) struct CallTool<'a, A> {
    pub(crate) name: &'a str,
    pub(crate) arguments: A,
}

/// `logging/setLevel` (2025-11-25).
#[derive(Serialize)]
pub(crate) struct SetLevel {
    pub(crate) level: LoggingLevel,
}

/// Params without fields (`ping`, `notifications/initialized`, …).
#[derive(Serialize)]
pub(crate) struct Empty {}

/// The fields of `params`, which must serialize as an object (`null` is no fields).
pub(crate) fn fields(params: &impl Serialize) -> Result<Map<String, Value>, ClientError> {
    object(serde_json::to_value(params)?)
}

/// The fields of an object (`null` is no fields).
pub(crate) fn object(params: Value) -> Result<Map<String, Value>, ClientError> {
    match params {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(Map::new()),
        other => Err(ClientError::Protocol(format!(
            "params must be an object, not {other}"
        ))),
    }
}
