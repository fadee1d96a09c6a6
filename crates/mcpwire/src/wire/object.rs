//! [`Object`]: a value read only from a JSON object. A derived `Deserialize` of a struct also
//! takes an array (its fields in order), which a reading that must agree with a map's cannot.

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// `T`, read from a JSON object: anything else (an array among them) is refused.
pub(crate) struct Object<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(ObjectOf(PhantomData))
            .map(Object)
    }
}

/// Reads `T` from the fields of the one object it is given.
struct ObjectOf<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOf<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Pair<'a> {
        #[serde(borrow)]
        name: &'a str,
        count: Option<u32>,
    }

    #[test]
    fn an_object_is_read_as_the_struct_reads_it_and_an_array_is_refused() {
        let text = r#"{"count":2,"name":"add","other":[1]}"#;
        let Object(read) = serde_json::from_str::<Object<Pair<'_>>>(text).unwrap();
        assert_eq!(read, serde_json::from_str::<Pair<'_>>(text).unwrap());
        assert_eq!(read.name, "add");
        // The derived reading takes an array; this one does not.
        assert!(serde_json::from_str::<Pair<'_>>(r#"["add",2]"#).is_ok());
        assert!(serde_json::from_str::<Object<Pair<'_>>>(r#"["add",2]"#).is_err());
        // A field given twice is refused, as by the struct itself.
        assert!(serde_json::from_str::<Object<Pair<'_>>>(r#"{"name":"a","name":"b"}"#).is_err());
        assert!(serde_json::from_str::<Object<Pair<'_>>>("null").is_err());
    }
}
