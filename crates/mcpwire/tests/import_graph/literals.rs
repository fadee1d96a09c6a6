//! The method names of MCP, as `protocol/` writes them, and the places outside `protocol/`
//! that write one as a string literal in library code (tests and comments left out).

use crate::graph::{is_test_only, outside_protocol, sources};
use proc_macro2::{TokenStream, TokenTree};
use std::collections::BTreeSet;
use std::path::Path;
use syn::visit::Visit;

/// Every method name `protocol/` defines: the `&str` constants of `protocol/methods.rs`, and
/// those of the other `protocol/` files whose value is shaped like a method (`a/b`, no dots).
pub fn method_names(src: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for file in sources(&src.join("protocol")) {
        let methods_file = file.ends_with("methods.rs");
        let text = std::fs::read_to_string(&file).unwrap();
        let parsed = syn::parse_file(&text).unwrap();
        for item in &parsed.items {
            let syn::Item::Const(constant) = item else {
                continue;
            };
            let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(value),
                ..
            }) = &*constant.expr
            else {
                continue;
            };
            let value = value.value();
            let method_shaped = value.contains('/')
                && !value.contains(['.', ':', ' '])
                && value.chars().next().is_some_and(|c| c.is_ascii_lowercase());
            if methods_file || method_shaped {
                names.insert(value);
            }
        }
    }
    names
}

/// `file:line: "name"` for each method name written as a string literal outside `protocol/`.
pub fn written_outside_protocol(src: &Path, names: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for (relative, text, items) in outside_protocol(src) {
        let mut literals = Literals::default();
        for item in &items {
            literals.visit_item(item);
        }
        let written: BTreeSet<String> = (literals.found.into_iter())
            .filter(|value| names.contains(value))
            .collect();
        for value in written {
            let quoted = format!("{value:?}");
            let lines = (text.lines().enumerate())
                .filter(|(_, line)| line.contains(&quoted))
                .map(|(at, _)| (at + 1).to_string())
                .collect::<Vec<_>>()
                .join(",");
            found.push(format!("{}:{lines}: {quoted}", relative.display()));
        }
    }
    found
}

/// The string literals of an item, also inside macro invocations; inline `#[cfg(test)]`
/// modules left out.
#[derive(Default)]
struct Literals {
    found: Vec<String>,
}

impl<'ast> Visit<'ast> for Literals {
    fn visit_lit_str(&mut self, literal: &'ast syn::LitStr) {
        self.found.push(literal.value());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        token_literals(mac.tokens.clone(), &mut self.found);
        syn::visit::visit_macro(self, mac);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item) {
            syn::visit::visit_item(self, item);
        }
    }
}

/// The string literals in a token stream (the arguments of a macro).
fn token_literals(tokens: TokenStream, found: &mut Vec<String>) {
    for token in tokens {
        match token {
            TokenTree::Group(group) => token_literals(group.stream(), found),
            TokenTree::Literal(literal) => {
                if let Ok(syn::Lit::Str(value)) = syn::parse_str::<syn::Lit>(&literal.to_string()) {
                    found.push(value.value());
                }
            }
            TokenTree::Ident(_) | TokenTree::Punct(_) => {}
        }
    }
}
