//! Checking values against a schema: each schema is compiled once, when its tool is registered
//! or its form first rendered, and every value is then checked against the compiled form.

use super::violation::Violation;
use serde_json::Value;

/// A compiled schema. Formats (`email`, `date`, `uri`, …) are asserted, not only annotations;
/// unknown formats (such as schemars' `uint32`) are ignored. References resolve only inside the
/// schema itself: nothing is fetched.
pub(crate) struct Validator(jsonschema::Validator);

impl Validator {
    /// Compiles `schema`, or says why it cannot be checked (for a registration error).
    pub(crate) fn new(schema: &Value) -> Result<Self, String> {
        jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .map(Self)
            .map_err(|error| error.to_string())
    }

    /// Whether `value` fits: the fast path, which builds no error.
    pub(crate) fn is_valid(&self, value: &Value) -> bool {
        self.0.is_valid(value)
    }

    /// The first way `value` does not fit, in plain words; `None` when it fits.
    pub(crate) fn violation(&self, value: &Value) -> Option<Violation> {
        self.0
            .validate(value)
            .err()
            .map(|error| Violation::of(&error))
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
        let remote = Validator::new(&json!({"$ref": "https://example.com/schema.json"}));
        assert!(remote.is_err());
    }
}
