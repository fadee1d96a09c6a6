//! The `subscriptions/listen` hook of the extension seam (2026-07-28): an extension admits its
//! part of a listen request's filter (the tasks extension: `taskIds`) before the acknowledgement,
//! and hands the core a [`Feed`] of the notifications it then sends on the stream, each tagged
//! with the subscription's id.

use super::intercept::Boxed;
use crate::protocol::{ErrorObject, RequestId, SubscriptionFilter};

/// A listen request, as the core hands it to an extension's hook.
pub(crate) trait ListenRequest: Send + Sync {
    /// Whether the request declared the extension `id` in its capabilities.
    fn declared(&self, id: &str) -> bool;
    /// The caller's principal, when the server knows one.
    fn principal(&self) -> Option<&str>;
    /// `Err` (the request is refused) when the caller's grant lacks one of `scopes`.
    fn admit_scopes(&self, scopes: &[&str]) -> Result<(), ErrorObject>;
}

/// The notifications an extension sends on one listen stream.
pub(crate) trait Feed: Send {
    /// The next notification line, tagged with the subscription `id`; `None` once the feed has
    /// ended (the stream goes on with the core's own notifications).
    fn next<'a>(&'a mut self, id: &'a RequestId) -> Boxed<'a, Option<String>>;
}

/// An extension's hook on `subscriptions/listen`.
pub(crate) trait ListenHook: Send + Sync + 'static {
    /// Admits this extension's part of the filter the client `asked` for into `honored` (what
    /// the acknowledgement will say), refusing the request with an error, and returns what the
    /// stream follows for it (`None`: nothing).
    fn admit<'a>(
        &'a self,
        request: &'a dyn ListenRequest,
        asked: &'a SubscriptionFilter,
        honored: &'a mut SubscriptionFilter,
    ) -> Boxed<'a, Result<Option<Box<dyn Feed>>, ErrorObject>>;
}
