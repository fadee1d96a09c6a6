//! What kind of result a request ended with: the `resultType` of a 2026-07-28 result (and its
//! cache hints). The one kind the methods, the envelope and the layers all speak.

use super::cache_hint::CacheHint;

/// What kind of result it is, for the 2026-07-28 envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ResultKind {
    /// `resultType: "complete"`.
    Complete,
    /// A complete result the client may cache as the hint says (`ttlMs`, `cacheScope`).
    Cacheable(CacheHint),
    /// `resultType: "input_required"`: questions for the client.
    InputRequired,
    /// `resultType: "task"`: a task of the tasks extension stands for the result.
    Task,
}
