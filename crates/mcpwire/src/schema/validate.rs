//! Checking values against a schema: each schema is compiled once, when its tool is registered
//! or its form first rendered, and every value is then checked against the compiled form.

use super::violation::Violation;
use serde_json::Value;

/// Where the checker files a schema it compiles. Only references inside the schema resolve
/// against it; the name appears in no message a client sees.
const LOCATION: &str = "urn:mcpwire:schema";

/// A compiled schema (JSON Schema 2020-12 unless it names another draft in `$schema`). Formats
/// (`email`, `date`, `uri`, …) are asserted, not only annotations; unknown formats (such as
/// schemars' `uint32`) are ignored. References resolve only inside the schema itself: nothing is
/// fetched, neither over the network nor from files. `pattern` is matched by the `regex` crate
/// (ECMA-262's `\d`, `\w` and `\s` keep their ASCII meaning); a pattern with look-around or a
/// backreference is refused when the schema is compiled.
pub(crate) struct Validator {
    schemas: boon::Schemas,
    root: boon::SchemaIndex,
}

impl Validator {
    /// Compiles `schema`, or says why it cannot be checked (for a registration error).
    pub(crate) fn new(schema: &Value) -> Result<Self, String> {
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V2020_12);
        compiler.enable_format_assertions();
        compiler.use_loader(Box::new(FetchNothing));
        let why = |error: boon::CompileError| format!("{error:#}");
        compiler
            .add_resource(LOCATION, schema.clone())
            .map_err(why)?;
        let mut schemas = boon::Schemas::new();
        let root = compiler.compile(LOCATION, &mut schemas).map_err(why)?;
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
