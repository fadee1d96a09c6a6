//! The skills of a server mounted in another ([`McpServer::mount`](crate::McpServer::mount)):
//! served by the outer server under the mount's namespace, as a first segment of every URI
//! (`skill://{namespace}/<skill-path>/…`), beside the outer server's own. Names, front matter
//! and files (so digests and sizes) stay as they were: SEP-2640 asks only that a skill's
//! name be the last segment of its path, and lets a server put what it likes before it.

use super::read::Published;
use crate::server::remount::Remount;
use std::sync::Arc;

/// Carries the mounted server's skills over to the outer server, under the namespace; refused,
/// naming both skills, when one would be served where the other is.
pub(super) fn remount(remount: &mut Remount<'_>) -> Result<(), String> {
    let Some(Published(mounted)) = remount.take_state::<Published>() else {
        return Ok(());
    };
    let moved = mounted.under(remount.namespace());
    match remount.outer_state::<Published>() {
        Some(outer) => outer.0 = Arc::new(outer.0.merged(&moved)?),
        None => remount.insert_outer_state(Published(Arc::new(moved))),
    }
    Ok(())
}
