//! Resources: what `#[resource]` declares and what a resource may return.

use super::cache::CacheHint;
use super::handler::{HandlerCall, HandlerFuture};
use crate::error::ToolError;
use crate::protocol::content::ResourceContents;
use crate::protocol::lifecycle::CacheScope;
use crate::resolve::ParamSpec;
use base64::Engine;

/// The future a resource is read in.
pub type ResourceFuture = HandlerFuture<Vec<ResourceContents>>;

/// Everything a server needs to list and read one resource (or resource template);
/// `#[resource]` builds it.
#[derive(Clone)]
pub struct ResourceDefinition {
    /// The URI, or a URI template with `{variables}`.
    pub uri: &'static str,
    /// A short name.
    pub name: &'static str,
    /// A display title.
    pub title: Option<&'static str>,
    /// What it holds (the function's doc comment).
    pub description: Option<&'static str>,
    /// Its MIME type.
    pub mime_type: Option<&'static str>,
    /// How long a client may reuse a read (2026-07-28 `ttlMs`); 0 unless declared.
    pub ttl_ms: u64,
    /// Who may reuse a read (2026-07-28 `cacheScope`); private unless declared.
    pub cache_scope: CacheScope,
    /// The JSON Schema of its parameters filled from the URI's variables.
    pub arguments: fn() -> schemars::Schema,
    /// Where each parameter of the function gets its value.
    pub params: &'static [ParamSpec],
    /// `#[resource(scopes = […])]`: the OAuth scopes a caller's token must grant to see and
    /// read the resource, on a server with authorization (`mcpwire::auth`); empty for everyone.
    pub scopes: &'static [&'static str],
    /// Reads the resource.
    pub call: fn(HandlerCall) -> ResourceFuture,
}

impl ResourceDefinition {
    /// The cache hints its reads carry.
    pub(crate) fn cache_hint(&self) -> CacheHint {
        CacheHint {
            ttl_ms: self.ttl_ms,
            scope: self.cache_scope,
        }
    }
}

/// Something that can be registered with [`McpServer::resource`](crate::McpServer::resource).
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::server::IntoResource;
///
/// /// Today's notes.
/// #[resource(uri = "notes://today")]
/// async fn today() -> String { "- buy milk".into() }
///
/// fn register(
///     server: McpServer,
///     resource: impl IntoResource,
/// ) -> Result<McpServer, InvalidSignature> {
///     server.resource(resource)
/// }
///
/// let server = register(McpServer::new("notes"), today)?;
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a resource",
    note = "annotate the function with `#[mcpwire::resource(uri = \"…\")]` to register it"
)]
pub trait IntoResource {
    /// The resource's definition.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::server::IntoResource;
    ///
    /// /// A user's profile.
    /// #[resource(uri = "users://{id}/profile", mime_type = "application/json")]
    /// async fn profile(id: String) -> String { format!(r#"{{"id":"{id}"}}"#) }
    ///
    /// let definition = profile.into_resource();
    /// assert_eq!(definition.uri, "users://{id}/profile");
    /// assert_eq!(definition.mime_type, Some("application/json"));
    /// ```
    #[doc(hidden)]
    fn into_resource(self) -> ResourceDefinition;
}

/// The argument of a `#[resource]` function: only the server can produce one.
#[derive(Debug)]
pub struct ResourceMarker(());

impl<F: FnOnce(ResourceMarker) -> ResourceDefinition> IntoResource for F {
    fn into_resource(self) -> ResourceDefinition {
        self(ResourceMarker(()))
    }
}

/// What a resource function may return.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// The logo, as bytes: a `Vec<u8>` is sent as a base64 blob.
/// #[resource(uri = "shop://logo.png", mime_type = "image/png")]
/// async fn logo() -> Vec<u8> { vec![0x89, b'P', b'N', b'G'] }
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
/// let mut client = McpServer::new("shop").resource(logo)?.serve_memory().await?;
/// let reply = client
///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"shop://logo.png"}}"#)
///     .await;
/// assert!(reply.unwrap().contains(r#""mimeType":"image/png","blob":"iVBORw==""#));
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a resource",
    note = "return a String (text), Vec<u8> (bytes), ResourceContents, or a Result of those"
)]
pub trait IntoResourceContents {
    /// The contents of the resource read by `call`.
    ///
    /// See the example on [`IntoResourceContents`]: the SDK calls this when a resource is
    /// read; the call it receives is not built outside the SDK.
    #[doc(hidden)]
    fn into_resource_contents(self, call: &HandlerCall)
    -> Result<Vec<ResourceContents>, ToolError>;
}

impl IntoResourceContents for String {
    fn into_resource_contents(
        self,
        call: &HandlerCall,
    ) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::Text {
            uri: call.uri().to_owned(),
            mime_type: call.handler.mime_type.map(str::to_owned),
            text: self,
        }])
    }
}

impl IntoResourceContents for Vec<u8> {
    fn into_resource_contents(
        self,
        call: &HandlerCall,
    ) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::Blob {
            uri: call.uri().to_owned(),
            mime_type: call.handler.mime_type.map(str::to_owned),
            blob: base64::engine::general_purpose::STANDARD.encode(self),
        }])
    }
}

impl IntoResourceContents for ResourceContents {
    fn into_resource_contents(self, _: &HandlerCall) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![self])
    }
}

impl IntoResourceContents for Vec<ResourceContents> {
    fn into_resource_contents(self, _: &HandlerCall) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(self)
    }
}

impl<T: IntoResourceContents, E: std::fmt::Display> IntoResourceContents for Result<T, E> {
    fn into_resource_contents(
        self,
        call: &HandlerCall,
    ) -> Result<Vec<ResourceContents>, ToolError> {
        self.map_err(|e| ToolError::new(e.to_string()))?
            .into_resource_contents(call)
    }
}
