// The expansion of the sample in crates/mcpwire-macros/src/snapshots.rs, checked by its test;
// `SNAPSHOTS=overwrite cargo test -p mcpwire-macros` rewrites it.
//
// The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, `__body`,
// ...) are hygienic (`Span::mixed_site()`): printed here by name, they never meet a parameter
// of the same name.

///The resource [`book()`]'s body, callable with plain arguments as [`book::call`].
#[allow(non_camel_case_types, dead_code)]
#[derive(Clone, Copy, Debug, Default)]
struct book {}
impl book {
    ///The body of the resource `book`, called directly with plain arguments (from a unit test, say): no resolver runs and nothing is parsed.
    #[allow(clippy::too_many_arguments)]
    async fn call(isbn: String, catalogue: Catalogue) -> Result<String, ToolError> {
        catalogue.record(&isbn)
    }
}
/// A book's record.
///
///*An MCP resource: register it with `McpServer::resource`.*
fn book(
    _: ::mcpwire::__private::ResourceMarker,
) -> ::mcpwire::__private::ResourceDefinition {
    #[derive(
        ::mcpwire::__private::serde::Deserialize,
        ::mcpwire::__private::schemars::JsonSchema
    )]
    #[serde(crate = "::mcpwire::__private::serde")]
    #[schemars(crate = "::mcpwire::__private::schemars")]
    struct __Arguments {
        isbn: <String as ::mcpwire::__private::FromRequest>::Field,
    }
    impl ::mcpwire::__private::ArgumentSource for __Arguments {
        #[allow(unreachable_code, unused_variables)]
        fn argument(
            &self,
            index: usize,
        ) -> &(dyn ::mcpwire::__private::Any + Send + Sync) {
            match index {
                0usize => &self.isbn,
                _ => unreachable!("argument index out of range"),
            }
        }
    }
    fn __call(
        call: ::mcpwire::__private::HandlerCall,
    ) -> ::mcpwire::__private::ResourceFuture {
        ::mcpwire::__private::Box::pin(async move {
            #[allow(unused_imports)]
            use ::mcpwire::__private::{
                ViaContent as _, ViaStructured as _, ViaStructuredResult as _,
                ViaUnsupported as _,
            };
            #[allow(unused_imports)]
            use ::mcpwire::__private::{ViaIntoResolution as _, ViaPlainValue as _};
            let __body = book::call;
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
            let __Arguments { isbn } = __arguments;
            let isbn: String = <String as ::mcpwire::__private::FromRequest>::from_request(
                isbn,
                &|| call.context(),
            );
            let __output = __body(isbn, catalogue).await;
            ::mcpwire::__private::IntoResourceContents::into_resource_contents(
                    __output,
                    &call,
                )
                .map_err(::core::convert::Into::into)
        })
    }
    const PARAMS: &[::mcpwire::__private::ParamSpec] = &[
        ::mcpwire::__private::request_param_spec::<String>("isbn", "String"),
        ::mcpwire::__private::ParamSpec::Resolved {
            name: "catalogue",
            resolver: <catalogue as ::mcpwire::__private::Resolver>::definition,
        },
    ];
    ::mcpwire::__private::ResourceDefinition {
        name: "book",
        title: ::core::option::Option::None,
        description: ::core::option::Option::Some("A book's record."),
        scopes: &[],
        uri: "books://{isbn}",
        mime_type: ::core::option::Option::Some("application/json"),
        ttl_ms: 60000u64,
        cache_scope: ::mcpwire::__private::CacheScope::Public,
        arguments: ::mcpwire::__private::schema_for::<__Arguments>,
        params: PARAMS,
        call: __call,
    }
}
