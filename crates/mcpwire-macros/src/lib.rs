//! Procedural macros of the `mcpwire` crate. Use them through `mcpwire` (`mcpwire::tool`,
//! `mcpwire::resolver`, `mcpwire::prompt`, `mcpwire::resource`), whose documentation shows each
//! with a compiled example.

mod docs;
mod handler;
mod kind;
mod local;
mod options;
mod params;
mod prompt;
mod resolver;
mod resource;
mod signature;
#[cfg(test)]
mod snapshots;
mod tool;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool, registered with `McpServer::tool(name)`.
///
/// The name comes from the function (override with `name = "…"`), the description from its doc
/// comment, and the input schema from its parameters. Attributes: `name`, `title`,
/// `description`, `input_schema = "path"` (a `fn() -> schemars::Schema` whose schema is listed
/// exactly as written, for JSON Schema 2020-12 keywords the generated schema cannot express;
/// the root must be `type: object`, and the arguments are still parsed into the parameters),
/// and the hints `read_only`, `destructive`, `idempotent`, `open_world` (each
/// optionally `= bool`).
///
/// Parameters: `#[resolve(path)]` is filled by a resolver; every other parameter is filled from
/// the request (`FromRequest`, decided by trait, so a renamed `Context` works): the request's
/// `Context` is injected, and any other type is a tool argument (doc comments become its description; `#[arg(rename = "…")]`,
/// `#[arg(default)]`, `#[arg(default = expr)]`, `#[arg(description = "…")]`, and
/// `#[arg(header = "Name")]` to mirror a string, integer or boolean argument in the
/// `Mcp-Param-Name` HTTP header of 2026-07-28 requests).
///
/// Constraints: a tool argument takes schemars' field attributes, which go onto its property
/// in the input schema: `#[schemars(length(min = 1, max = 80))]` (`minLength`/`maxLength`, or
/// `minItems`/`maxItems` on a list), `#[schemars(range(min = 1, max = 10))]`
/// (`minimum`/`maximum`), `#[schemars(regex(pattern = r"^[A-Z]{3}$"))]`, `#[schemars(email)]`,
/// `#[schemars(url)]`, and any keyword with `#[schemars(extend("format" = "date"))]` or
/// `#[schemars(extend("enum" = ["a", "b"]))]`. Every call's arguments are checked against the
/// input schema, generated or given (compiled once, at registration): a value that breaks it
/// gets the same `isError` result as a wrong type, naming the argument and the keyword.
/// `#[schemars(...)]` is refused on a resolved parameter and on prompt, resource and resolver
/// parameters, where nothing would check it.
///
/// The body stays callable with plain arguments as `name::call(..)` (resolved parameters are
/// passed as plain values; for a `Context`, pass `Context::detached()..build()`).
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns a function into a resolver, used with `#[resolve(name)]` on tool or resolver
/// parameters.
///
/// Each parameter is a `Context`, another `#[resolve(..)]`, or the tool argument of the same
/// name and type. What consumers receive follows from the return type by trait
/// (`IntoResolution`): `Result<T, E>` under any alias gives `T` (an `Err` fails the call), the
/// question kinds give their answers, and any other type is given as it is. The body stays
/// callable with plain arguments as `name::call(..)`.
///
/// Option: `key = "…"`, the key a question the resolver asks travels under on 2026-07-28
/// (`inputRequests`, `inputResponses`) and its answer is recorded under in `requestState`.
/// The default is the resolver's path (`module::name`); fix it when clients expect a given key,
/// or to keep rounds in flight valid while code moves between modules.
#[proc_macro_attribute]
pub fn resolver(attr: TokenStream, item: TokenStream) -> TokenStream {
    resolver::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns a function into an MCP prompt, registered with `McpServer::prompt(name)`.
///
/// The name comes from the function (override with `name = "…"`), the description from its doc
/// comment, and the prompt's arguments from its parameters (strings; `Option<String>` for an
/// optional one). Parameters may be `Context` or `#[resolve(..)]` as on tools. Return a
/// `String` (one user message), prompt messages, or a `GetPromptResult`.
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    prompt::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns a function into an MCP resource, registered with `McpServer::resource(name)`.
///
/// `uri = "…"` is required; a URI with `{variables}` makes a resource template whose variables
/// fill the parameters of the same names. Other options: `name`, `title`, `description`,
/// `mime_type`, and the 2026-07-28 cache hints of its reads: `ttl_ms = N` (how long a client
/// may reuse a read, in milliseconds; default 0) and `cache = "public"` or `"private"` (who may
/// reuse it; default `"private"`). Without hints a read is not cached. Whatever the hints, a
/// read served to an authenticated principal is private, and a round that asks a question, or
/// answers a retried one, is not cacheable. Parameters may be `Context` or `#[resolve(..)]` as on
/// tools. Return a `String` (text), `Vec<u8>` (binary), resource contents, or a `Result` of
/// those.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    resource::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
