//! Entries defined at run time from data: a tool (prompt, resource, template) listed exactly as
//! a given listing says (its input and output schemas, annotations, `_meta`), and served by a
//! function that reads the call's raw arguments and finds what it needs by the entry's name in
//! the server's shared state. What a gateway registers for the tools of the servers behind it.
//!
//! The listing is not checked against anything but the name rules: the function receives the
//! arguments as sent (no parsing into parameters, no check against the schema: whoever the
//! function forwards them to checks them).

use super::catalog::Catalog;
use super::handler::HandlerCall;
use super::lasting::lasting;
use super::prompt::{PromptDefinition, PromptFuture};
use super::resource::{ResourceDefinition, ResourceFuture};
use super::resource_kind::ResourceListing;
use super::tool::{ToolDefinition, ToolFuture};
use crate::error::InvalidSignature;
use crate::protocol::lifecycle::CacheScope;
use crate::protocol::prompts::Prompt;
use crate::protocol::resources::{Resource, ResourceTemplate};
use crate::protocol::tools::{Tool, ToolAnnotations};
use crate::wire::shared_json::SharedJson;

impl Catalog {
    /// Registers a tool listed as `listing`, whose calls run `call`; also called by `aliases`,
    /// which are never listed and find it only while no other tool has that name or alias.
    pub(crate) fn add_listed_tool(
        &self,
        listing: Tool,
        call: fn(HandlerCall) -> ToolFuture,
        aliases: &[String],
    ) -> Result<(), InvalidSignature> {
        let definition = ToolDefinition {
            name: lasting(&listing.name),
            title: None,
            description: None,
            annotations: ToolAnnotations::default(),
            input_schema: object_schema,
            input_schema_given: false,
            output: || super::output::OutputShape::Content,
            params: &[],
            once: false,
            scopes: &[],
            task: crate::protocol::tasks::TaskSupport::Forbidden,
            ask_before_task: false,
            call,
        };
        let aliases = aliases.iter().map(|alias| lasting(alias)).collect();
        self.registries()
            .add_listed_tool(definition, listing, aliases)
    }

    /// Registers a prompt listed as `listing`, rendered by `call`.
    pub(crate) fn add_listed_prompt(
        &self,
        listing: Prompt,
        call: fn(HandlerCall) -> PromptFuture,
    ) -> Result<(), InvalidSignature> {
        let definition = PromptDefinition {
            name: lasting(&listing.name),
            title: None,
            description: None,
            arguments: object_schema,
            params: &[],
            scopes: &[],
            call,
        };
        self.registries().add_listed_prompt(definition, listing)
    }

    /// Registers a plain resource listed as `listing`, read by `call`. Reads are private to
    /// the caller (no cache hint from elsewhere makes them public).
    pub(crate) fn add_listed_resource(
        &self,
        listing: Resource,
        call: fn(HandlerCall) -> ResourceFuture,
    ) -> Result<(), InvalidSignature> {
        let definition = resource(&listing.uri, call);
        self.registries()
            .add_listed_resource(definition, ResourceListing::Plain(listing))
    }

    /// Registers a resource template listed as `listing`, read by `call`.
    pub(crate) fn add_listed_template(
        &self,
        listing: ResourceTemplate,
        call: fn(HandlerCall) -> ResourceFuture,
    ) -> Result<(), InvalidSignature> {
        let definition = resource(&listing.uri_template, call);
        self.registries()
            .add_listed_resource(definition, ResourceListing::Template(listing))
    }
}

impl HandlerCall {
    /// The arguments as the client sent them, their JSON text (`None` when it sent none).
    pub(crate) fn raw_arguments(&self) -> Option<&str> {
        self.kept.arguments.as_ref().map(SharedJson::get)
    }

    /// The name the tool (prompt) was registered under; for an entry of
    /// [`add_listed_resource`](Catalog::add_listed_resource) or
    /// [`add_listed_template`](Catalog::add_listed_template), its URI (template).
    pub(crate) fn name(&self) -> &'static str {
        self.handler.name
    }
}

/// A resource (or template) registered under `uri`; its handler's name is `uri` too, so the
/// function finds its route by the URI (template) the catalog matched, not by the URI read.
fn resource(uri: &str, call: fn(HandlerCall) -> ResourceFuture) -> ResourceDefinition {
    ResourceDefinition {
        uri: lasting(uri),
        name: lasting(uri),
        title: None,
        description: None,
        mime_type: None,
        ttl_ms: 0,
        cache_scope: CacheScope::Private,
        arguments: object_schema,
        params: &[],
        scopes: &[],
        call,
    }
}

fn object_schema() -> schemars::Schema {
    schemars::json_schema!({ "type": "object" })
}
