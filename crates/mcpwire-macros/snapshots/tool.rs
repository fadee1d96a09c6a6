// The expansion of the sample in crates/mcpwire-macros/src/snapshots.rs, checked by its test;
// `SNAPSHOTS=overwrite cargo test -p mcpwire-macros` rewrites it.
//
// The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, `__body`,
// ...) are hygienic (`Span::mixed_site()`): printed here by name, they never meet a parameter
// of the same name.

///The tool [`find()`]'s body, callable with plain arguments as [`find::call`].
#[allow(non_camel_case_types, dead_code)]
#[derive(Clone, Copy, Debug, Default)]
pub struct find {}
impl find {
    ///The body of the tool `find`, called directly with plain arguments (from a unit test, say): no resolver runs and nothing is parsed.
    #[allow(clippy::too_many_arguments)]
    pub async fn call(
        title: String,
        limit: u32,
        ctx: Context,
        catalogue: Catalogue,
    ) -> Result<Vec<Book>, ToolError> {
        catalogue.find(&title, limit, &ctx)
    }
}
/// Finds a book by title.
///
///*An MCP tool: register it with `McpServer::tool`.*
pub fn find(
    _: ::mcpwire::__private::ToolMarker,
) -> ::mcpwire::__private::ToolDefinition {
    fn __default_limit() -> u32 {
        10
    }
    #[derive(
        ::mcpwire::__private::serde::Deserialize,
        ::mcpwire::__private::schemars::JsonSchema
    )]
    #[serde(crate = "::mcpwire::__private::serde")]
    #[schemars(crate = "::mcpwire::__private::schemars")]
    struct __Arguments {
        ///The title, or part of it.
        #[schemars(length(min = 1))]
        title: <String as ::mcpwire::__private::FromRequest>::Field,
        #[serde(default = "__default_limit")]
        limit: <u32 as ::mcpwire::__private::FromRequest>::Field,
        ctx: <Context as ::mcpwire::__private::FromRequest>::Field,
    }
    impl ::mcpwire::__private::ArgumentSource for __Arguments {
        #[allow(unreachable_code, unused_variables)]
        fn argument(
            &self,
            index: usize,
        ) -> &(dyn ::mcpwire::__private::Any + Send + Sync) {
            match index {
                0usize => &self.title,
                1usize => &self.limit,
                2usize => &self.ctx,
                _ => unreachable!("argument index out of range"),
            }
        }
    }
    fn __call(
        call: ::mcpwire::__private::HandlerCall,
    ) -> ::mcpwire::__private::ToolFuture {
        ::mcpwire::__private::Box::pin(async move {
            #[allow(unused_imports)]
            use ::mcpwire::__private::{
                ViaContent as _, ViaStructured as _, ViaStructuredResult as _,
                ViaUnsupported as _,
            };
            #[allow(unused_imports)]
            use ::mcpwire::__private::{ViaIntoResolution as _, ViaPlainValue as _};
            let __body = find::call;
            let __arguments: __Arguments = match call.parse_arguments() {
                ::core::result::Result::Ok(arguments) => arguments,
                ::core::result::Result::Err(error) => {
                    return ::core::result::Result::Err(
                        ::mcpwire::__private::Stop::InvalidArguments(error),
                    );
                }
            };
            let catalogue: Catalogue;
            {
                let __checks = [
                    (
                        ::mcpwire::__private::consumer_check::<
                            _,
                            Catalogue,
                        >(
                            (&&::mcpwire::__private::ReturnProbe::<
                                <catalogue as ::mcpwire::__private::Resolver>::Returns,
                            >::new())
                                .witness(),
                        ),
                        "catalogue",
                    ),
                ];
                let __resolution = match call.resolve(&__arguments, &__checks).await {
                    ::core::result::Result::Ok(resolution) => resolution,
                    ::core::result::Result::Err(error) => {
                        return ::core::result::Result::Err(
                            ::core::convert::Into::into(error),
                        );
                    }
                };
                catalogue = match __resolution
                    .take(
                        0usize,
                        "catalogue",
                        (&&::mcpwire::__private::ReturnProbe::<
                            <catalogue as ::mcpwire::__private::Resolver>::Returns,
                        >::new())
                            .witness(),
                    )
                {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(error) => {
                        return ::core::result::Result::Err(
                            ::core::convert::Into::into(error),
                        );
                    }
                };
            }
            #[allow(unused_variables)]
            let __Arguments { title, limit, ctx } = __arguments;
            let title: String = <String as ::mcpwire::__private::FromRequest>::from_request(
                title,
                &|| call.context(),
            );
            let limit: u32 = <u32 as ::mcpwire::__private::FromRequest>::from_request(
                limit,
                &|| call.context(),
            );
            let ctx: Context = <Context as ::mcpwire::__private::FromRequest>::from_request(
                ctx,
                &|| call.context(),
            );
            let __output = __body(title, limit, ctx, catalogue).await;
            ::core::result::Result::<
                _,
                ::mcpwire::__private::Stop,
            >::Ok(
                    (&&&&::mcpwire::__private::Probe::<
                        Result<Vec<Book>, ToolError>,
                    >::new())
                        .tool_result(::core::convert::identity(__output), &call),
                )
                .map_err(::core::convert::Into::into)
        })
    }
    fn __output() -> ::mcpwire::__private::OutputShape {
        #[allow(unused_imports)]
        use ::mcpwire::__private::{
            ViaContent as _, ViaStructured as _, ViaStructuredResult as _,
            ViaUnsupported as _,
        };
        (&&&&::mcpwire::__private::Probe::<Result<Vec<Book>, ToolError>>::new())
            .output_shape()
    }
    const PARAMS: &[::mcpwire::__private::ParamSpec] = &[
        ::mcpwire::__private::request_param_spec::<String>("title", "String"),
        ::mcpwire::__private::request_param_spec::<u32>("limit", "u32"),
        ::mcpwire::__private::request_param_spec::<Context>("ctx", "Context"),
        ::mcpwire::__private::ParamSpec::Resolved {
            name: "catalogue",
            resolver: <catalogue as ::mcpwire::__private::Resolver>::definition,
        },
    ];
    ::mcpwire::__private::ToolDefinition {
        name: "find_book",
        title: ::core::option::Option::None,
        description: ::core::option::Option::Some("Finds a book by title."),
        scopes: &["books:read"],
        annotations: ::mcpwire::__private::ToolAnnotations {
            read_only_hint: ::core::option::Option::Some(true),
            destructive_hint: ::core::option::Option::None,
            idempotent_hint: ::core::option::Option::None,
            open_world_hint: ::core::option::Option::None,
            ..::core::default::Default::default()
        },
        input_schema: ::mcpwire::__private::schema_for::<__Arguments>,
        input_schema_given: false,
        output: __output,
        params: PARAMS,
        once: false,
        task: ::mcpwire::__private::TaskSupport::Optional,
        ask_before_task: false,
        call: __call,
    }
}
