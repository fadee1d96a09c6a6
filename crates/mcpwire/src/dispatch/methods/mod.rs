//! The methods, one file per family. Each reads its parsed parameters, decides authorization
//! where it looks its handler up ([`authorize`](super::authorize)), and runs it
//! ([`runner`](super::runner)).

pub(crate) mod completion;
pub(crate) mod lifecycle;
pub(crate) mod listen;
pub(crate) mod lists;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod tasks;
pub(crate) mod tools;
