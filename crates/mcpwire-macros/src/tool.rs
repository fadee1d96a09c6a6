//! `#[tool]`: a function becomes the definition of an MCP tool, registered with
//! `McpServer::tool`, and its body stays callable as `name::call(..)`.

use crate::handler::{call_fn, handler_parts};
use crate::kind::Kind;
use crate::local::local;
use crate::options::{TaskOption, ToolOptions, option_bool};
use crate::signature::Signature;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = ToolOptions::parse(attr)?;
    let signature = Signature::parse(item, Kind::Tool)?;
    let name = signature.name();
    let listing = options.listing.fields(name, signature.docs());
    let read_only = option_bool(options.read_only);
    let destructive = option_bool(options.destructive);
    let idempotent = option_bool(options.idempotent);
    let open_world = option_bool(options.open_world);
    let (once, ask_before_task) = (options.once, options.ask_before_task);
    let task = match options.task {
        TaskOption::Forbidden => quote!(Forbidden),
        TaskOption::Optional => quote!(Optional),
        TaskOption::Required => quote!(Required),
    };
    // `input_schema = "path::to::function"`: the author's schema, listed as written.
    let (input_schema, input_schema_given) = match &options.input_schema {
        Some(path) => (quote!(#path), true),
        None => (
            quote!(::mcpwire::__private::schema_for::<__Arguments>),
            false,
        ),
    };

    let parts = handler_parts(&signature, Kind::Tool);
    // What the return type becomes is decided by trait, through method resolution on a probe
    // of the type; spanned on the return type, so an unsupported one is reported there.
    let ret = signature.return_type();
    let (output, call) = (local("__output"), local("call"));
    // The argument too is spanned on the return type (a local is of another hygiene context,
    // which the compiler would trace back to the attribute).
    let convert = quote_spanned! {ret.span()=>
        (&&&&::mcpwire::__private::Probe::<#ret>::new())
            .tool_result(::core::convert::identity(#output), &#call)
    };
    let shape = quote_spanned! {ret.span()=>
        (&&&&::mcpwire::__private::Probe::<#ret>::new()).output_shape()
    };
    let finish = quote! { ::core::result::Result::<_, ::mcpwire::__private::Stop>::Ok(#convert) };
    let call_fn = call_fn(
        quote!(::mcpwire::__private::ToolFuture),
        &parts.body,
        finish,
    );
    let output_fn = quote! {
        fn __output() -> ::mcpwire::__private::OutputShape {
            #[allow(unused_imports)]
            use ::mcpwire::__private::{ViaContent as _, ViaStructured as _, ViaStructuredResult as _, ViaUnsupported as _};
            #shape
        }
    };
    Ok(parts.expand(
        name,
        (
            "*An MCP tool: register it with `McpServer::tool`.*",
            quote!(::mcpwire::__private::ToolMarker),
            quote!(::mcpwire::__private::ToolDefinition),
        ),
        (call_fn, output_fn),
        quote! {
            ::mcpwire::__private::ToolDefinition {
                #listing
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
                task: ::mcpwire::__private::TaskSupport::#task,
                ask_before_task: #ask_before_task,
                call: __call,
            }
        },
    ))
}
