//! `#[tool]`: a function becomes a unit struct implementing `mcpwire::server::IntoTool`.

use crate::handler::{HandlerParts, call_fn, handler_parts};
use crate::options::{Keys, Options, option_bool, option_str};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let keys = Keys {
        strings: &["name", "title", "description", "input_schema", "task"],
        flags: &[
            "read_only",
            "destructive",
            "idempotent",
            "open_world",
            "once",
            "ask_before_task",
        ],
        lists: &["scopes"],
        ..Keys::default()
    };
    let options = Options::parse_keys(attr, "tool", &keys)?;
    let scopes = options.list("scopes");
    let task = match options.string("task").as_deref() {
        None | Some("forbidden") => quote!(Forbidden),
        Some("optional") => quote!(Optional),
        Some("required") => quote!(Required),
        Some(other) => {
            return Err(syn::Error::new(
                proc_macro2::Span::call_site(),
                format!(
                    "#[tool(task = \"{other}\")]: expected \"optional\" (a task when the client \
                     negotiates the tasks extension, a plain call otherwise), \"required\" (only \
                     as a task) or \"forbidden\""
                ),
            ));
        }
    };
    let ask_before_task = options.flag("ask_before_task").unwrap_or(false);
    let signature = Signature::parse(item, "tool")?;
    let name = signature.name();
    let tool_name = options.string("name").unwrap_or_else(|| name.to_string());
    let description = option_str(options.string("description").or_else(|| signature.docs()));
    let title = option_str(options.string("title"));
    let read_only = option_bool(options.flag("read_only"));
    let destructive = option_bool(options.flag("destructive"));
    let idempotent = option_bool(options.flag("idempotent"));
    let open_world = option_bool(options.flag("open_world"));
    let once = options.flag("once").unwrap_or(false);
    let ret = signature.return_type();
    // `input_schema = "path::to::function"`: the author's schema, listed as written.
    let (input_schema, input_schema_given) = match options.string("input_schema") {
        Some(path) => {
            let path: syn::Path = syn::parse_str(&path).map_err(|_| {
                syn::Error::new(
                    proc_macro2::Span::call_site(),
                    "#[tool(input_schema = \"…\")] names a function `fn() -> schemars::Schema`",
                )
            })?;
            (quote!(#path), quote!(true))
        }
        None => (
            quote!(::mcpwire::__private::schema_for::<__Arguments>),
            quote!(false),
        ),
    };

    let HandlerParts {
        items,
        body,
        params,
        callable,
        docs,
        vis,
    } = handler_parts(&signature, "the tool");
    // Spanned on the return type, so an unsupported one is reported there.
    let convert = quote_spanned! {ret.span()=>
        (&&&::mcpwire::__private::Probe::<#ret>::new()).tool_result(__output, &call)
    };
    let shape = quote_spanned! {ret.span()=>
        (&&&::mcpwire::__private::Probe::<#ret>::new()).output_shape()
    };
    let finish = quote! { ::core::result::Result::<_, ::mcpwire::__private::Stop>::Ok(#convert) };
    let call_fn = call_fn(quote!(::mcpwire::__private::ToolFuture), &body, finish);
    Ok(quote! {
        #callable

        #(#docs)*
        ///
        /// *An MCP tool: register it with `McpServer::tool`.*
        #vis fn #name(_: ::mcpwire::__private::ToolMarker) -> ::mcpwire::__private::ToolDefinition {
                    #items

                #call_fn

                fn __output() -> ::mcpwire::__private::OutputShape {
                    #[allow(unused_imports)]
                    use ::mcpwire::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _};
                    #shape
                }

                #params

                ::mcpwire::__private::ToolDefinition {
                    name: #tool_name,
                    title: #title,
                    description: #description,
                    annotations: ::mcpwire::__private::ToolAnnotations {
                        read_only_hint: #read_only,
                        destructive_hint: #destructive,
                        idempotent_hint: #idempotent,
                        open_world_hint: #open_world,
                        ..::core::default::Default::default()
                    },
                    input_schema: #input_schema,
                    input_schema_given: #input_schema_given,
                    output: __output,
                    params: PARAMS,
                    once: #once,
                    scopes: &[#(#scopes),*],
                    task: ::mcpwire::__private::TaskSupport::#task,
                    ask_before_task: #ask_before_task,
                    call: __call,
                }
        }
    })
}
