//! [`ExtensionRequest`]: an extension method's request, as its code sees it.

use super::negotiation::{declared_by, not_negotiated};
use crate::context::{Context, authorize};
use crate::protocol::ErrorObject;
use crate::protocol::params::parse;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::sync::Arc;

/// A request for one of an extension's methods, admitted and on its way to the method's code:
/// its parameters, its [`Context`], and the gates the code applies itself (whether the client
/// declared the extension, the scopes of what the request names).
pub struct ExtensionRequest {
    pub(crate) method: &'static str,
    pub(crate) extension: &'static str,
    pub(crate) params: Option<Box<RawValue>>,
    pub(crate) context: Context,
    /// The key a caller's own records are kept under (issuer and subject); `None` anonymous.
    pub(crate) owner: Option<Arc<str>>,
}

impl ExtensionRequest {
    /// The method's name (`skills/list`).
    pub fn method(&self) -> &str {
        self.method
    }

    /// The identifier of the extension the method belongs to.
    pub fn extension(&self) -> &str {
        self.extension
    }

    /// The parameters read as `T` (absent parameters read as `{}`), or `-32602` saying why
    /// they do not fit.
    ///
    /// # Errors
    ///
    /// `-32602` (invalid params) naming the field that does not fit.
    pub fn params<T: DeserializeOwned>(&self) -> Result<T, ErrorObject> {
        parse(self.params.as_deref())
    }

    /// The parameters as sent.
    pub fn raw_params(&self) -> Option<&RawValue> {
        self.params.as_deref()
    }

    /// The request's context: the caller, its grant and capabilities, shared state, progress
    /// and logging.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Whether the client declared this extension (on 2025-11-25 in `initialize`, on
    /// 2026-07-28 in the request's own `_meta`).
    pub fn negotiated(&self) -> bool {
        declared_by(self.context.client_capabilities(), self.extension)
    }

    /// `Ok` when the client declared this extension.
    ///
    /// # Errors
    ///
    /// `-32021` (missing required client capability), naming the extension in
    /// `data.requiredCapabilities`.
    pub fn require_negotiated(&self) -> Result<(), ErrorObject> {
        match self.negotiated() {
            true => Ok(()),
            false => Err(not_negotiated(self.method, self.extension)),
        }
    }

    /// Admits the request to work that needs `scopes`: `Ok` when the caller's grant (if any)
    /// holds every one of them. The same decision the core makes for a tool's scopes. (A
    /// 2025-11-25 request whose mirrored headers disagree with its body never reaches an
    /// extension's method: the router refuses it first.)
    ///
    /// # Errors
    ///
    /// `-32003` (insufficient scope) naming the missing scopes; on HTTP the transport answers
    /// it with a `403` challenge.
    pub fn authorize(&self, scopes: &[&str]) -> Result<(), ErrorObject> {
        authorize(self.context.grant(), scopes)
    }

    /// Who the transport authenticated, as one key (issuer and subject): what a caller's own
    /// records (tasks, sessions) are kept under. `None` for an anonymous caller.
    pub fn owner(&self) -> Option<&str> {
        self.owner.as_deref()
    }
}

impl std::fmt::Debug for ExtensionRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExtensionRequest")
            .field("method", &self.method)
            .field("extension", &self.extension)
            .finish_non_exhaustive()
    }
}
