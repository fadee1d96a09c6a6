//! `logging/setLevel` (2025-11-25): the lowest level of log messages the session wants.

use crate::dispatch::admitted::{Admitted, Serving};
use crate::dispatch::exchange::parse;
use crate::protocol::logging::SetLevelParams;
use serde_json::value::RawValue;
use std::sync::Arc;

/// Serves `logging/setLevel` through the server-wide layers: the session's level changes when
/// the work at the bottom of the stack runs.
pub(crate) fn serve(admitted: Admitted<'_>, params: Option<Box<RawValue>>) -> Serving<'_> {
    let (owned, responder) = (Arc::clone(admitted.exchange), admitted.responder());
    let setting = async move {
        let params: SetLevelParams = parse(params.as_deref())?;
        owned.session.set_log_level(params.level);
        responder.empty()
    };
    Box::pin(async move { Ok(admitted.through(None, setting).await) })
}
