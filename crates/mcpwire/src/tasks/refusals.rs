//! How the tasks extension refuses what it cannot do, for the client: a caller over its quota,
//! a store that failed (without the backend's details, which go to the server log).

use super::StoreError;
use super::runtime::{NotCreated, QuotaReached};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;

/// A store failure, for the client: `-32603` without the backend's details (they go to the
/// server log).
pub(crate) fn store_failed(error: StoreError) -> ErrorObject {
    match error {
        StoreError::Full => ErrorObject::new(
            code::INTERNAL_ERROR,
            "Internal error: too many tasks are unfinished; try again later",
        ),
        other => {
            tracing::error!(error = %other, "the task store failed");
            ErrorObject::new(
                code::INTERNAL_ERROR,
                "Internal error: the task store failed",
            )
        }
    }
}

/// `-32000`: the caller has its quota of unfinished tasks.
pub(crate) fn busy(QuotaReached(quota): QuotaReached) -> ErrorObject {
    ErrorObject::new(
        code::SERVER_BUSY,
        format!("Server busy: at most {quota} unfinished tasks per caller; try again later"),
    )
}

pub(crate) fn not_created(refused: NotCreated) -> ErrorObject {
    match refused {
        NotCreated::Quota(quota) => busy(quota),
        NotCreated::Store(error) => store_failed(error),
    }
}
