// The expansion of the sample in crates/mcpwire-macros/src/snapshots.rs, checked by its test;
// `SNAPSHOTS=overwrite cargo test -p mcpwire-macros` rewrites it.
//
// The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, `__body`,
// ...) are hygienic (`Span::mixed_site()`): printed here by name, they never meet a parameter
// of the same name.

///The resolver [`catalogue()`]'s body, callable with plain arguments as [`catalogue::call`].
#[allow(non_camel_case_types, dead_code)]
#[derive(Clone, Copy, Debug, Default)]
struct catalogue {}
impl catalogue {
    ///The body of the resolver `catalogue`, called directly with plain arguments (from a unit test, say): no resolver runs and nothing is parsed.
    #[allow(clippy::too_many_arguments)]
    fn call(ctx: Context, shop: String) -> Result<Catalogue, ToolError> {
        Catalogue::open(&shop, &ctx)
    }
}
impl ::mcpwire::__private::Resolver for catalogue {
    type Returns = Result<Catalogue, ToolError>;
    fn definition() -> ::mcpwire::__private::ResolverDefinition {
        #[allow(unused_imports)]
        use ::mcpwire::__private::{ViaIntoResolution as _, ViaPlainValue as _};
        fn __run(
            inputs: ::mcpwire::__private::ResolverInputs<'_>,
        ) -> ::mcpwire::__private::ResolverFuture {
            let __body = catalogue::call;
            let ctx: Context = inputs.request::<Context>(0usize);
            let shop: String = inputs.request::<String>(1usize);
            ::mcpwire::__private::Box::pin(async move {
                let __value = match ::mcpwire::__private::run_blocking(
                        "resolver 'catalogue'",
                        move || __body(ctx, shop),
                    )
                    .await
                {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(error) => {
                        return ::mcpwire::__private::Resolution::Failed(error);
                    }
                };
                (&&::mcpwire::__private::ReturnProbe::<
                    Result<Catalogue, ToolError>,
                >::new())
                    .outcome(::core::convert::identity(__value))
            })
        }
        const PARAMS: &[::mcpwire::__private::ParamSpec] = &[
            ::mcpwire::__private::request_param_spec::<Context>("ctx", "Context"),
            ::mcpwire::__private::request_param_spec::<String>("shop", "String"),
        ];
        ::mcpwire::__private::ResolverDefinition {
            id: ::mcpwire::__private::TypeId::of::<catalogue>,
            name: "catalogue",
            key: "shop.catalogue",
            params: PARAMS,
            output_type: || {
                (&&::mcpwire::__private::ReturnProbe::<
                    Result<Catalogue, ToolError>,
                >::new())
                    .value_type_id()
            },
            output_type_name: || {
                (&&::mcpwire::__private::ReturnProbe::<
                    Result<Catalogue, ToolError>,
                >::new())
                    .value_type_name()
            },
            run: __run,
            prepare: (&&::mcpwire::__private::ReturnProbe::<
                Result<Catalogue, ToolError>,
            >::new())
                .prepare(),
        }
    }
}
