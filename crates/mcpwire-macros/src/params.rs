//! One parameter of a tool or resolver: where its value comes from, and its argument options.

use crate::docs::docs;
use syn::{Attribute, Expr, Ident, LitStr, PatType, Type};

/// Where a parameter's value comes from.
pub(crate) enum ParamKind {
    /// A resolver's value.
    Resolved(syn::Path),
    /// Filled from the request (`FromRequest`): a tool argument (visible on a tool; matched by
    /// name on a resolver) or the request's `Context`, told apart by trait, not by name.
    Argument,
}

/// How a missing argument is filled.
pub(crate) enum DefaultValue {
    /// `Default::default()`.
    Trait,
    /// An expression.
    Expr(Expr),
}

pub(crate) struct Param {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    pub(crate) kind: ParamKind,
    pub(crate) rename: Option<String>,
    pub(crate) default: Option<DefaultValue>,
    pub(crate) description: Option<String>,
    /// `#[arg(header = "Name")]`: mirrored in the `Mcp-Param-Name` HTTP header (2026-07-28).
    pub(crate) header: Option<String>,
    /// `#[schemars(...)]` attributes (constraints such as `length(min = 1)`), moved to the
    /// argument's field so they reach its schema (tools only).
    pub(crate) schema_attrs: Vec<Attribute>,
}

impl Param {
    /// Reads a parameter and strips the attributes this crate owns from it.
    pub(crate) fn parse(typed: &mut PatType) -> syn::Result<Self> {
        let ident = match &*typed.pat {
            syn::Pat::Ident(pat) if pat.subpat.is_none() => pat.ident.clone(),
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "parameters must be plain names (`name: Type`)",
                ));
            }
        };
        let ty = (*typed.ty).clone();
        let mut kind = ParamKind::Argument;
        let mut rename = None;
        let mut default = None;
        let mut description = docs(&typed.attrs);
        let mut header = None;
        for attr in &typed.attrs {
            if attr.path().is_ident("resolve") {
                kind = ParamKind::Resolved(attr.parse_args()?);
            } else if attr.path().is_ident("arg") {
                attr.parse_nested_meta(|meta| {
                    if meta.path.is_ident("rename") {
                        rename = Some(meta.value()?.parse::<LitStr>()?.value());
                    } else if meta.path.is_ident("header") {
                        header = Some(meta.value()?.parse::<LitStr>()?.value());
                    } else if meta.path.is_ident("description") {
                        description = Some(meta.value()?.parse::<LitStr>()?.value());
                    } else if meta.path.is_ident("default") {
                        default = Some(if meta.input.peek(syn::Token![=]) {
                            DefaultValue::Expr(meta.value()?.parse()?)
                        } else {
                            DefaultValue::Trait
                        });
                    } else {
                        return Err(meta.error(
                            "unknown #[arg] option; expected rename, description, default or header",
                        ));
                    }
                    Ok(())
                })?;
            }
        }
        let (schema_attrs, rest) = std::mem::take(&mut typed.attrs)
            .into_iter()
            .partition(|a| a.path().is_ident("schemars"));
        typed.attrs = rest;
        typed.attrs.retain(|a| {
            !(a.path().is_ident("resolve") || a.path().is_ident("arg") || a.path().is_ident("doc"))
        });
        Ok(Self {
            ident,
            ty,
            kind,
            rename,
            default,
            description,
            header,
            schema_attrs,
        })
    }

    /// The name clients (and resolvers) know the argument by.
    pub(crate) fn wire_name(&self) -> String {
        self.rename.clone().unwrap_or_else(|| {
            let name = self.ident.to_string();
            name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
        })
    }

    pub(crate) fn is_argument(kind: &ParamKind) -> bool {
        matches!(kind, ParamKind::Argument)
    }

    pub(crate) fn is_resolved(kind: &ParamKind) -> bool {
        matches!(kind, ParamKind::Resolved(_))
    }

    /// The `ParamSpec` describing this parameter to the engine.
    pub(crate) fn spec(&self) -> proc_macro2::TokenStream {
        let ty = &self.ty;
        let name = self.wire_name();
        match &self.kind {
            ParamKind::Resolved(path) => quote::quote! {
                ::mcpwire::__private::ParamSpec::Resolved {
                    name: #name,
                    resolver: <#path as ::mcpwire::__private::Resolver>::definition,
                }
            },
            ParamKind::Argument => {
                let type_name = quote::quote!(#ty).to_string().replace(' ', "");
                quote::quote_spanned! {syn::spanned::Spanned::span(ty)=>
                    ::mcpwire::__private::request_param_spec::<#ty>(#name, #type_name)
                }
            }
        }
    }
}
