//! [`Reply`]: what the transport sends for one request, with what it needs to pick its HTTP
//! status.

use super::authorize::{self, Refusal};
use crate::context::Grant;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::{RequestId, error_line};

/// A response line, and the JSON-RPC error code when it is an error (HTTP picks its status from
/// it).
pub(crate) struct Reply {
    pub(crate) line: String,
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) error_code: Option<i32>,
    /// When the scope decision refused the request: what HTTP's `403 insufficient_scope`
    /// challenge says.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) refusal: Option<Refusal>,
}

/// The reply to the request `id` whose handling ended in `outcome` (a response line, or the
/// error to answer with), for a caller holding `grant`.
pub(crate) fn reply(
    id: &RequestId,
    outcome: Result<String, ErrorObject>,
    grant: Option<&Grant>,
) -> Reply {
    match outcome {
        Ok(line) => Reply {
            line,
            error_code: None,
            refusal: None,
        },
        Err(error) => Reply {
            line: error_line(Some(id), &error),
            error_code: Some(error.code),
            refusal: authorize::refusal(&error, grant),
        },
    }
}
