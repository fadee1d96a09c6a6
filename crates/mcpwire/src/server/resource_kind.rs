//! Resources as registry entries: a resource is keyed by its URI, or by its URI template, whose
//! variables must cover the parameters filled from the URI; a read finds a plain resource by its
//! URI, else the most specific template that matches (the longest literal text before its first
//! variable; the first registered among equals).

use super::handler::Handler;
use super::kind::{Common, Kind, Registered};
use super::named_view::NamedView;
use super::pages::Pages;
use super::resource::ResourceDefinition;
use super::uri_template::UriTemplate;
use crate::context::Grant;
use crate::error::InvalidSignature;
use crate::protocol::resources::{Resource, ResourceTemplate};
use crate::resolve::ParamSpec;
use crate::resolve::plan::Overrides;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A registered resource or resource template.
pub(crate) type RegisteredResource = Registered<ResourceDefinition>;

impl Kind for ResourceDefinition {
    type Listing = ResourceListing;
    /// The parsed URI template; `None` for a plain URI.
    type Extra = Option<UriTemplate>;
    type View = ResourceView;
    const NOUN: &'static str = "resource";

    fn common(&self) -> Common {
        Common::new(self.uri, self.params, self.scopes)
    }

    fn register(self, overrides: &Overrides) -> Result<Registered<Self>, InvalidSignature> {
        let uri = self.uri;
        let template = UriTemplate::parse(uri)
            .map_err(|why| InvalidSignature::new(format!("resource '{uri}': {why}")))?;
        check_variables(&self, template.as_ref())?;
        let handler = Handler {
            mime_type: self.mime_type,
            ..Handler::new(self.name, self.plan(overrides)?)
        };
        let listed = match template {
            Some(_) => ResourceListing::Template(template_listing(&self)),
            None => ResourceListing::Plain(listed(&self)),
        };
        Ok(Registered {
            definition: self,
            handler: Arc::new(handler),
            listed,
            extra: template,
            aliases: Vec::new(),
        })
    }

    fn view(enabled: Vec<&Arc<Registered<Self>>>, page_size: usize) -> ResourceView {
        let (templates, plain) = enabled
            .into_iter()
            .partition(|resource| resource.extra.is_some());
        ResourceView {
            plain: NamedView::new("resources", plain, page_size),
            templates: NamedView::new("resourceTemplates", templates, page_size),
        }
    }

    fn listing_meta(listing: &mut ResourceListing) -> &mut Option<Map<String, Value>> {
        match listing {
            ResourceListing::Plain(resource) => &mut resource.meta,
            ResourceListing::Template(template) => &mut template.meta,
        }
    }

    fn renamed(&self, key: &'static str) -> Self {
        Self {
            uri: key,
            ..self.clone()
        }
    }

    fn rename_listing(listing: &mut ResourceListing, key: &str) {
        match listing {
            ResourceListing::Plain(resource) => key.clone_into(&mut resource.uri),
            ResourceListing::Template(template) => key.clone_into(&mut template.uri_template),
        }
    }
}

/// How `resources/list` shows a plain resource, or `resources/templates/list` a template.
#[derive(Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum ResourceListing {
    Plain(Resource),
    Template(ResourceTemplate),
}

impl RegisteredResource {
    /// The parsed URI template; `None` for a plain resource.
    pub(crate) fn template(&self) -> Option<&UriTemplate> {
        self.extra.as_ref()
    }
}

/// The enabled resources (by URI) and templates (by URI template, in registration order), and
/// their pages.
#[derive(Default)]
pub(crate) struct ResourceView {
    plain: NamedView<ResourceDefinition>,
    templates: NamedView<ResourceDefinition>,
}

impl ResourceView {
    /// The resource `uri` names, with the variables its template matched: a plain resource of
    /// that URI first, else the most specific template that matches it, the one with the
    /// longest literal text before its first variable (so `skill://docs/{+path}` answers
    /// `skill://docs/a/SKILL.md` before `skill://{+path}`, whatever their order), the first
    /// registered among equals.
    pub(crate) fn find(&self, uri: &str) -> Option<(&Arc<RegisteredResource>, Map<String, Value>)> {
        if let Some(resource) = self.plain.get(uri) {
            return Some((resource, Map::new()));
        }
        let mut best: Option<(usize, &Arc<RegisteredResource>, Map<String, Value>)> = None;
        for resource in self.templates.entries() {
            let Some(template) = resource.template() else {
                continue;
            };
            let specificity = template.literal_prefix_len();
            if best.as_ref().is_some_and(|(most, ..)| *most >= specificity) {
                continue;
            }
            if let Some(variables) = template.matches(uri) {
                best = Some((specificity, resource, variables));
            }
        }
        best.map(|(_, resource, variables)| (resource, variables))
    }

    /// The resource template registered as `uri_template`.
    pub(crate) fn template(&self, uri_template: &str) -> Option<&Arc<RegisteredResource>> {
        self.templates.get(uri_template)
    }

    /// Whether any resource or template needs scopes (else lists need no filtering).
    pub(crate) fn any_scoped(&self) -> bool {
        self.plain.any_scoped() || self.templates.any_scoped()
    }

    /// `resources/list` as `grant` may see it, in one page.
    pub(crate) fn resource_page_for(&self, grant: &Grant) -> String {
        self.plain.page_for("resources", grant)
    }

    /// `resources/templates/list` as `grant` may see it, in one page.
    pub(crate) fn template_page_for(&self, grant: &Grant) -> String {
        self.templates.page_for("resourceTemplates", grant)
    }

    /// Adds every scope some resource or template needs to `all`.
    #[cfg(all(feature = "auth", feature = "http"))]
    pub(crate) fn collect_scopes(&self, all: &mut Vec<&'static str>) {
        self.plain.collect_scopes(all);
        self.templates.collect_scopes(all);
    }

    /// The pages of `resources/list`.
    pub(crate) fn resource_pages(&self) -> &Pages {
        self.plain.pages()
    }

    /// The pages of `resources/templates/list`.
    pub(crate) fn template_pages(&self) -> &Pages {
        self.templates.pages()
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

fn template_listing(definition: &ResourceDefinition) -> ResourceTemplate {
    ResourceTemplate {
        uri_template: definition.uri.to_owned(),
        name: definition.name.to_owned(),
        title: definition.title.map(str::to_owned),
        description: definition.description.map(str::to_owned),
        mime_type: definition.mime_type.map(str::to_owned),
        ..ResourceTemplate::default()
    }
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
