//! Where library code names a method of the core (`protocol::methods::Method`) by its
//! variant: a method is treated as its row in the method table says, so only the table names
//! one.

use crate::graph::{is_test_only, outside_protocol};
use std::collections::BTreeSet;
use std::path::Path;
use syn::visit::Visit;

/// The variants of `enum Method` in `protocol/methods.rs`.
pub fn method_variants(src: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(src.join("protocol/methods.rs")).unwrap();
    let parsed = syn::parse_file(&text).unwrap();
    let mut variants = BTreeSet::new();
    for item in &parsed.items {
        if let syn::Item::Enum(method) = item
            && method.ident == "Method"
        {
            variants.extend(method.variants.iter().map(|v| v.ident.to_string()));
        }
    }
    variants
}

/// `file: Method::Variant` for each file outside `protocol/` that names a variant in library
/// code (tests left out).
pub fn named_outside_protocol(src: &Path, variants: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for (relative, _, items) in outside_protocol(src) {
        let mut named = Named::default();
        for item in &items {
            named.visit_item(item);
        }
        for variant in named.found.intersection(variants) {
            found.push(format!("{}: Method::{variant}", relative.display()));
        }
    }
    found
}

/// The `Method::X` paths of an item; inline `#[cfg(test)]` modules left out.
#[derive(Default)]
struct Named {
    found: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Named {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<_> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let [.., enumeration, variant] = segments.as_slice()
            && enumeration == "Method"
        {
            self.found.insert(variant.clone());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item) {
            syn::visit::visit_item(self, item);
        }
    }
}
