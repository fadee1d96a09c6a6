//! [`SharedJson`]: a JSON value's text as it was sent, shared with the request body it was read
//! from instead of copied out of it.
//!
//! A tool call's `arguments` are kept for as long as the call runs (its tool parses them, a
//! resolver reads them by name, a later round's `requestState` is bound to them), long after the
//! request's body has been read. Read from an HTTP body, they are that body's bytes: holding a
//! slice of it (a reference counted, no copy, no allocation) keeps them at the cost of a count.

use bytestring::ByteString;
use serde_json::value::RawValue;

/// A JSON value's text, as sent: a slice of the body it was read from, or text of its own.
/// Cloning it shares the text.
#[derive(Clone, Debug)]
pub(crate) struct SharedJson(ByteString);

impl SharedJson {
    /// `value`, read from `body`: the slice of `body` it is, nothing copied; a copy of its text
    /// when there is no body or `value` is not text of it (a reading of another text).
    pub(crate) fn read(value: &RawValue, body: Option<&ByteString>) -> Self {
        let text = value.get();
        match body {
            Some(body) if holds(body, text) => Self(body.slice_ref(text)),
            _ => Self(ByteString::from(text)),
        }
    }

    /// The same text in a buffer of its own: what outlives the request (a task's run) holds
    /// this, not a slice that keeps the whole body it came in alive.
    pub(crate) fn detached(&self) -> Self {
        Self(ByteString::from(self.get()))
    }

    /// The value's text.
    pub(crate) fn get(&self) -> &str {
        &self.0
    }

    /// The value as serde_json's raw value: a copy, for what reads one.
    pub(crate) fn to_raw_value(&self) -> Box<RawValue> {
        RawValue::from_string(self.get().to_owned())
            .expect("a SharedJson holds the text of one JSON value")
    }
}

/// Whether `text` lies within `body`'s bytes.
fn holds(body: &str, text: &str) -> bool {
    let (outer, inner) = (
        body.as_bytes().as_ptr_range(),
        text.as_bytes().as_ptr_range(),
    );
    outer.start <= inner.start && inner.end <= outer.end
}

/// A raw value's own text, kept as it is (its allocation moves, nothing is copied).
impl From<Box<RawValue>> for SharedJson {
    fn from(value: Box<RawValue>) -> Self {
        Self(ByteString::from(Box::<str>::from(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_read_from_a_body_is_its_slice_and_reads_back_the_same() {
        let body = ByteString::from(r#"{"params":{"arguments":{"a":1,"b":"x\"y"}}}"#);
        let read: serde_json::Value = serde_json::from_str(&body).unwrap();
        #[derive(serde::Deserialize)]
        struct Params<'a> {
            #[serde(borrow)]
            arguments: &'a RawValue,
        }
        #[derive(serde::Deserialize)]
        struct Envelope<'a> {
            #[serde(borrow)]
            params: Params<'a>,
        }
        let envelope: Envelope<'_> = serde_json::from_str(&body).unwrap();
        let shared = SharedJson::read(envelope.params.arguments, Some(&body));
        assert_eq!(shared.get(), r#"{"a":1,"b":"x\"y"}"#);
        // The very bytes of the body, not a copy of them.
        let start = body.as_ptr() as usize;
        let at = shared.get().as_ptr() as usize;
        assert!(at > start && at < start + body.len());
        let again: serde_json::Value = serde_json::from_str(shared.get()).unwrap();
        assert_eq!(again, read["params"]["arguments"]);
        assert_eq!(shared.to_raw_value().get(), shared.get());
        let detached = shared.detached();
        assert_eq!(detached.get(), shared.get());
        assert_ne!(detached.get().as_ptr(), shared.get().as_ptr());
        // Read from another text, or from none: copied.
        let other = ByteString::from("{}");
        for body in [Some(&other), None] {
            let copied = SharedJson::read(envelope.params.arguments, body);
            assert_eq!(copied.get(), shared.get());
            assert_ne!(copied.get().as_ptr(), shared.get().as_ptr());
        }
    }

    #[test]
    fn a_raw_value_of_its_own_is_kept_as_it_is() {
        let raw = RawValue::from_string(r#"[1, 2]"#.to_owned()).unwrap();
        let at = raw.get().as_ptr();
        let shared = SharedJson::from(raw);
        assert_eq!(shared.get(), "[1, 2]");
        assert_eq!(shared.get().as_ptr(), at, "moved, not copied");
    }
}
