//! `#[tool]`: a function becomes a unit struct implementing `mcp::server::IntoTool`.

use crate::handler::{HandlerParts, handler_parts};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

#[derive(Default)]
struct ToolOptions {
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
    open_world: Option<bool>,
}

impl ToolOptions {
    fn parse(attr: TokenStream) -> syn::Result<Self> {
        let mut options = ToolOptions::default();
        let parser = syn::meta::parser(|meta| {
            let flag = |meta: &syn::meta::ParseNestedMeta| -> syn::Result<bool> {
                if meta.input.peek(syn::Token![=]) {
                    Ok(meta.value()?.parse::<syn::LitBool>()?.value)
                } else {
                    Ok(true)
                }
            };
            let text = |meta: &syn::meta::ParseNestedMeta| -> syn::Result<String> {
                Ok(meta.value()?.parse::<LitStr>()?.value())
            };
            if meta.path.is_ident("name") {
                options.name = Some(text(&meta)?);
            } else if meta.path.is_ident("title") {
                options.title = Some(text(&meta)?);
            } else if meta.path.is_ident("description") {
                options.description = Some(text(&meta)?);
            } else if meta.path.is_ident("read_only") {
                options.read_only = Some(flag(&meta)?);
            } else if meta.path.is_ident("destructive") {
                options.destructive = Some(flag(&meta)?);
            } else if meta.path.is_ident("idempotent") {
                options.idempotent = Some(flag(&meta)?);
            } else if meta.path.is_ident("open_world") {
                options.open_world = Some(flag(&meta)?);
            } else {
                return Err(meta.error(
                    "unknown #[tool] option; expected name, title, description, read_only, \
                     destructive, idempotent or open_world",
                ));
            }
            Ok(())
        });
        syn::parse::Parser::parse2(parser, attr)?;
        Ok(options)
    }
}

fn option_str(value: &Option<String>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(value: Option<bool>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = ToolOptions::parse(attr)?;
    let signature = Signature::parse(item, "tool")?;
    let name = signature.name();
    let tool_name = options.name.clone().unwrap_or_else(|| name.to_string());
    let description = option_str(&options.description.clone().or_else(|| signature.docs()));
    let title = option_str(&options.title);
    let read_only = option_bool(options.read_only);
    let destructive = option_bool(options.destructive);
    let idempotent = option_bool(options.idempotent);
    let open_world = option_bool(options.open_world);
    let ret = signature.return_type();

    let HandlerParts {
        items,
        body,
        params,
        inner,
        docs,
        vis,
    } = handler_parts(&signature, "the tool");
    // Spanned on the return type, so an unsupported one is reported there.
    let convert = quote_spanned! {ret.span()=>
        (&&&::mcp::__private::Probe::<#ret>::new()).tool_result(__output, &call)
    };
    let shape = quote_spanned! {ret.span()=>
        (&&&::mcp::__private::Probe::<#ret>::new()).output_shape()
    };
    Ok(quote! {
        #(#docs)*
        ///
        /// *An MCP tool: register it with `McpServer::tool`.*
        #vis fn #name(_: ::mcp::server::ToolMarker) -> ::mcp::__private::ToolDefinition {
                #inner
                #items

                fn __call(call: ::mcp::__private::ToolCall) -> ::mcp::__private::ToolFuture {
                    ::mcp::__private::Box::pin(async move {
                        #[allow(unused_imports)]
                        use ::mcp::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _};
                        #body
                        ::core::result::Result::Ok(#convert)
                    })
                }

                fn __output() -> ::mcp::server::OutputShape {
                    #[allow(unused_imports)]
                    use ::mcp::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _};
                    #shape
                }

                #params

                ::mcp::__private::ToolDefinition {
                    name: #tool_name,
                    title: #title,
                    description: #description,
                    annotations: ::mcp::__private::ToolAnnotations {
                        read_only_hint: #read_only,
                        destructive_hint: #destructive,
                        idempotent_hint: #idempotent,
                        open_world_hint: #open_world,
                        ..::core::default::Default::default()
                    },
                    input_schema: ::mcp::__private::schema_for::<__Arguments>,
                    output: __output,
                    params: PARAMS,
                    call: __call,
                }
        }
    })
}
