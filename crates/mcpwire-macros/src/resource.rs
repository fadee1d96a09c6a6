//! `#[resource]`: a function becomes the definition of an MCP resource, or of a resource
//! template when its URI has `{variables}` (each filled into the parameter of that name).

use crate::handler::{HandlerParts, call_fn, handler_parts};
use crate::options::{Keys, Options, option_str};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let span = proc_macro2::Span::call_site();
    let keys = Keys {
        strings: &["uri", "name", "title", "description", "mime_type", "cache"],
        integers: &["ttl_ms"],
        flags: &[],
        lists: &["scopes"],
    };
    let options = Options::parse_keys(attr, "resource", &keys)?;
    let scopes = options.list("scopes");
    let Some(uri) = options.string("uri") else {
        return Err(syn::Error::new(span, "#[resource] needs a `uri = \"…\"`"));
    };
    let signature = Signature::parse(item, "resource")?;
    let name = signature.name();
    let resource_name = options.string("name").unwrap_or_else(|| name.to_string());
    let description = option_str(options.string("description").or_else(|| signature.docs()));
    let title = option_str(options.string("title"));
    let mime_type = option_str(options.string("mime_type"));
    // Without hints a resource is not cached: it may differ per caller or change any time.
    let ttl_ms = options.integer("ttl_ms").unwrap_or(0);
    let cache_scope = match options.string("cache").as_deref() {
        None | Some("private") => quote!(::mcpwire::__private::CacheScope::Private),
        Some("public") => quote!(::mcpwire::__private::CacheScope::Public),
        Some(other) => {
            return Err(syn::Error::new(
                span,
                format!("#[resource] `cache = \"{other}\"`: expected \"public\" or \"private\""),
            ));
        }
    };
    let ret = signature.return_type();
    let convert = quote_spanned! {ret.span()=>
        ::mcpwire::__private::IntoResourceContents::into_resource_contents(__output, &call)
    };
    let HandlerParts {
        items,
        body,
        params,
        callable,
        docs,
        vis,
    } = handler_parts(&signature, "the resource");
    let call_fn = call_fn(quote!(::mcpwire::__private::ResourceFuture), &body, convert);
    Ok(quote! {
        #callable

        #(#docs)*
        ///
        /// *An MCP resource: register it with `McpServer::resource`.*
        #vis fn #name(_: ::mcpwire::__private::ResourceMarker) -> ::mcpwire::__private::ResourceDefinition {
            #items

            #call_fn

            #params

            ::mcpwire::__private::ResourceDefinition {
                uri: #uri,
                name: #resource_name,
                title: #title,
                description: #description,
                mime_type: #mime_type,
                ttl_ms: #ttl_ms,
                cache_scope: #cache_scope,
                arguments: ::mcpwire::__private::schema_for::<__Arguments>,
                params: PARAMS,
                scopes: &[#(#scopes),*],
                call: __call,
            }
        }
    })
}
