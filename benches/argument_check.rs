//! How to check a tool's arguments against its input schema most cheaply, given that they
//! arrive as raw JSON text and are parsed into the tool's argument struct without a `Value`:
//!
//! - `typed`: the text parsed straight into the struct, no check (the cost before checks);
//! - `value_check_typed`: the text parsed once into a `Value`, checked, then moved into the
//!   struct (what `HandlerCall::parse_arguments` does);
//! - `typed_then_value_check`: the text parsed into the struct, and once more into a `Value`
//!   for the check;
//! - `value_check_typed_jsonschema`: as `value_check_typed`, with the checker mcpwire had
//!   before `boon` (`jsonschema`), to compare the two in one run.
//!
//! For `add`'s two integers and for six constrained arguments. Results in `docs/benchmarks.md`.

use criterion::{Criterion, criterion_group, criterion_main};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Reserve {
    #[schemars(length(min = 1, max = 200))]
    title: String,
    #[schemars(range(min = 1, max = 5))]
    copies: u32,
    #[schemars(regex(pattern = r"^[A-Z]{3}-[0-9]{3}$"))]
    shop: String,
    #[schemars(extend("enum" = ["hardback", "paperback"]))]
    binding: String,
    #[schemars(email)]
    email: String,
    #[schemars(extend("format" = "date"))]
    day: Option<String>,
}

/// mcpwire's checker: `boon`, set up as `schema::Validator` sets it up.
struct Check {
    schemas: boon::Schemas,
    root: boon::SchemaIndex,
}

impl Check {
    fn is_valid(&self, value: &Value) -> bool {
        self.schemas.validate(value, self.root).is_ok()
    }
}

fn validator<T: JsonSchema>() -> Check {
    let schema = mcpwire::schema::schema_for::<T>().to_value();
    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(boon::Draft::V2020_12);
    compiler.enable_format_assertions();
    compiler
        .add_resource("urn:mcpwire:schema", schema)
        .expect("the schema is added");
    let mut schemas = boon::Schemas::new();
    let root = compiler
        .compile("urn:mcpwire:schema", &mut schemas)
        .expect("the schema compiles");
    Check { schemas, root }
}

fn jsonschema_validator<T: JsonSchema>() -> jsonschema::Validator {
    let schema = mcpwire::schema::schema_for::<T>().to_value();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles")
}

fn typed<T: DeserializeOwned>(text: &str) -> T {
    serde_json::from_str(text).unwrap()
}

fn value_check_typed<T: DeserializeOwned>(text: &str, check: &Check) -> T {
    let value: Value = serde_json::from_str(text).unwrap();
    assert!(check.is_valid(&value));
    T::deserialize(value).unwrap()
}

fn value_check_typed_jsonschema<T: DeserializeOwned>(
    text: &str,
    check: &jsonschema::Validator,
) -> T {
    let value: Value = serde_json::from_str(text).unwrap();
    assert!(check.is_valid(&value));
    T::deserialize(value).unwrap()
}

fn typed_then_value_check<T: DeserializeOwned>(text: &str, check: &Check) -> T {
    let typed = serde_json::from_str(text).unwrap();
    let value: Value = serde_json::from_str(text).unwrap();
    assert!(check.is_valid(&value));
    typed
}

fn cases<T: JsonSchema + DeserializeOwned>(c: &mut Criterion, name: &str, text: &str) {
    let check = validator::<T>();
    let before = jsonschema_validator::<T>();
    let mut group = c.benchmark_group(format!("argument_check/{name}"));
    group.bench_function("typed", |b| b.iter(|| typed::<T>(black_box(text))));
    group.bench_function("value_check_typed", |b| {
        b.iter(|| value_check_typed::<T>(black_box(text), &check))
    });
    group.bench_function("value_check_typed_jsonschema", |b| {
        b.iter(|| value_check_typed_jsonschema::<T>(black_box(text), &before))
    });
    group.bench_function("typed_then_value_check", |b| {
        b.iter(|| typed_then_value_check::<T>(black_box(text), &check))
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    cases::<Add>(c, "add", r#"{"a":2,"b":3}"#);
    cases::<Reserve>(
        c,
        "reserve",
        r#"{"title":"Dune","copies":2,"shop":"LON-001","binding":"paperback","email":"ada@example.com","day":"2026-07-28"}"#,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
