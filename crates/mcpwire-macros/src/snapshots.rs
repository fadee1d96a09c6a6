//! Expansion snapshots: what each macro generates for a sample function, formatted with
//! `prettyplease` and compared with the file checked in under `snapshots/`, so that a reviewer
//! sees what a change to the macros changes in the generated code.
//!
//! `SNAPSHOTS=overwrite cargo test -p mcpwire-macros` rewrites the files; review their diff.

use proc_macro2::TokenStream;
use quote::quote;
use std::path::PathBuf;

const HEADER: &str = "\
// The expansion of the sample in crates/mcpwire-macros/src/snapshots.rs, checked by its test;
// `SNAPSHOTS=overwrite cargo test -p mcpwire-macros` rewrites it.
//
// The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, `__body`,
// ...) are hygienic (`Span::mixed_site()`): printed here by name, they never meet a parameter
// of the same name.

";

/// Compares `expanded`, formatted, with `snapshots/{name}.rs` (or rewrites it).
fn check(name: &str, expanded: syn::Result<TokenStream>) {
    let tokens = expanded.unwrap_or_else(|error| panic!("#[{name}] refused the sample: {error}"));
    let file: syn::File = syn::parse2(tokens).expect("the expansion is a list of items");
    let actual = format!("{HEADER}{}", prettyplease::unparse(&file));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("snapshots")
        .join(format!("{name}.rs"));
    if std::env::var("SNAPSHOTS").as_deref() == Ok("overwrite") {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("snapshots/ is created");
        std::fs::write(&path, &actual).expect("the snapshot is written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if let Some((line, (want, got))) = expected
        .lines()
        .chain(std::iter::repeat("<end of file>"))
        .zip(actual.lines().chain(std::iter::repeat("<end of file>")))
        .take(expected.lines().count().max(actual.lines().count()))
        .enumerate()
        .find(|(_, (want, got))| want != got)
    {
        panic!(
            "the expansion of #[{name}] differs from {} at line {}:\n  snapshot:  {want}\n  expansion: {got}\n\
             rerun with SNAPSHOTS=overwrite and review the diff",
            path.display(),
            line + 1,
        );
    }
}

#[test]
fn tool_expansion() {
    let attr = quote!(
        name = "find_book",
        read_only,
        scopes = ["books:read"],
        task = "optional"
    );
    let item = quote! {
        /// Finds a book by title.
        pub async fn find(
            /// The title, or part of it.
            #[schemars(length(min = 1))]
            title: String,
            #[arg(default = 10)] limit: u32,
            ctx: Context,
            #[resolve(catalogue)] catalogue: Catalogue,
        ) -> Result<Vec<Book>, ToolError> {
            catalogue.find(&title, limit, &ctx)
        }
    };
    check("tool", crate::tool::expand(attr, item));
}

#[test]
fn resolver_expansion() {
    let attr = quote!(key = "shop.catalogue");
    let item = quote! {
        fn catalogue(ctx: Context, shop: String) -> Result<Catalogue, ToolError> {
            Catalogue::open(&shop, &ctx)
        }
    };
    check("resolver", crate::resolver::expand(attr, item));
}

#[test]
fn prompt_expansion() {
    let attr = quote!(title = "Review code");
    let item = quote! {
        /// Asks for a review of `code`.
        async fn review(code: String, focus: Option<String>) -> String {
            format!("Review {code} for {}", focus.unwrap_or_default())
        }
    };
    check("prompt", crate::prompt::expand(attr, item));
}

#[test]
fn resource_expansion() {
    let attr = quote!(
        uri = "books://{isbn}",
        mime_type = "application/json",
        ttl_ms = 60000,
        cache = "public"
    );
    let item = quote! {
        /// A book's record.
        async fn book(isbn: String, #[resolve(catalogue)] catalogue: Catalogue) -> Result<String, ToolError> {
            catalogue.record(&isbn)
        }
    };
    check("resource", crate::resource::expand(attr, item));
}
