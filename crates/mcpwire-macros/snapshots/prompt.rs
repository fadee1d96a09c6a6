// The expansion of the sample in crates/mcpwire-macros/src/snapshots.rs, checked by its test;
// `SNAPSHOTS=overwrite cargo test -p mcpwire-macros` rewrites it.
//
// The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, `__body`,
// ...) are hygienic (`Span::mixed_site()`): printed here by name, they never meet a parameter
// of the same name.

///The prompt [`review()`]'s body, callable with plain arguments as [`review::call`].
#[allow(non_camel_case_types, dead_code)]
#[derive(Clone, Copy, Debug, Default)]
struct review {}
impl review {
    ///The body of the prompt `review`, called directly with plain arguments (from a unit test, say): no resolver runs and nothing is parsed.
    #[allow(clippy::too_many_arguments)]
    async fn call(code: String, focus: Option<String>) -> String {
        format!("Review {code} for {}", focus.unwrap_or_default())
    }
}
/// Asks for a review of `code`.
///
///*An MCP prompt: register it with `McpServer::prompt`.*
fn review(
    _: ::mcpwire::__private::PromptMarker,
) -> ::mcpwire::__private::PromptDefinition {
    #[derive(
        ::mcpwire::__private::serde::Deserialize,
        ::mcpwire::__private::schemars::JsonSchema
    )]
    #[serde(crate = "::mcpwire::__private::serde")]
    #[schemars(crate = "::mcpwire::__private::schemars")]
    struct __Arguments {
        code: <String as ::mcpwire::__private::FromRequest>::Field,
        focus: <Option<String> as ::mcpwire::__private::FromRequest>::Field,
    }
    impl ::mcpwire::__private::ArgumentSource for __Arguments {
        #[allow(unreachable_code, unused_variables)]
        fn argument(
            &self,
            index: usize,
        ) -> &(dyn ::mcpwire::__private::Any + Send + Sync) {
            match index {
                0usize => &self.code,
                1usize => &self.focus,
                _ => unreachable!("argument index out of range"),
            }
        }
    }
    fn __call(
        call: ::mcpwire::__private::HandlerCall,
    ) -> ::mcpwire::__private::PromptFuture {
        ::mcpwire::__private::Box::pin(async move {
            #[allow(unused_imports)]
            use ::mcpwire::__private::{
                ViaContent as _, ViaStructured as _, ViaStructuredResult as _,
                ViaUnsupported as _,
            };
            #[allow(unused_imports)]
            use ::mcpwire::__private::{ViaIntoResolution as _, ViaPlainValue as _};
            let __body = review::call;
            let __arguments: __Arguments = match call.parse_arguments() {
                ::core::result::Result::Ok(arguments) => arguments,
                ::core::result::Result::Err(error) => {
                    return ::core::result::Result::Err(
                        ::mcpwire::__private::Stop::InvalidArguments(error),
                    );
                }
            };
            #[allow(unused_variables)]
            let __Arguments { code, focus } = __arguments;
            let code: String = <String as ::mcpwire::__private::FromRequest>::from_request(
                code,
                &|| call.context(),
            );
            let focus: Option<String> = <Option<
                String,
            > as ::mcpwire::__private::FromRequest>::from_request(
                focus,
                &|| call.context(),
            );
            let __output = __body(code, focus).await;
            ::mcpwire::__private::IntoGetPromptResult::into_get_prompt_result(__output)
                .map_err(::core::convert::Into::into)
        })
    }
    const PARAMS: &[::mcpwire::__private::ParamSpec] = &[
        ::mcpwire::__private::request_param_spec::<String>("code", "String"),
        ::mcpwire::__private::request_param_spec::<
            Option<String>,
        >("focus", "Option<String>"),
    ];
    ::mcpwire::__private::PromptDefinition {
        name: "review",
        title: ::core::option::Option::Some("Review code"),
        description: ::core::option::Option::Some("Asks for a review of `code`."),
        scopes: &[],
        arguments: ::mcpwire::__private::schema_for::<__Arguments>,
        params: PARAMS,
        call: __call,
    }
}
