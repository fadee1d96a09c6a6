//! The methods, one file per family. Each reads its parsed parameters, decides authorization
//! where it looks its handler up ([`authorize`](super::authorize)), and runs it
//! ([`runner`](super::runner)). The method table ([`table`](super::table)) names what serves
//! each method: a handler method ([`handlers`]), a list ([`lists`]), or a serving function of
//! the method's own file.

pub(crate) mod completion;
pub(crate) mod handlers;
pub(crate) mod lifecycle;
pub(crate) mod listen;
pub(crate) mod lists;
pub(crate) mod logging;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod subscriptions;
pub(crate) mod tools;
