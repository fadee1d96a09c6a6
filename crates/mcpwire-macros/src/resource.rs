//! `#[resource]`: a function becomes the definition of an MCP resource, or of a resource
//! template when its URI has `{variables}` (each filled into the parameter of that name).

use crate::handler::{call_fn, handler_parts};
use crate::kind::Kind;
use crate::local::local;
use crate::options::{CacheOption, ResourceOptions, option_str};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = ResourceOptions::parse(attr)?;
    let signature = Signature::parse(item, Kind::Resource)?;
    let name = signature.name();
    let listing = options.listing.fields(name, signature.docs());
    let uri = &options.uri;
    let mime_type = option_str(options.mime_type.as_deref());
    // Without hints a resource is not cached: it may differ per caller or change any time.
    let ttl_ms = options.ttl_ms;
    let cache_scope = match options.cache {
        CacheOption::Private => quote!(::mcpwire::__private::CacheScope::Private),
        CacheOption::Public => quote!(::mcpwire::__private::CacheScope::Public),
    };
    let ret = signature.return_type();
    let (output, call) = (local("__output"), local("call"));
    let convert = quote_spanned! {ret.span()=>
        ::mcpwire::__private::IntoResourceContents::into_resource_contents(#output, &#call)
    };
    let parts = handler_parts(&signature, Kind::Resource);
    let call_fn = call_fn(
        quote!(::mcpwire::__private::ResourceFuture),
        &parts.body,
        convert,
    );
    Ok(parts.expand(
        name,
        (
            "*An MCP resource: register it with `McpServer::resource`.*",
            quote!(::mcpwire::__private::ResourceMarker),
            quote!(::mcpwire::__private::ResourceDefinition),
        ),
        (call_fn, TokenStream::new()),
        quote! {
            ::mcpwire::__private::ResourceDefinition {
                #listing
                uri: #uri,
                mime_type: #mime_type,
                ttl_ms: #ttl_ms,
                cache_scope: #cache_scope,
                arguments: ::mcpwire::__private::schema_for::<__Arguments>,
                params: PARAMS,
                call: __call,
            }
        },
    ))
}
