//! `#[prompt]`: a function becomes the definition of an MCP prompt.

use crate::handler::{call_fn, handler_parts};
use crate::kind::Kind;
use crate::local::local;
use crate::options::PromptOptions;
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let PromptOptions { listing } = PromptOptions::parse(attr)?;
    let signature = Signature::parse(item, Kind::Prompt)?;
    let name = signature.name();
    let listing = listing.fields(name, signature.docs());
    let ret = signature.return_type();
    let output = local("__output");
    let convert = quote_spanned! {ret.span()=>
        ::mcpwire::__private::IntoGetPromptResult::into_get_prompt_result(#output)
    };
    let parts = handler_parts(&signature, Kind::Prompt);
    let call_fn = call_fn(
        quote!(::mcpwire::__private::PromptFuture),
        &parts.body,
        convert,
    );
    Ok(parts.expand(
        name,
        (
            "*An MCP prompt: register it with `McpServer::prompt`.*",
            quote!(::mcpwire::__private::PromptMarker),
            quote!(::mcpwire::__private::PromptDefinition),
        ),
        (call_fn, TokenStream::new()),
        quote! {
            ::mcpwire::__private::PromptDefinition {
                #listing
                arguments: ::mcpwire::__private::schema_for::<__Arguments>,
                params: PARAMS,
                call: __call,
            }
        },
    ))
}
