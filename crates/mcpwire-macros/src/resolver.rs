//! `#[resolver]`: a function becomes a unit struct implementing `mcpwire::resolve::Resolver`.

use crate::options::Options;
use crate::params::{Param, ParamKind};
use crate::signature::{Signature, last_segment};
use proc_macro2::TokenStream;
use quote::quote;

/// Return types that say for themselves how they resolve (`IntoResolution`); anything else is
/// a plain value.
const SELF_RESOLVING: &[&str] = &["Result", "Elicit", "ElicitUrl", "Sample", "ListRoots"];

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = Options::parse(attr, "resolver", &["key"], &[])?;
    let signature = Signature::parse(item, "resolver")?;
    let name = signature.name();
    let name_str = name.to_string();
    // The key its questions are asked under (`inputRequests`) and its answers recorded under
    // (`requestState`): `module::path::name` unless the author fixes it with `key = "…"`.
    let key = match options.string("key") {
        Some(key) if key.is_empty() => {
            return Err(syn::Error::new(
                proc_macro2::Span::call_site(),
                "#[resolver(key = \"…\")] must not be empty",
            ));
        }
        Some(key) => quote!(#key),
        None => quote!(::core::concat!(::core::module_path!(), "::", #name_str)),
    };
    let ret = signature.return_type();
    let self_resolving =
        last_segment(&ret).is_some_and(|segment| SELF_RESOLVING.contains(&segment.as_str()));
    let (output, wrap, resolving) = if self_resolving {
        (
            quote!(<#ret as ::mcpwire::__private::IntoResolution>::Value),
            quote!(),
            quote!(#ret),
        )
    } else {
        (
            quote!(#ret),
            quote!(::mcpwire::__private::Ready),
            quote!(::mcpwire::__private::Ready<#ret>),
        )
    };

    let gather = signature.params.iter().enumerate().map(|(position, p)| {
        let (ident, ty) = (&p.ident, &p.ty);
        match &p.kind {
            ParamKind::Context => quote! {
                let #ident: ::mcpwire::__private::Context = inputs.context();
            },
            ParamKind::Argument => quote! {
                let #ident: #ty = inputs.argument::<#ty>(#position);
            },
            ParamKind::Resolved(path) => {
                let param_name = p.wire_name();
                quote! {
                    let #ident: #ty = match inputs.resolved::<
                        <#path as ::mcpwire::__private::Resolver>::Output, #ty
                    >(#position, #param_name) {
                        ::core::result::Result::Ok(value) => value,
                        ::core::result::Result::Err(error) => {
                            return ::mcpwire::__private::Box::pin(async move {
                                ::mcpwire::__private::Outcome::Failed(error)
                            });
                        }
                    };
                }
            }
        }
    });
    let call_expr = signature.call_expr();
    let bind_body = signature.bind_body();
    let run = if signature.is_async() {
        quote! { let __value = #call_expr.await; }
    } else {
        let what = format!("resolver '{name_str}'");
        quote! {
            let __value = match ::mcpwire::__private::run_blocking(#what, move || #call_expr).await {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(error) => return ::mcpwire::__private::Outcome::Failed(error),
            };
        }
    };
    let specs = signature.params.iter().map(Param::spec);
    let function = signature.function();
    let vis = &signature.item.vis;
    let type_doc = format!(
        "The resolver [`{name_str}()`]: name it in `#[resolve({name_str})]` on a tool or resolver \
         parameter."
    );

    Ok(quote! {
        #function

        #[doc = #type_doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name {}

        impl ::mcpwire::__private::Resolver for #name {
            type Output = #output;

            fn definition() -> ::mcpwire::__private::ResolverDefinition {
                fn __run(
                    inputs: ::mcpwire::__private::ResolverInputs<'_>,
                ) -> ::mcpwire::__private::ResolverFuture {
                    #bind_body
                    #(#gather)*
                    ::mcpwire::__private::Box::pin(async move {
                        #run
                        ::mcpwire::__private::IntoResolution::into_resolution(#wrap(__value)).map(
                            |value| ::mcpwire::__private::Arc::new(value) as ::mcpwire::__private::ResolvedValue,
                        )
                    })
                }

                const PARAMS: &[::mcpwire::__private::ParamSpec] = &[#(#specs),*];

                ::mcpwire::__private::ResolverDefinition {
                    id: ::mcpwire::__private::TypeId::of::<#name>,
                    name: #name_str,
                    key: #key,
                    params: PARAMS,
                    output_type: ::mcpwire::__private::TypeId::of::<#output>,
                    run: __run,
                    prepare: <#resolving as ::mcpwire::__private::IntoResolution>::prepare,
                }
            }
        }
    })
}
