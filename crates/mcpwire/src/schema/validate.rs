//! Checking values against a schema: each schema is compiled once, when its tool is registered
//! or its form first rendered, and every value is then checked against the compiled form.

use super::violation::Violation;
use serde_json::Value;
use std::sync::OnceLock;

/// Where the checker files a schema it compiles. Only references inside the schema resolve
/// against it; the name appears in no message a client sees.
const LOCATION: &str = "urn:mcpwire:schema";

/// Where it files a 2020-12 schema that [`meta_2020_12`] has already checked. `boon` checks every
/// schema against its draft's meta-schema except those filed under `json-schema.org`, the home of
/// the meta-schemas themselves; for that check it compiles the meta-schemas of all five drafts it
/// knows into one process-wide value on first use, which keeps about 0.75 MB of heap for the
/// life of the process (`docs/benchmarks.md`, "The meta-schema compiled once, for one draft").
/// Checking 2020-12 schemas here, against the one meta-schema they name, keeps about 0.2 MB.
/// References resolve against this location exactly as against [`LOCATION`], and nothing under
/// it is fetched either.
const CHECKED_LOCATION: &str = "https://json-schema.org/mcpwire/checked-schema";

/// The draft every schema of this crate is written in, as `$schema` names it.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A compiled schema (JSON Schema 2020-12 unless it names another draft in `$schema`). Formats
/// (`email`, `date`, `uri`, …) are asserted, not only annotations; unknown formats (such as
/// schemars' `uint32`) are ignored. References resolve only inside the schema itself: nothing is
/// fetched, neither over the network nor from files. `pattern` is matched by the `regex` crate
/// (ECMA-262's `\d`, `\w` and `\s` keep their ASCII meaning); a pattern with look-around or a
/// backreference is refused when the schema is compiled, as is any schema its draft's
/// meta-schema refuses.
pub(crate) struct Validator {
    schemas: boon::Schemas,
    root: boon::SchemaIndex,
}

impl Validator {
    /// Compiles `schema`, or says why it cannot be checked (for a registration error).
    pub(crate) fn new(schema: &Value) -> Result<Self, String> {
        let location = match meta_2020_12().filter(|_| is_2020_12(schema)) {
            Some(meta) => {
                meta.check(schema)?;
                CHECKED_LOCATION
            }
            // Another draft, or no meta-schema of our own: `boon` checks it against its own.
            None => LOCATION,
        };
        let mut compiler = compiler();
        let why = |error: boon::CompileError| format!("{error:#}");
        compiler
            .add_resource(location, schema.clone())
            .map_err(why)?;
        let mut schemas = boon::Schemas::new();
        let root = compiler.compile(location, &mut schemas).map_err(why)?;
        Ok(Self { schemas, root })
    }

    /// Whether `value` fits.
    pub(crate) fn is_valid(&self, value: &Value) -> bool {
        self.schemas.validate(value, self.root).is_ok()
    }

    /// The first way `value` does not fit, in plain words; `None` when it fits.
    pub(crate) fn violation(&self, value: &Value) -> Option<Violation> {
        self.schemas
            .validate(value, self.root)
            .err()
            .map(|error| Violation::of(&error))
    }
}

/// A compiler set up as every schema of this crate is compiled: 2020-12 unless `$schema` says
/// otherwise, formats asserted, nothing fetched.
fn compiler() -> boon::Compiler {
    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(boon::Draft::V2020_12);
    compiler.enable_format_assertions();
    compiler.use_loader(Box::new(FetchNothing));
    compiler
}

/// Whether `schema` is written in 2020-12: it names that draft in `$schema`, or no draft (the
/// default). A boolean schema is too.
fn is_2020_12(schema: &Value) -> bool {
    match schema.get("$schema") {
        None => true,
        Some(Value::String(draft)) => draft.strip_suffix('#').unwrap_or(draft) == DRAFT_2020_12,
        Some(_) => false,
    }
}

/// The 2020-12 meta-schema, compiled once per process on first use (with format assertions, so a
/// `pattern` the `regex` crate cannot compile is refused by its `format: regex`). `None` only if
/// `boon` could not compile its own copy, and then every schema takes `boon`'s own check.
fn meta_2020_12() -> Option<&'static MetaSchema> {
    static META: OnceLock<Option<MetaSchema>> = OnceLock::new();
    META.get_or_init(|| {
        let mut schemas = boon::Schemas::new();
        let root = compiler().compile(DRAFT_2020_12, &mut schemas).ok()?;
        Some(MetaSchema { schemas, root })
    })
    .as_ref()
}

/// A compiled meta-schema.
struct MetaSchema {
    schemas: boon::Schemas,
    root: boon::SchemaIndex,
}

impl MetaSchema {
    /// Whether `schema` is a valid schema of this draft, or why not.
    fn check(&self, schema: &Value) -> Result<(), String> {
        self.schemas
            .validate(schema, self.root)
            .map_err(|error| format!("not a valid JSON Schema 2020-12: {error:#}"))
    }
}

/// The loader of every `$ref` that is not inside the schema: it loads nothing.
struct FetchNothing;

impl boon::UrlLoader for FetchNothing {
    fn load(&self, url: &str) -> Result<Value, Box<dyn std::error::Error>> {
        Err(format!("{url} is outside the schema, and nothing is fetched").into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn asserts_formats_and_ignores_unknown_ones() {
        let validator = Validator::new(&json!({"type": "object", "properties": {
            "email": {"type": "string", "format": "email"},
            "copies": {"type": "integer", "format": "uint32", "minimum": 0}}}))
        .unwrap();
        assert!(validator.is_valid(&json!({"email": "ada@example.com", "copies": 3})));
        assert!(!validator.is_valid(&json!({"email": "ada"})));
        assert!(validator.violation(&json!({"copies": 1})).is_none());
    }

    #[test]
    fn defaults_to_2020_12_and_fetches_nothing() {
        let tuple =
            Validator::new(&json!({"prefixItems": [{"type": "string"}], "items": false})).unwrap();
        assert!(tuple.is_valid(&json!(["a"])));
        assert!(!tuple.is_valid(&json!(["a", 1])), "2020-12 `prefixItems`");
        for outside in ["https://example.com/schema.json", "file:///etc/hostname"] {
            let error = Validator::new(&json!({"$ref": outside})).err();
            assert!(error.is_some_and(|why| why.contains("nothing is fetched")));
        }
    }

    #[test]
    fn a_schema_its_meta_schema_refuses_is_refused_naming_the_place() {
        let wrong_minimum = json!({"type": "object",
            "properties": {"copies": {"type": "integer", "minimum": "one"}}});
        let why = Validator::new(&wrong_minimum).err().unwrap();
        assert!(why.contains("not a valid JSON Schema 2020-12"), "{why}");
        assert!(why.contains("/properties/copies/minimum"), "{why}");
        let named = json!({"$schema": "https://json-schema.org/draft/2020-12/schema#",
            "type": "object", "properties": {"copies": {"type": "nothing"}}});
        let why = Validator::new(&named).err().unwrap();
        assert!(why.contains("/properties/copies/type"), "{why}");
    }

    #[test]
    fn another_draft_is_compiled_and_checked_as_that_draft() {
        let draft_07 = "http://json-schema.org/draft-07/schema#";
        let tuple = Validator::new(&json!({"$schema": draft_07,
            "items": [{"type": "string"}], "additionalItems": false}))
        .unwrap();
        assert!(tuple.is_valid(&json!(["a"])));
        assert!(
            !tuple.is_valid(&json!(["a", 1])),
            "draft-07 `additionalItems`"
        );
        let why = Validator::new(&json!({"$schema": draft_07, "minLength": -1}))
            .err()
            .unwrap();
        assert!(why.contains("/minLength"), "{why}");
    }

    #[test]
    fn resolves_references_inside_the_schema() {
        let validator = Validator::new(&json!({
            "$defs": {"copies": {"type": "integer", "minimum": 1}},
            "properties": {"copies": {"$ref": "#/$defs/copies"}}}))
        .unwrap();
        assert!(validator.is_valid(&json!({"copies": 2})));
        assert!(!validator.is_valid(&json!({"copies": 0})));
    }

    #[test]
    fn patterns_are_ecma_262_on_the_regex_crate() {
        let digits = Validator::new(&json!({"pattern": "^\\d+$"})).unwrap();
        assert!(digits.is_valid(&json!("2026")));
        assert!(
            !digits.is_valid(&json!("٢٠٢٦")),
            "\\d is ASCII digits, as in ECMA-262"
        );
        let unicode = Validator::new(&json!({"pattern": "^\\p{L}+$"})).unwrap();
        assert!(unicode.is_valid(&json!("Straße")));
        for refused in [
            "^(?=.*[0-9]).{8,}$",
            "^(?!admin$).+$",
            "(?<=a)b",
            "^(a)\\1$",
        ] {
            let error = Validator::new(&json!({"pattern": refused})).err();
            assert!(error.is_some(), "{refused} is refused at compile time");
        }
    }
}
