//! The four `*/list` methods: the page a cursor points at, or, for a caller with a grant when
//! some entry needs scopes, the one page of what the grant allows.

use crate::dispatch::admitted::Admitted;
use crate::dispatch::exchange::{Exchange, parse_or_default};
use crate::layer::McpResponse;
use crate::protocol::ErrorObject;
use crate::protocol::cache_hint::CacheHint;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tools::PaginatedParams;
use crate::server::pages::Pages;
use serde_json::value::RawValue;
use std::future::Future;
use std::sync::Arc;

/// Which list.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Listed {
    Tools,
    Prompts,
    Resources,
    ResourceTemplates,
}

/// Serves an admitted list request through the server-wide layers: the future of their answer
/// (a plain function, as every request's future holds this one).
pub(crate) fn serve(
    admitted: Admitted<'_>,
    listed: Listed,
    params: Option<Box<RawValue>>,
) -> impl Future<Output = McpResponse> + Send + use<> {
    let exchange = Arc::clone(admitted.exchange);
    let responder = admitted.responder();
    let kind = ResultKind::Cacheable(
        CacheHint::public(exchange.core.limits.list_ttl)
            .for_principal(exchange.principal.as_deref()),
    );
    let listing = async move {
        list(&exchange, listed, params.as_deref(), |page| {
            responder.line(page, kind)
        })
    };
    admitted.through(None, listing)
}

/// Answers a list request: `respond` writes the response line from the result object.
fn list(
    exchange: &Exchange,
    listed: Listed,
    params: Option<&RawValue>,
    respond: impl FnOnce(&str) -> String,
) -> Result<String, ErrorObject> {
    let snapshot = exchange.core.snapshot();
    let any_scoped = match listed {
        Listed::Tools => snapshot.tools.any_scoped(),
        Listed::Prompts => snapshot.prompts.any_scoped(),
        Listed::Resources | Listed::ResourceTemplates => snapshot.resources.any_scoped(),
    };
    if let Some(grant) = exchange.grant.as_deref()
        && any_scoped
    {
        let page = match listed {
            Listed::Tools => snapshot.tools.page_for("tools", grant),
            Listed::Prompts => snapshot.prompts.page_for("prompts", grant),
            Listed::Resources => snapshot.resources.resource_page_for(grant),
            Listed::ResourceTemplates => snapshot.resources.template_page_for(grant),
        };
        return Ok(respond(&page));
    }
    let pages = match listed {
        Listed::Tools => snapshot.tools.pages(),
        Listed::Prompts => snapshot.prompts.pages(),
        Listed::Resources => snapshot.resources.resource_pages(),
        Listed::ResourceTemplates => snapshot.resources.template_pages(),
    };
    Ok(respond(page(pages, params)?))
}

/// The page of a list result the request's cursor points at.
fn page<'p>(pages: &'p Pages, params: Option<&RawValue>) -> Result<&'p str, ErrorObject> {
    let params: PaginatedParams = parse_or_default(params)?;
    pages
        .page(params.cursor.as_deref())
        .map(RawValue::get)
        .ok_or_else(|| ErrorObject::invalid_params("Invalid params: unknown cursor"))
}
