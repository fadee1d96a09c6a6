//! The tasks extension's side of `tools/call` (2026-07-28): a call answered with a task, whose
//! worker runs the tool in the background. The extension's own methods (`tasks/get`,
//! `tasks/update`, `tasks/cancel`) are bound on the extension seam, in `tasks/methods.rs`.

mod call;
mod worker;

pub(crate) use call::call_tool;

use crate::dispatch::era::Served;
use crate::extension::declared_by;
use crate::protocol::ErrorObject;
use crate::protocol::tasks::EXTENSION;

/// Whether this request declared the tasks extension in its own `_meta` capabilities.
pub(crate) fn negotiated(served: &Served) -> bool {
    declared_by(&served.capabilities, EXTENSION)
}

/// `-32021`: `why` needs the tasks extension, which the request did not declare.
pub(crate) fn not_negotiated(why: &str) -> ErrorObject {
    crate::extension::not_negotiated(why, EXTENSION)
}
