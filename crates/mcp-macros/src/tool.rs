//! `#[tool]`: a function becomes a unit struct implementing `mcp::server::IntoTool`.

use crate::params::{DefaultValue, Param, ParamKind};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
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
    let title_hint = option_str(&options.title).to_string();
    let _ = title_hint;
    let read_only = option_bool(options.read_only);
    let destructive = option_bool(options.destructive);
    let idempotent = option_bool(options.idempotent);
    let open_world = option_bool(options.open_world);
    let ret = signature.return_type();

    let arguments: Vec<&Param> = signature.params_of(Param::is_argument).collect();
    let mut defaults = Vec::new();
    let fields = arguments.iter().map(|p| {
        let ident = &p.ident;
        let ty = &p.ty;
        let rename = p.rename.as_ref().map(|r| quote!(#[serde(rename = #r)]));
        let doc = p.description.as_ref().map(|d| quote!(#[doc = #d]));
        let default = match &p.default {
            None => None,
            Some(DefaultValue::Trait) => Some(quote!(#[serde(default)])),
            Some(DefaultValue::Expr(expr)) => {
                let function = format_ident!("__default_{}", ident);
                let path = function.to_string();
                defaults.push(quote! { fn #function() -> #ty { #expr } });
                Some(quote!(#[serde(default = #path)]))
            }
        };
        quote! { #doc #rename #default #ident: #ty }
    });
    let fields: Vec<TokenStream> = fields.collect();
    let argument_idents: Vec<_> = arguments.iter().map(|p| &p.ident).collect();
    let argument_indices = 0..arguments.len();

    let resolved: Vec<&Param> = signature.params_of(Param::is_resolved).collect();
    let resolution = (!resolved.is_empty()).then(|| {
        let declarations = resolved.iter().map(|p| {
            let (ident, ty) = (&p.ident, &p.ty);
            quote! { let #ident: #ty; }
        });
        let takes = resolved.iter().enumerate().map(|(position, p)| {
            let (ident, ty) = (&p.ident, &p.ty);
            let ParamKind::Resolved(path) = &p.kind else {
                unreachable!()
            };
            let param_name = p.wire_name();
            quote! {
                #ident = match __resolution.take::<
                    <#path as ::mcp::__private::Resolver>::Output, #ty
                >(#position, #param_name) {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(error) => return call.stopped(error),
                };
            }
        });
        quote! {
            #(#declarations)*
            {
                let __resolution = match call.resolve(&__arguments).await {
                    ::core::result::Result::Ok(resolution) => resolution,
                    ::core::result::Result::Err(stop) => return call.stopped(stop),
                };
                #(#takes)*
            }
        }
    });
    let contexts = signature.params_of(Param::is_context).map(|p| {
        let ident = &p.ident;
        quote! { let #ident: ::mcp::__private::Context = call.context(); }
    });
    let call_expr = signature.call_expr();
    let bind_body = signature.bind_body();
    let run = if signature.is_async() {
        quote! { let __output = #call_expr.await; }
    } else {
        quote! {
            let __output = match ::mcp::__private::run_blocking("the tool", move || #call_expr).await {
                ::core::result::Result::Ok(output) => output,
                ::core::result::Result::Err(error) => return call.stopped(error),
            };
        }
    };
    let specs = signature.params.iter().map(Param::spec);
    // Spanned on the return type, so an unsupported one is reported there.
    let convert = quote_spanned! {ret.span()=>
        (&&&::mcp::__private::Probe::<#ret>::new()).tool_result(__output, &call)
    };
    let shape = quote_spanned! {ret.span()=>
        (&&&::mcp::__private::Probe::<#ret>::new()).output_shape()
    };
    let (docs, attrs) = signature.split_attrs();
    let vis = &signature.item.vis;
    let inner = {
        let mut item = signature.item.clone();
        item.attrs = attrs.into_iter().cloned().collect();
        item.vis = syn::Visibility::Inherited;
        item
    };

    Ok(quote! {
        #(#docs)*
        ///
        /// *An MCP tool: register it with `McpServer::tool`.*
        #vis fn #name(_: ::mcp::server::ToolMarker) -> ::mcp::__private::ToolDefinition {
                #[allow(clippy::too_many_arguments)]
                #inner
                #(#defaults)*

                #[derive(::mcp::__private::serde::Deserialize, ::mcp::__private::schemars::JsonSchema)]
                #[serde(crate = "::mcp::__private::serde")]
                #[schemars(crate = "::mcp::__private::schemars")]
                struct __Arguments {
                    #(#fields,)*
                }

                impl ::mcp::__private::ArgumentSource for __Arguments {
                    #[allow(unreachable_code, unused_variables)]
                    fn argument(&self, index: usize) -> &(dyn ::mcp::__private::Any + Send + Sync) {
                        match index {
                            #(#argument_indices => &self.#argument_idents,)*
                            _ => unreachable!("argument index out of range"),
                        }
                    }
                }

                fn __call(call: ::mcp::__private::ToolCall) -> ::mcp::__private::ToolFuture {
                    ::mcp::__private::Box::pin(async move {
                        #[allow(unused_imports)]
                        use ::mcp::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _};
                        #bind_body
                        let __arguments: __Arguments = match call.parse_arguments() {
                            ::core::result::Result::Ok(arguments) => arguments,
                            ::core::result::Result::Err(error) => return call.stopped(error),
                        };
                        #resolution
                        #[allow(unused_variables)]
                        let __Arguments { #(#argument_idents),* } = __arguments;
                        #(#contexts)*
                        #run
                        ::mcp::__private::ToolOutcome::Complete(#convert)
                    })
                }

                fn __output() -> ::mcp::server::OutputShape {
                    #[allow(unused_imports)]
                    use ::mcp::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _};
                    #shape
                }

                const PARAMS: &[::mcp::__private::ParamSpec] = &[#(#specs),*];

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
