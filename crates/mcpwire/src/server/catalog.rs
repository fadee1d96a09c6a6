//! `Catalog`: changes the server's tools, prompts and resources while it serves.

use super::builder::McpServer;
use super::prompt::IntoPrompt;
use super::registries::Registries;
use super::resource::IntoResource;
use super::tool::IntoTool;
use crate::error::InvalidSignature;
use crate::protocol::list_changed::ChangedList;
use std::fmt;
use std::sync::Arc;

/// Adds, removes, enables and disables the server's tools, prompts and resources, before or
/// while it serves. Cheap to clone; take it from [`McpServer::catalog`] before serving.
///
/// A disabled tool (prompt, resource) stays registered but is absent from its list, and a call
/// to it is answered like a call to one that does not exist; enabling it brings it back. Each
/// change made while the server serves sends its own list-changed notification: to every
/// initialized 2025-11-25 session, and to the 2026-07-28 `subscriptions/listen` streams that
/// asked for that list. A method that changes nothing (removing a name that is not registered,
/// disabling a disabled tool) returns `false` and announces nothing.
///
/// Taking a catalog is what makes the server declare `listChanged: true` for its tools,
/// prompts and resources: a server without one never changes its lists, and says so. With a
/// catalog, all three capabilities are declared even if a list starts empty, since the catalog
/// may fill it later.
///
/// Requests read the lists without locking: every change publishes a new snapshot (rebuilding
/// only the changed list and its serialized pages), and a request in flight finishes with the
/// one it started with.
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// /// Multiplies two numbers.
/// #[tool]
/// async fn multiply(a: i64, b: i64) -> i64 { a * b }
///
/// let server = McpServer::new("calculator").tool(add)?;
/// let catalog = server.catalog();
/// // Later, from anywhere (a background task, an admin endpoint, a tool):
/// catalog.add_tool(multiply)?;
/// assert!(catalog.disable_tool("add"));
/// assert!(catalog.enable_tool("add"));
/// assert!(catalog.remove_tool("multiply"));
/// assert!(!catalog.remove_tool("multiply"), "already gone");
/// # drop(server);
/// # Ok::<(), mcpwire::InvalidSignature>(())
/// ```
#[derive(Clone)]
pub struct Catalog {
    registries: Arc<Registries>,
}

#[cfg(feature = "gateway")]
impl Catalog {
    /// The registries it edits (for [`super::listed`]).
    pub(super) fn registries(&self) -> &Registries {
        &self.registries
    }
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog").finish_non_exhaustive()
    }
}

impl McpServer {
    /// A handle that changes this server's tools, prompts and resources, before or while it
    /// serves (see [`Catalog`]). Taking one declares `listChanged: true` for all three.
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// let server = McpServer::new("greeter").tool(hello)?;
    /// let catalog = server.catalog();
    /// assert!(catalog.disable_tool("hello"));
    /// # drop(server);
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn catalog(&self) -> Catalog {
        let registries = self.registries().clone();
        registries.make_changeable();
        Catalog { registries }
    }
}

impl Catalog {
    /// Registers a tool (a function annotated with `#[tool]`), enabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// let catalog = McpServer::new("greeter").catalog();
    /// catalog.add_tool(hello)?;
    /// assert!(catalog.add_tool(hello).is_err(), "a name is registered once");
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] as for [`McpServer::tool`]: the name is invalid or taken (by an
    /// enabled or a disabled tool), the schema or the resolver graph is broken.
    pub fn add_tool<Kind>(&self, tool: impl IntoTool<Kind>) -> Result<(), InvalidSignature> {
        self.registries.add_tool(tool.into_tool())
    }

    /// Unregisters the tool `name`; `false` when there is none.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// let server = McpServer::new("greeter").tool(hello)?;
    /// assert!(server.catalog().remove_tool("hello"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn remove_tool(&self, name: &str) -> bool {
        self.registries.remove(ChangedList::Tools, name)
    }

    /// Brings the disabled tool `name` back; `false` when there is none or it is enabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// let server = McpServer::new("greeter").tool(hello)?;
    /// let catalog = server.catalog();
    /// assert!(!catalog.enable_tool("hello"), "already enabled");
    /// catalog.disable_tool("hello");
    /// assert!(catalog.enable_tool("hello"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn enable_tool(&self, name: &str) -> bool {
        self.registries.set_enabled(ChangedList::Tools, name, true)
    }

    /// Hides the tool `name` from `tools/list` and refuses calls to it as unknown, until it is
    /// enabled again; `false` when there is none or it is disabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// let server = McpServer::new("greeter").tool(hello)?;
    /// assert!(server.catalog().disable_tool("hello"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn disable_tool(&self, name: &str) -> bool {
        self.registries.set_enabled(ChangedList::Tools, name, false)
    }

    /// Registers a prompt (a function annotated with `#[prompt]`), enabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Asks for a review.
    /// #[prompt]
    /// async fn review(code: String) -> String { format!("Review:\n{code}") }
    ///
    /// McpServer::new("prompts").catalog().add_prompt(review)?;
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] as for [`McpServer::prompt`].
    pub fn add_prompt<Kind>(&self, prompt: impl IntoPrompt<Kind>) -> Result<(), InvalidSignature> {
        self.registries.add_prompt(prompt.into_prompt())
    }

    /// Unregisters the prompt `name`; `false` when there is none.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Asks for a review.
    /// #[prompt]
    /// async fn review(code: String) -> String { format!("Review:\n{code}") }
    ///
    /// let server = McpServer::new("prompts").prompt(review)?;
    /// assert!(server.catalog().remove_prompt("review"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.registries.remove(ChangedList::Prompts, name)
    }

    /// Brings the disabled prompt `name` back; `false` when there is none or it is enabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Asks for a review.
    /// #[prompt]
    /// async fn review(code: String) -> String { format!("Review:\n{code}") }
    ///
    /// let server = McpServer::new("prompts").prompt(review)?;
    /// let catalog = server.catalog();
    /// catalog.disable_prompt("review");
    /// assert!(catalog.enable_prompt("review"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn enable_prompt(&self, name: &str) -> bool {
        self.registries
            .set_enabled(ChangedList::Prompts, name, true)
    }

    /// Hides the prompt `name` from `prompts/list` and refuses `prompts/get` of it as unknown,
    /// until it is enabled again; `false` when there is none or it is disabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Asks for a review.
    /// #[prompt]
    /// async fn review(code: String) -> String { format!("Review:\n{code}") }
    ///
    /// let server = McpServer::new("prompts").prompt(review)?;
    /// assert!(server.catalog().disable_prompt("review"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn disable_prompt(&self, name: &str) -> bool {
        self.registries
            .set_enabled(ChangedList::Prompts, name, false)
    }

    /// Registers a resource or resource template (a function annotated with `#[resource]`),
    /// enabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Today's news.
    /// #[resource(uri = "news://today")]
    /// async fn today() -> String { "Nothing happened.".into() }
    ///
    /// McpServer::new("news").catalog().add_resource(today)?;
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] as for [`McpServer::resource`].
    pub fn add_resource<Kind>(
        &self,
        resource: impl IntoResource<Kind>,
    ) -> Result<(), InvalidSignature> {
        self.registries.add_resource(resource.into_resource())
    }

    /// Unregisters the resource (or template) registered as `uri`; `false` when there is none.
    /// Clients subscribed to it keep their subscription but get no more updates of it.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Today's news.
    /// #[resource(uri = "news://today")]
    /// async fn today() -> String { "Nothing happened.".into() }
    ///
    /// let server = McpServer::new("news").resource(today)?;
    /// assert!(server.catalog().remove_resource("news://today"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn remove_resource(&self, uri: &str) -> bool {
        self.registries.remove(ChangedList::Resources, uri)
    }

    /// Brings the disabled resource (or template) `uri` back; `false` when there is none or it
    /// is enabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Today's news.
    /// #[resource(uri = "news://today")]
    /// async fn today() -> String { "Nothing happened.".into() }
    ///
    /// let server = McpServer::new("news").resource(today)?;
    /// let catalog = server.catalog();
    /// catalog.disable_resource("news://today");
    /// assert!(catalog.enable_resource("news://today"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn enable_resource(&self, uri: &str) -> bool {
        self.registries
            .set_enabled(ChangedList::Resources, uri, true)
    }

    /// Hides the resource (or template) `uri` from its list; reading or subscribing to a URI
    /// it served is then answered as not found, until it is enabled again. `false` when there
    /// is none or it is disabled.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Today's news.
    /// #[resource(uri = "news://today")]
    /// async fn today() -> String { "Nothing happened.".into() }
    ///
    /// let server = McpServer::new("news").resource(today)?;
    /// assert!(server.catalog().disable_resource("news://today"));
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub fn disable_resource(&self, uri: &str) -> bool {
        self.registries
            .set_enabled(ChangedList::Resources, uri, false)
    }
}
