//! `#[resolver]`: a function becomes a unit struct implementing `mcpwire::resolve::Resolver`.

use crate::kind::Kind;
use crate::local::local;
use crate::options::ResolverOptions;
use crate::params::{Param, ParamKind};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = ResolverOptions::parse(attr)?;
    let signature = Signature::parse(item, Kind::Resolver)?;
    let name = signature.name();
    let name_str = name.to_string();
    // The key its questions are asked under (`inputRequests`) and its answers recorded under
    // (`requestState`): `module::path::name` unless the author fixes it with `key = "…"`.
    let key = match &options.key {
        Some(key) => quote!(#key),
        None => quote!(::core::concat!(::core::module_path!(), "::", #name_str)),
    };
    let ret = signature.return_type();
    // What the return type resolves to is decided by trait (`IntoResolution`, else a plain
    // value), through method resolution on a probe of the type: never by the type's name.
    let probe = quote_spanned!(syn::spanned::Spanned::span(&ret)=> (&&::mcpwire::__private::ReturnProbe::<#ret>::new()));
    let inputs = local("inputs");
    let value = local("__value");
    // Spanned on the return type, argument included (a local is of another hygiene context,
    // which the compiler would trace back to the attribute): a value its consumers cannot share
    // is reported there.
    let outcome = quote_spanned! {syn::spanned::Spanned::span(&ret)=>
        #probe.outcome(::core::convert::identity(#value))
    };

    let gather = signature.params.iter().enumerate().map(|(position, p)| {
        let (ident, ty) = (&p.ident, &p.ty);
        match &p.kind {
            ParamKind::Argument => quote_spanned! {syn::spanned::Spanned::span(ty)=>
                let #ident: #ty = #inputs.request::<#ty>(#position);
            },
            ParamKind::Resolved(path) => {
                let param_name = p.wire_name();
                quote_spanned! {syn::spanned::Spanned::span(ty)=>
                    let #ident: #ty = match #inputs.resolved(
                        #position,
                        #param_name,
                        (&&::mcpwire::__private::ReturnProbe::<
                            <#path as ::mcpwire::__private::Resolver>::Returns
                        >::new()).witness(),
                    ) {
                        ::core::result::Result::Ok(value) => value,
                        ::core::result::Result::Err(error) => {
                            return ::mcpwire::__private::Box::pin(async move {
                                ::mcpwire::__private::Resolution::Failed(error)
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
        quote! { let #value = #call_expr.await; }
    } else {
        let what = format!("resolver '{name_str}'");
        quote! {
            let #value = match ::mcpwire::__private::run_blocking(#what, move || #call_expr).await {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(error) => return ::mcpwire::__private::Resolution::Failed(error),
            };
        }
    };
    let specs = signature.params.iter().map(Param::spec);
    let callable = signature.callable(Kind::Resolver.noun());

    Ok(quote! {
        #callable

        impl ::mcpwire::__private::Resolver for #name {
            type Returns = #ret;

            fn definition() -> ::mcpwire::__private::ResolverDefinition {
                #[allow(unused_imports)]
                use ::mcpwire::__private::{ViaIntoResolution as _, ViaPlainValue as _};

                fn __run(
                    #inputs: ::mcpwire::__private::ResolverInputs<'_>,
                ) -> ::mcpwire::__private::ResolverFuture {
                    #bind_body
                    #(#gather)*
                    ::mcpwire::__private::Box::pin(async move {
                        #run
                        #outcome
                    })
                }

                const PARAMS: &[::mcpwire::__private::ParamSpec] = &[#(#specs),*];

                ::mcpwire::__private::ResolverDefinition {
                    id: ::mcpwire::__private::TypeId::of::<#name>,
                    name: #name_str,
                    key: #key,
                    params: PARAMS,
                    output_type: || #probe.value_type_id(),
                    output_type_name: || #probe.value_type_name(),
                    run: __run,
                    prepare: #probe.prepare(),
                }
            }
        }
    })
}
