//! What every handler macro (`#[tool]`, `#[prompt]`, `#[resource]`) generates alike: the
//! argument type, and the call body that parses the arguments once, runs the resolvers, binds
//! the context, and calls the function.

use crate::kind::Kind;
use crate::local::local;
use crate::params::{DefaultValue, Param, ParamKind};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Visibility};

pub(crate) struct HandlerParts<'a> {
    /// `__Arguments` (visible arguments, `Deserialize + JsonSchema`), its defaults, and its
    /// `ArgumentSource` impl.
    pub(crate) items: TokenStream,
    /// Statements that leave the function's return value in the local `__output`, returning
    /// `Err(Stop)` early; they need the local `call: HandlerCall` in scope (see [`crate::local`]).
    pub(crate) body: TokenStream,
    /// `const PARAMS: &[ParamSpec]`.
    pub(crate) params: TokenStream,
    /// The function's body as `name::call`, emitted beside the definition function.
    pub(crate) callable: TokenStream,
    /// The doc comment, for the definition function.
    pub(crate) docs: Vec<&'a Attribute>,
    /// The function's visibility.
    pub(crate) vis: &'a Visibility,
}

pub(crate) fn handler_parts(signature: &Signature, kind: Kind) -> HandlerParts<'_> {
    let what = format!("the {}", kind.noun());
    let arguments: Vec<&Param> = signature.params_of(Param::is_argument).collect();
    let mut defaults = Vec::new();
    let fields: Vec<TokenStream> = arguments
        .iter()
        .map(|p| {
            let ident = &p.ident;
            let ty = &p.ty;
            let rename = p.rename.as_ref().map(|r| quote!(#[serde(rename = #r)]));
            let constraints = &p.schema_attrs;
            let doc = p.description.as_ref().map(|d| quote!(#[doc = #d]));
            let header = p
                .header
                .as_ref()
                .map(|h| quote!(#[schemars(extend("x-mcp-header" = #h))]));
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
            // Spanned on the parameter's type: a type that is neither a tool argument nor the
            // context is reported there.
            let field =
                quote_spanned!(ty.span()=> <#ty as ::mcpwire::__private::FromRequest>::Field);
            quote! { #doc #rename #default #header #(#constraints)* #ident: #field }
        })
        .collect();
    let argument_idents: Vec<_> = arguments.iter().map(|p| &p.ident).collect();
    let argument_indices = 0..arguments.len();
    let items = quote! {
        #(#defaults)*

        #[derive(::mcpwire::__private::serde::Deserialize, ::mcpwire::__private::schemars::JsonSchema)]
        #[serde(crate = "::mcpwire::__private::serde")]
        #[schemars(crate = "::mcpwire::__private::schemars")]
        struct __Arguments {
            #(#fields,)*
        }

        impl ::mcpwire::__private::ArgumentSource for __Arguments {
            #[allow(unreachable_code, unused_variables)]
            fn argument(&self, index: usize) -> &(dyn ::mcpwire::__private::Any + Send + Sync) {
                match index {
                    #(#argument_indices => &self.#argument_idents,)*
                    _ => unreachable!("argument index out of range"),
                }
            }
        }
    };

    let (call, arguments_local, output) = (local("call"), local("__arguments"), local("__output"));
    let (resolution_local, checks_local) = (local("__resolution"), local("__checks"));
    let stop = quote! { return ::core::result::Result::Err(::core::convert::Into::into(error)) };
    let resolved: Vec<&Param> = signature.params_of(Param::is_resolved).collect();
    let resolution = (!resolved.is_empty()).then(|| {
        let declarations = resolved.iter().map(|p| {
            let (ident, ty) = (&p.ident, &p.ty);
            quote! { let #ident: #ty; }
        });
        let takes = resolved.iter().enumerate().map(|(position, p)| {
            let ident = &p.ident;
            let ParamKind::Resolved(path) = &p.kind else {
                unreachable!()
            };
            let param_name = p.wire_name();
            quote_spanned! {p.ty.span()=>
                #ident = match #resolution_local.take(
                    #position,
                    #param_name,
                    (&&::mcpwire::__private::ReturnProbe::<
                        <#path as ::mcpwire::__private::Resolver>::Returns
                    >::new()).witness(),
                ) {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(error) => #stop,
                };
            }
        });
        let checks = resolved.iter().map(|p| {
            let ty = &p.ty;
            let ParamKind::Resolved(path) = &p.kind else {
                unreachable!()
            };
            let param_name = p.wire_name();
            quote_spanned! {p.ty.span()=>
                (
                    ::mcpwire::__private::consumer_check::<_, #ty>(
                        (&&::mcpwire::__private::ReturnProbe::<
                            <#path as ::mcpwire::__private::Resolver>::Returns
                        >::new()).witness(),
                    ),
                    #param_name,
                )
            }
        });
        quote! {
            #(#declarations)*
            {
                let #checks_local = [#(#checks),*];
                let #resolution_local = match #call.resolve(&#arguments_local, &#checks_local).await {
                    ::core::result::Result::Ok(resolution) => resolution,
                    ::core::result::Result::Err(error) => #stop,
                };
                #(#takes)*
            }
        }
    });
    let from_request = arguments.iter().map(|p| {
        let (ident, ty) = (&p.ident, &p.ty);
        quote_spanned! {ty.span()=>
            let #ident: #ty =
                <#ty as ::mcpwire::__private::FromRequest>::from_request(#ident, &|| #call.context());
        }
    });
    let call_expr = signature.call_expr();
    let bind_body = signature.bind_body();
    let run = if signature.is_async() {
        quote! { let #output = #call_expr.await; }
    } else {
        quote! {
            let #output = match ::mcpwire::__private::run_blocking(#what, move || #call_expr).await {
                ::core::result::Result::Ok(output) => output,
                ::core::result::Result::Err(error) => #stop,
            };
        }
    };
    let body = quote! {
        #bind_body
        let #arguments_local: __Arguments = match #call.parse_arguments() {
            ::core::result::Result::Ok(arguments) => arguments,
            ::core::result::Result::Err(error) => {
                return ::core::result::Result::Err(::mcpwire::__private::Stop::InvalidArguments(error));
            }
        };
        #resolution
        #[allow(unused_variables)]
        let __Arguments { #(#argument_idents),* } = #arguments_local;
        #(#from_request)*
        #run
    };

    let specs = signature.params.iter().map(Param::spec);
    let params = quote! { const PARAMS: &[::mcpwire::__private::ParamSpec] = &[#(#specs),*]; };

    let (docs, _) = signature.split_attrs();
    let callable = signature.callable(kind.noun());
    HandlerParts {
        items,
        body,
        params,
        callable,
        docs,
        vis: &signature.item.vis,
    }
}

/// `fn __call(call: HandlerCall) -> <future>`: the handler's body, then `finish` (an expression of
/// type `Result<_, E>` with `E: Into<Stop>`, using the locals `__output` and `call`).
pub(crate) fn call_fn(future: TokenStream, body: &TokenStream, finish: TokenStream) -> TokenStream {
    let call = local("call");
    quote! {
        fn __call(#call: ::mcpwire::__private::HandlerCall) -> #future {
            ::mcpwire::__private::Box::pin(async move {
                #[allow(unused_imports)]
                use ::mcpwire::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _, ViaUnsupported as _};
                #[allow(unused_imports)]
                use ::mcpwire::__private::{ViaIntoResolution as _, ViaPlainValue as _};
                #body
                #finish.map_err(::core::convert::Into::into)
            })
        }
    }
}

impl HandlerParts<'_> {
    /// The whole expansion: the body as `name::call`, and `fn name(_: Marker) -> Definition`
    /// (only the server has a `Marker`, so it runs once, at registration), documented by the
    /// function's doc comment and `role`. It declares the argument type, `call_fn`, `extra`
    /// items and `PARAMS`, and returns `definition`, which names them.
    pub(crate) fn expand(
        self,
        name: &syn::Ident,
        (role, marker, definition_type): (&str, TokenStream, TokenStream),
        (call_fn, extra): (TokenStream, TokenStream),
        definition: TokenStream,
    ) -> TokenStream {
        let HandlerParts {
            items,
            params,
            callable,
            docs,
            vis,
            ..
        } = self;
        quote! {
            #callable

            #(#docs)*
            ///
            #[doc = #role]
            #vis fn #name(_: #marker) -> #definition_type {
                #items

                #call_fn

                #extra

                #params

                #definition
            }
        }
    }
}
