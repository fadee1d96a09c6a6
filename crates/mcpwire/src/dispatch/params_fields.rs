//! [`Both`]: the fields of a request's `params` the server reads before the method does, read
//! from an object in place ([`BothIn`]).
//!
//! A derived `Deserialize` builds its value in locals and returns it, and every level of the
//! reading (the struct, the map, serde's `Option`, the field of the struct around it) moves it
//! once more: for `params` and the envelope around it, a few hundred bytes copied five or six
//! times a request. Read through a seed that holds where the fields go, each value is written
//! once, where it is kept. What the reading accepts and refuses is the derived one's: an object
//! only (an array is refused), each field at most once (`null` counts as given), any other field
//! skipped.

use crate::protocol::meta::RawMeta;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The fields of `params` read in one pass: what `RawMetaOnly` and `RawNamed` read, and
/// whether the other fields of a `tools/call`'s parameters are there.
#[derive(Default)]
pub(crate) struct Both<'a> {
    /// `_meta`; `None` when absent or `null`.
    pub(crate) meta: Option<RawMeta<'a>>,
    /// `name`, raw.
    pub(crate) name: Option<&'a RawValue>,
    /// `uri`, raw.
    pub(crate) uri: Option<&'a RawValue>,
    /// `taskId`, raw.
    pub(crate) task_id: Option<&'a RawValue>,
    /// `arguments`, raw.
    pub(crate) arguments: Option<&'a RawValue>,
    /// Whether `inputResponses` is there (other than as `null`); its value skipped.
    pub(crate) input_responses: bool,
    /// Whether `requestState` is there (other than as `null`).
    pub(crate) request_state: bool,
    /// Whether `task` is there (other than as `null`).
    pub(crate) task: bool,
}

impl<'a> Both<'a> {
    /// Reads the fields of the JSON object `text` into this (empty) reading, where its caller
    /// keeps it; `false` when `text` is not one, or a field is given twice or does not read as
    /// its type (what was read is then of no use).
    pub(crate) fn read(&mut self, text: &'a str) -> bool {
        let mut reading = serde_json::Deserializer::from_str(text);
        BothIn(self).deserialize(&mut reading).is_ok() && reading.end().is_ok()
    }
}

/// Reads an object's fields into the [`Both`] it holds.
pub(crate) struct BothIn<'p, 'a>(pub(crate) &'p mut Both<'a>);

/// The names of [`Both`]'s fields, as sent (escapes read), any other name as `Other`.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum Field {
    #[serde(rename = "_meta")]
    Meta,
    Name,
    Uri,
    TaskId,
    Arguments,
    InputResponses,
    RequestState,
    Task,
    #[serde(other)]
    Other,
}

impl<'de: 'a, 'a> DeserializeSeed<'de> for BothIn<'_, 'a> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for BothIn<'_, 'a> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let both = self.0;
        let mut given = Given::default();
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Meta => {
                    given.once(0, "_meta")?;
                    both.meta = map.next_value()?;
                }
                Field::Name => {
                    given.once(1, "name")?;
                    both.name = map.next_value()?;
                }
                Field::Uri => {
                    given.once(2, "uri")?;
                    both.uri = map.next_value()?;
                }
                Field::TaskId => {
                    given.once(3, "taskId")?;
                    both.task_id = map.next_value()?;
                }
                Field::Arguments => {
                    given.once(4, "arguments")?;
                    both.arguments = map.next_value()?;
                }
                Field::InputResponses => {
                    given.once(5, "inputResponses")?;
                    both.input_responses = present(&mut map)?;
                }
                Field::RequestState => {
                    given.once(6, "requestState")?;
                    both.request_state = present(&mut map)?;
                }
                Field::Task => {
                    given.once(7, "task")?;
                    both.task = present(&mut map)?;
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// Whether the value next in `map` is there, other than as `null`; the value skipped.
pub(crate) fn present<'de, A: MapAccess<'de>>(map: &mut A) -> Result<bool, A::Error> {
    Ok(map.next_value::<Option<IgnoredAny>>()?.is_some())
}

/// Which fields an object gave so far: a field given twice is refused, as a derived reading
/// refuses it.
#[derive(Default)]
pub(crate) struct Given(u16);

impl Given {
    /// Marks field `index` (named `name`) given; an error if it was already.
    pub(crate) fn once<E: de::Error>(&mut self, index: u32, name: &'static str) -> Result<(), E> {
        let bit = 1 << index;
        if self.0 & bit != 0 {
            return Err(E::duplicate_field(name));
        }
        self.0 |= bit;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reading a derived `Deserialize` makes of the same fields, to hold this one to.
    #[derive(Deserialize)]
    struct Derived<'a> {
        #[serde(rename = "_meta", default, borrow)]
        meta: Option<RawMeta<'a>>,
        #[serde(borrow)]
        name: Option<&'a RawValue>,
        #[serde(borrow)]
        uri: Option<&'a RawValue>,
        #[serde(borrow, rename = "taskId")]
        task_id: Option<&'a RawValue>,
        #[serde(borrow)]
        arguments: Option<&'a RawValue>,
        #[serde(rename = "inputResponses")]
        input_responses: Option<IgnoredAny>,
        #[serde(rename = "requestState")]
        request_state: Option<IgnoredAny>,
        task: Option<IgnoredAny>,
    }

    /// What a reading gave, written out to compare.
    fn written(
        meta: Option<RawMeta<'_>>,
        raw: [Option<&RawValue>; 4],
        present: [bool; 3],
    ) -> String {
        let meta = meta.map(|meta| format!("{:?}", meta.read()));
        let raw = raw.map(|value| value.map(RawValue::get));
        format!("{meta:?} {raw:?} {present:?}")
    }

    fn in_place(text: &str) -> Option<String> {
        let mut both = Both::default();
        if !both.read(text) {
            return None;
        }
        let raw = [both.name, both.uri, both.task_id, both.arguments];
        let present = [both.input_responses, both.request_state, both.task];
        Some(written(both.meta, raw, present))
    }

    fn derived(text: &str) -> Option<String> {
        let crate::wire::object::Object(d) =
            serde_json::from_str::<crate::wire::object::Object<Derived<'_>>>(text).ok()?;
        let raw = [d.name, d.uri, d.task_id, d.arguments];
        let present = [
            d.input_responses.is_some(),
            d.request_state.is_some(),
            d.task.is_some(),
        ];
        Some(written(d.meta, raw, present))
    }

    #[test]
    fn the_reading_in_place_is_the_derived_reading() {
        for text in [
            r#"{}"#,
            r#"{"name":"add","arguments":{"a":1},"_meta":{"progressToken":3},"x":[1,{"y":2}]}"#,
            r#"{"name":"a\"b","uri":"u","taskId":"t","arguments":null}"#,
            r#"{"\u006eame":"escaped key","_meta":null}"#,
            r#"{"inputResponses":{},"requestState":"s","task":{"ttl":1}}"#,
            r#"{"inputResponses":null,"requestState":null,"task":null}"#,
            r#" { "name" : 1 , "arguments" : [ 1 , "two" ] } "#,
            // Refused, by both.
            r#"{"name":"a","name":"b"}"#,
            r#"{"task":null,"task":null}"#,
            r#"{"_meta":{"progressToken":[]}}"#,
            r#"{"_meta":5}"#,
            r#"["add"]"#,
            r#"null"#,
            r#"{"name":"a"} x"#,
            r#"{"name":"a""#,
        ] {
            assert_eq!(in_place(text), derived(text), "{text}");
        }
    }
}
