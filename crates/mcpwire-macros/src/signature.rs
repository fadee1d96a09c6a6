//! What both macros read from a function: its docs, its parameters, its return type, and the
//! unit struct that replaces it.

use crate::docs::docs;
use crate::kind::Kind;
use crate::local::local;
use crate::params::{Param, ParamKind};
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, ItemFn, ReturnType, Type};

/// A parsed `#[tool]`/`#[resolver]` function.
pub(crate) struct Signature {
    pub(crate) item: ItemFn,
    pub(crate) params: Vec<Param>,
}

impl Signature {
    pub(crate) fn parse(item: TokenStream, kind: Kind) -> syn::Result<Self> {
        let what = kind.noun();
        let mut item: ItemFn = syn::parse2(item)?;
        if !item.sig.generics.params.is_empty() {
            return Err(syn::Error::new_spanned(
                &item.sig.generics,
                format!("a {what} cannot be generic"),
            ));
        }
        if let Some(receiver) = item.sig.receiver() {
            return Err(syn::Error::new_spanned(
                receiver,
                format!("a {what} is a free function, not a method"),
            ));
        }
        let mut params = Vec::new();
        for input in &mut item.sig.inputs {
            if let syn::FnArg::Typed(typed) = input {
                let param = Param::parse(typed)?;
                check_constraints(&param, kind)?;
                params.push(param);
            }
        }
        Ok(Self { item, params })
    }

    pub(crate) fn name(&self) -> &syn::Ident {
        &self.item.sig.ident
    }

    pub(crate) fn is_async(&self) -> bool {
        self.item.sig.asyncness.is_some()
    }

    /// The declared return type, `()` when there is none.
    pub(crate) fn return_type(&self) -> Type {
        match &self.item.sig.output {
            ReturnType::Default => syn::parse_quote!(()),
            ReturnType::Type(_, ty) => (**ty).clone(),
        }
    }

    /// The doc comment, lines joined.
    pub(crate) fn docs(&self) -> Option<String> {
        docs(&self.item.attrs)
    }

    /// The function as written (minus the parameter attributes this crate owns) under the one
    /// path users call it by, `name::call(..)`: a struct named like the function (types and
    /// functions live in separate namespaces) with the body as its associated function.
    pub(crate) fn callable(&self, what: &str) -> TokenStream {
        let name = self.name();
        let vis = &self.item.vis;
        let (_, attrs) = self.split_attrs();
        let mut item = self.item.clone();
        item.attrs = attrs.into_iter().cloned().collect();
        item.sig.ident = syn::Ident::new("call", name.span());
        let type_doc = format!(
            "The {what} [`{name}()`]'s body, callable with plain arguments as [`{name}::call`]."
        );
        let call_doc = format!(
            "The body of the {what} `{name}`, called directly with plain arguments (from a unit \
             test, say): no resolver runs and nothing is parsed."
        );
        quote! {
            #[doc = #type_doc]
            #[allow(non_camel_case_types, dead_code)]
            #[derive(Clone, Copy, Debug, Default)]
            #vis struct #name {}

            impl #name {
                #[doc = #call_doc]
                #[allow(clippy::too_many_arguments)]
                #item
            }
        }
    }

    /// The attributes of the function split into its doc comment and the rest.
    pub(crate) fn split_attrs(&self) -> (Vec<&Attribute>, Vec<&Attribute>) {
        self.item
            .attrs
            .iter()
            .partition(|a| a.path().is_ident("doc"))
    }

    /// Binds the function to the local `__body` before its parameters are bound to locals of
    /// their names (a parameter may be named like the function).
    pub(crate) fn bind_body(&self) -> TokenStream {
        let (name, body) = (self.name(), local("__body"));
        quote! { let #body = #name::call; }
    }

    /// The call of the original function (bound by [`Signature::bind_body`]) with every
    /// parameter bound to a local of its name.
    pub(crate) fn call_expr(&self) -> TokenStream {
        let (args, body) = (self.params.iter().map(|p| &p.ident), local("__body"));
        quote! { #body(#(#args),*) }
    }

    pub(crate) fn params_of(&self, kind: fn(&ParamKind) -> bool) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(move |p| kind(&p.kind))
    }
}

/// `#[schemars(...)]` constraints reach a schema, and are checked, only on a tool's argument:
/// elsewhere they would be silently ignored, so they are refused.
fn check_constraints(param: &Param, kind: Kind) -> syn::Result<()> {
    let Some(attr) = param.schema_attrs.first() else {
        return Ok(());
    };
    if kind != Kind::Tool {
        return Err(syn::Error::new_spanned(
            attr,
            format!(
                "#[schemars(...)] constraints belong on a tool's parameters; a {} does not \
                 check them",
                kind.noun()
            ),
        ));
    }
    if let ParamKind::Resolved(_) = param.kind {
        return Err(syn::Error::new_spanned(
            attr,
            "#[schemars(...)] constrains a tool argument; a resolved parameter is not one",
        ));
    }
    Ok(())
}
