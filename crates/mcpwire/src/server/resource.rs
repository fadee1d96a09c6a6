//! Resources: what `#[resource]` declares, what a resource may return, and the registry of
//! resources and resource templates.

use super::tool::{Handler, ToolCall};
use super::uri_template::UriTemplate;
use crate::error::{InvalidSignature, ToolError};
use crate::protocol::content::ResourceContents;
use crate::protocol::resources::{Resource, ResourceTemplate};
use crate::resolve::plan::{Overrides, ToolPlan};
use crate::resolve::{ParamSpec, Stop};
use base64::Engine;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The future a resource is read in.
pub type ResourceFuture = Pin<Box<dyn Future<Output = Result<Vec<ResourceContents>, Stop>> + Send>>;

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
    /// The JSON Schema of its parameters filled from the URI's variables.
    pub arguments: fn() -> schemars::Schema,
    /// Where each parameter of the function gets its value.
    pub params: &'static [ParamSpec],
    /// Reads the resource.
    pub call: fn(ToolCall) -> ResourceFuture,
}

/// Something that can be registered with [`McpServer::resource`](crate::McpServer::resource).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a resource",
    note = "annotate the function with `#[mcpwire::resource(uri = \"…\")]` to register it"
)]
pub trait IntoResource {
    /// The resource's definition.
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
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a resource",
    note = "return a String (text), Vec<u8> (bytes), ResourceContents, or a Result of those"
)]
pub trait IntoResourceContents {
    /// The contents of the resource read by `call`.
    fn into_resource_contents(self, call: &ToolCall) -> Result<Vec<ResourceContents>, ToolError>;
}

impl IntoResourceContents for String {
    fn into_resource_contents(self, call: &ToolCall) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::Text {
            uri: call.uri().to_owned(),
            mime_type: call.handler.mime_type.map(str::to_owned),
            text: self,
        }])
    }
}

impl IntoResourceContents for Vec<u8> {
    fn into_resource_contents(self, call: &ToolCall) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::Blob {
            uri: call.uri().to_owned(),
            mime_type: call.handler.mime_type.map(str::to_owned),
            blob: base64::engine::general_purpose::STANDARD.encode(self),
        }])
    }
}

impl IntoResourceContents for ResourceContents {
    fn into_resource_contents(self, _: &ToolCall) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![self])
    }
}

impl IntoResourceContents for Vec<ResourceContents> {
    fn into_resource_contents(self, _: &ToolCall) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(self)
    }
}

impl<T: IntoResourceContents, E: std::fmt::Display> IntoResourceContents for Result<T, E> {
    fn into_resource_contents(self, call: &ToolCall) -> Result<Vec<ResourceContents>, ToolError> {
        self.map_err(|e| ToolError::new(e.to_string()))?
            .into_resource_contents(call)
    }
}

pub(crate) struct RegisteredResource {
    pub(crate) definition: ResourceDefinition,
    pub(crate) template: Option<UriTemplate>,
    pub(crate) handler: Arc<Handler>,
}

/// Resources and templates in registration order.
#[derive(Default)]
pub(crate) struct ResourceRegistry {
    resources: Vec<Arc<RegisteredResource>>,
    by_uri: HashMap<&'static str, usize>,
    listed: Vec<Resource>,
    templates: Vec<ResourceTemplate>,
}

impl ResourceRegistry {
    pub(crate) fn add(
        &mut self,
        definition: ResourceDefinition,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let uri = definition.uri;
        if self.by_uri.contains_key(uri) {
            return Err(InvalidSignature::new(format!(
                "resource '{uri}' is registered twice"
            )));
        }
        let template = UriTemplate::parse(uri)
            .map_err(|why| InvalidSignature::new(format!("resource '{uri}': {why}")))?;
        check_variables(&definition, template.as_ref())?;
        let handler = handler(&definition, overrides)?;
        match &template {
            None => self.listed.push(Resource {
                uri: uri.to_owned(),
                name: definition.name.to_owned(),
                title: definition.title.map(str::to_owned),
                description: definition.description.map(str::to_owned),
                mime_type: definition.mime_type.map(str::to_owned),
                ..Resource::default()
            }),
            Some(_) => self.templates.push(ResourceTemplate {
                uri_template: uri.to_owned(),
                name: definition.name.to_owned(),
                title: definition.title.map(str::to_owned),
                description: definition.description.map(str::to_owned),
                mime_type: definition.mime_type.map(str::to_owned),
                ..ResourceTemplate::default()
            }),
        }
        self.by_uri.insert(uri, self.resources.len());
        self.resources.push(Arc::new(RegisteredResource {
            definition,
            template,
            handler,
        }));
        Ok(())
    }

    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for resource in &mut self.resources {
            let handler = handler(&resource.definition, overrides)?;
            let definition = resource.definition.clone();
            let template = resource.template.clone();
            *resource = Arc::new(RegisteredResource {
                definition,
                template,
                handler,
            });
        }
        Ok(())
    }

    /// The resource `uri` names, with the variables its template matched.
    pub(crate) fn find(&self, uri: &str) -> Option<(&Arc<RegisteredResource>, Map<String, Value>)> {
        if let Some(&index) = self.by_uri.get(uri)
            && self.resources[index].template.is_none()
        {
            return Some((&self.resources[index], Map::new()));
        }
        self.resources.iter().find_map(|resource| {
            let variables = resource.template.as_ref()?.matches(uri)?;
            Some((resource, variables))
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    pub(crate) fn listed(&self) -> &[Resource] {
        &self.listed
    }

    pub(crate) fn templates(&self) -> &[ResourceTemplate] {
        &self.templates
    }
}

fn handler(
    definition: &ResourceDefinition,
    overrides: &Overrides,
) -> Result<Arc<Handler>, InvalidSignature> {
    let plan = ToolPlan::build(definition.uri, definition.params, overrides)?;
    Ok(Arc::new(Handler {
        name: definition.name,
        plan,
        wrap_output: false,
        mime_type: definition.mime_type,
        input_check: None,
    }))
}

/// Every parameter filled from the URI must be one of the template's variables (a plain URI has
/// none).
fn check_variables(
    definition: &ResourceDefinition,
    template: Option<&UriTemplate>,
) -> Result<(), InvalidSignature> {
    let variables: Vec<&str> = template
        .map(|t| t.variables().collect())
        .unwrap_or_default();
    for param in definition.params {
        if let ParamSpec::Argument { name, .. } = param
            && !variables.contains(name)
        {
            return Err(InvalidSignature::new(format!(
                "resource '{}': parameter '{name}' is not a variable of the URI template",
                definition.uri
            )));
        }
    }
    Ok(())
}
