//! Tasks (the 2026-07-28 extension `io.modelcontextprotocol/tasks`, SEP-2663): a tool call the
//! server answers with a task id, whose body goes on in the background while the client polls
//! `tasks/get`, answers questions with `tasks/update` and may stop it with `tasks/cancel`.
//!
//! A tool opts in with `#[tool(task = "optional")]` (a task when the request negotiates the
//! extension, a plain call otherwise) or `#[tool(task = "required")]` (only as a task; `-32021`
//! otherwise). The same body serves both: inside a task, [`Context::cancelled`] completes on
//! `tasks/cancel`, [`Context::report_progress`] sets the task's `statusMessage`, and a resolver
//! that asks (`Elicit`, `Sample`, `ListRoots`) puts the task in `input_required` with its
//! questions in `tasks/get`; the answers arrive with `tasks/update`, and the body runs once,
//! when every resolver has its value. With `#[tool(ask_before_task)]` the questions are asked
//! in `input_required` rounds of the `tools/call` itself, and only the body runs as the task.
//!
//! Tasks are kept in a [`TaskStore`]: [`MemoryTaskStore`] (bounded; the default),
//! `SqliteTaskStore` (feature `sqlite`: completed results survive a restart, tasks that were
//! running end `failed`) or `RedisTaskStore` (feature `redis`: shared by the replicas of a
//! fleet, any of which answers `tasks/*` for any task). Each task belongs to the principal that
//! created it: any other caller gets the unknown-task error. The 2025-11-25 revision's experimental tasks are not offered:
//! sessions on that revision see no tasks capability and every tool runs as a plain call (see
//! the guide, `docs/tasks.md`).
//!
//! [`Context::cancelled`]: crate::Context::cancelled
//! [`Context::report_progress`]: crate::Context::report_progress
//!
//! # Examples
//!
//! ```
//! use mcpwire::prelude::*;
//! use std::time::Duration;
//!
//! /// Rebuilds the search index; a task when the client can poll one.
//! #[tool(task = "optional")]
//! async fn reindex(ctx: Context) -> String {
//!     for step in 1..=3 {
//!         tokio::select! {
//!             _ = tokio::time::sleep(Duration::from_millis(10)) => {}
//!             _ = ctx.cancelled() => return "stopped".into(),
//!         }
//!         ctx.report_progress(step as f64, Some(3.0), None).await;
//!     }
//!     "reindexed".into()
//! }
//!
//! let server = McpServer::new("search").tool(reindex)?;
//! # drop(server);
//! # Ok::<(), InvalidSignature>(())
//! ```

mod call;
mod listen;
mod memory;
mod methods;
mod options;
mod record;
#[cfg(feature = "redis")]
mod redis;
mod refusals;
pub(crate) mod runtime;
mod signals;
#[cfg(feature = "sqlite")]
mod sqlite;
mod store;
mod worker;

pub use memory::{DEFAULT_CAPACITY, MemoryTaskStore};
pub(crate) use methods::install;
pub(crate) use options::TaskOptions;
pub use options::{DEFAULT_POLL_INTERVAL, DEFAULT_TTL};
#[cfg(feature = "http")]
pub(crate) use record::now_ms;
pub use record::{TaskChange, TaskRecord};
#[cfg(all(feature = "redis", feature = "http"))]
pub(crate) use redis::On as RedisStoreOn;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis::{DEFAULT_LEASE, LEASE_LOST, RedisTaskStore};
pub(crate) use runtime::Tasks;
pub use signals::{TaskSignal, TaskSignals};
#[cfg(feature = "sqlite")]
#[cfg_attr(docsrs, doc(cfg(feature = "sqlite")))]
pub use sqlite::{RESTARTED, SqliteTaskStore};
pub use store::{Admission, StoreError, StoreFuture, TaskStore};

/// `-32021`: `why` needs the tasks extension, which the request did not declare.
pub(crate) fn not_negotiated(why: &str) -> crate::protocol::ErrorObject {
    crate::extension::not_negotiated(why, crate::protocol::tasks::EXTENSION)
}
