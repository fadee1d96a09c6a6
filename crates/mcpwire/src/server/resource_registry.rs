//! The resource registry: resources and resource templates in registration order, enabled or
//! not, and the [`ResourceView`] of the enabled ones that requests read, with its
//! `resources/list` and `resources/templates/list` pages serialized once per change.

use super::entries::Entries;
use super::handler::Handler;
use super::pages::Pages;
use super::resource::ResourceDefinition;
use super::scoped;
use super::uri_template::UriTemplate;
use crate::context::Grant;
use crate::error::InvalidSignature;
use crate::protocol::resources::{Resource, ResourceTemplate};
use crate::resolve::ParamSpec;
use crate::resolve::plan::{Overrides, ToolPlan};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

pub(crate) struct RegisteredResource {
    pub(crate) definition: ResourceDefinition,
    /// The parsed URI template; `None` for a plain URI.
    pub(crate) template: Option<UriTemplate>,
    pub(crate) handler: Arc<Handler>,
}

#[derive(Default)]
pub(crate) struct ResourceRegistry {
    /// Keyed by URI (or URI template).
    entries: Entries<Arc<RegisteredResource>>,
}

impl ResourceRegistry {
    pub(crate) fn add(
        &mut self,
        definition: ResourceDefinition,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let uri = definition.uri;
        if self.entries.contains(uri) {
            return Err(InvalidSignature::new(format!(
                "resource '{uri}' is registered twice"
            )));
        }
        let template = UriTemplate::parse(uri)
            .map_err(|why| InvalidSignature::new(format!("resource '{uri}': {why}")))?;
        check_variables(&definition, template.as_ref())?;
        let handler = handler(&definition, overrides)?;
        let resource = RegisteredResource {
            definition,
            template,
            handler,
        };
        self.entries.push(uri, Arc::new(resource));
        Ok(())
    }

    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for resource in self.entries.values_mut() {
            *resource = Arc::new(RegisteredResource {
                definition: resource.definition.clone(),
                template: resource.template.clone(),
                handler: handler(&resource.definition, overrides)?,
            });
        }
        Ok(())
    }

    /// Forgets the resource (or template) `uri`; `false` when there is none.
    pub(crate) fn remove(&mut self, uri: &str) -> bool {
        self.entries.remove(uri)
    }

    /// Enables or disables the resource (or template) `uri`; `false` when there is none or it
    /// already is.
    pub(crate) fn set_enabled(&mut self, uri: &str, enabled: bool) -> bool {
        self.entries.set_enabled(uri, enabled)
    }

    /// Whether no resource or template is registered, enabled or not.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What requests see: the enabled resources and templates.
    pub(crate) fn view(&self, page_size: usize) -> ResourceView {
        let (templates, plain): (Vec<_>, Vec<_>) = self
            .entries
            .enabled()
            .partition(|resource| resource.template.is_some());
        let listed: Vec<Resource> = plain.iter().map(|r| listed(&r.definition)).collect();
        let templated: Vec<ResourceTemplate> =
            templates.iter().map(|r| template(&r.definition)).collect();
        ResourceView {
            resource_pages: Pages::new("resources", &listed, page_size),
            plain_order: plain.iter().map(|resource| Arc::clone(resource)).collect(),
            any_scoped: std::sync::OnceLock::new(),
            template_pages: Pages::new("resourceTemplates", &templated, page_size),
            plain: plain
                .into_iter()
                .map(|resource| (resource.definition.uri, resource.clone()))
                .collect(),
            templates: templates.into_iter().cloned().collect(),
        }
    }
}

/// The enabled resources (by URI) and templates (in registration order), and their pages.
#[derive(Default)]
pub(crate) struct ResourceView {
    plain: HashMap<&'static str, Arc<RegisteredResource>>,
    /// The plain resources in registration order.
    plain_order: Vec<Arc<RegisteredResource>>,
    /// Whether any resource or template needs scopes, worked out once per view.
    any_scoped: std::sync::OnceLock<bool>,
    templates: Vec<Arc<RegisteredResource>>,
    resource_pages: Pages,
    template_pages: Pages,
}

impl ResourceView {
    /// The resource `uri` names, with the variables its template matched: a plain resource of
    /// that URI first, else the first template that matches it.
    pub(crate) fn find(&self, uri: &str) -> Option<(&Arc<RegisteredResource>, Map<String, Value>)> {
        if let Some(resource) = self.plain.get(uri) {
            return Some((resource, Map::new()));
        }
        self.templates.iter().find_map(|resource| {
            let variables = resource.template.as_ref()?.matches(uri)?;
            Some((resource, variables))
        })
    }

    /// The resource template registered as `uri_template`.
    pub(crate) fn template(&self, uri_template: &str) -> Option<&Arc<RegisteredResource>> {
        self.templates
            .iter()
            .find(|resource| resource.definition.uri == uri_template)
    }

    /// Whether any resource or template needs scopes (else lists need no filtering).
    pub(crate) fn any_scoped(&self) -> bool {
        *self.any_scoped.get_or_init(|| {
            let all = self.plain_order.iter().chain(&self.templates);
            scoped::any_scoped(all, |resource| resource.definition.scopes)
        })
    }

    /// `resources/list` as `grant` may see it, in one page.
    pub(crate) fn resource_page_for(&self, grant: &Grant) -> String {
        let listing = |resource: &Arc<RegisteredResource>| listed(&resource.definition);
        let scopes = |resource: &Arc<RegisteredResource>| resource.definition.scopes;
        scoped::page_for("resources", &self.plain_order, scopes, listing, grant)
    }

    /// `resources/templates/list` as `grant` may see it, in one page.
    pub(crate) fn template_page_for(&self, grant: &Grant) -> String {
        let listing = |resource: &Arc<RegisteredResource>| template(&resource.definition);
        let scopes = |resource: &Arc<RegisteredResource>| resource.definition.scopes;
        scoped::page_for("resourceTemplates", &self.templates, scopes, listing, grant)
    }

    /// Adds every scope some resource or template needs to `all`.
    #[cfg(all(feature = "auth", feature = "http"))]
    pub(crate) fn collect_scopes(&self, all: &mut Vec<&'static str>) {
        let every = self.plain_order.iter().chain(&self.templates);
        scoped::collect_scopes(every, |resource| resource.definition.scopes, all);
    }

    pub(crate) fn resource_pages(&self) -> &Pages {
        &self.resource_pages
    }

    pub(crate) fn template_pages(&self) -> &Pages {
        &self.template_pages
    }
}

fn listed(definition: &ResourceDefinition) -> Resource {
    Resource {
        uri: definition.uri.to_owned(),
        name: definition.name.to_owned(),
        title: definition.title.map(str::to_owned),
        description: definition.description.map(str::to_owned),
        mime_type: definition.mime_type.map(str::to_owned),
        ..Resource::default()
    }
}

fn template(definition: &ResourceDefinition) -> ResourceTemplate {
    ResourceTemplate {
        uri_template: definition.uri.to_owned(),
        name: definition.name.to_owned(),
        title: definition.title.map(str::to_owned),
        description: definition.description.map(str::to_owned),
        mime_type: definition.mime_type.map(str::to_owned),
        ..ResourceTemplate::default()
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
