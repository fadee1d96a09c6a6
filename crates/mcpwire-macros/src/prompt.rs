//! `#[prompt]`: a function becomes the definition of an MCP prompt.

use crate::handler::{HandlerParts, call_fn, handler_parts};
use crate::options::{Keys, Options, option_str};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let keys = Keys {
        strings: &["name", "title", "description"],
        lists: &["scopes"],
        ..Keys::default()
    };
    let options = Options::parse_keys(attr, "prompt", &keys)?;
    let scopes = options.list("scopes");
    let signature = Signature::parse(item, "prompt")?;
    let name = signature.name();
    let prompt_name = options.string("name").unwrap_or_else(|| name.to_string());
    let description = option_str(options.string("description").or_else(|| signature.docs()));
    let title = option_str(options.string("title"));
    let ret = signature.return_type();
    let convert = quote_spanned! {ret.span()=>
        ::mcpwire::__private::IntoGetPromptResult::into_get_prompt_result(__output)
    };
    let HandlerParts {
        items,
        body,
        params,
        callable,
        docs,
        vis,
    } = handler_parts(&signature, "the prompt");
    let call_fn = call_fn(quote!(::mcpwire::__private::PromptFuture), &body, convert);
    Ok(quote! {
        #callable

        #(#docs)*
        ///
        /// *An MCP prompt: register it with `McpServer::prompt`.*
        #vis fn #name(_: ::mcpwire::__private::PromptMarker) -> ::mcpwire::__private::PromptDefinition {
            #items

            #call_fn

            #params

            ::mcpwire::__private::PromptDefinition {
                name: #prompt_name,
                title: #title,
                description: #description,
                arguments: ::mcpwire::__private::schema_for::<__Arguments>,
                params: PARAMS,
                scopes: &[#(#scopes),*],
                call: __call,
            }
        }
    })
}
