//! Property tests of the JSON-RPC decoder: arbitrary input never panics, and a request that is
//! written out reads back the same.

use super::jsonrpc::{Incoming, RequestId};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn request_id() -> impl Strategy<Value = RequestId> {
    prop_oneof![
        any::<i64>().prop_map(RequestId::Number),
        ".{0,16}".prop_map(RequestId::String),
    ]
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = Incoming::parse(&text);
    }

    #[test]
    fn arbitrary_json_never_panics(value in json_value()) {
        let _ = Incoming::parse(&value.to_string());
    }

    #[test]
    fn arbitrary_envelopes_never_panic(
        id in prop::option::of(json_value()),
        method in prop::option::of(json_value()),
        params in prop::option::of(json_value()),
        result in prop::option::of(json_value()),
    ) {
        let mut message = json!({"jsonrpc": "2.0"});
        for (key, value) in [("id", id), ("method", method), ("params", params), ("result", result)] {
            if let Some(value) = value {
                message[key] = value;
            }
        }
        let _ = Incoming::parse(&message.to_string());
    }

    #[test]
    fn requests_round_trip(
        id in request_id(),
        method in "[a-z/_]{1,24}",
        params in prop::collection::btree_map("[a-z]{1,6}", json_value(), 0..4),
    ) {
        let params = Value::Object(params.into_iter().collect());
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let Ok(Incoming::Request(request)) = Incoming::parse(&line.to_string()) else {
            panic!("a well-formed request is read as a request: {line}");
        };
        prop_assert_eq!(request.id, id);
        prop_assert_eq!(request.method, method);
        let read: Value = serde_json::from_str(request.params.unwrap().get()).unwrap();
        prop_assert_eq!(read, params);
    }
}

/// The derived reading of an untagged enum of the same variants: what [`RequestId`] read before
/// its reading was written by hand.
#[derive(Debug, serde::Deserialize, PartialEq)]
#[serde(untagged)]
enum DerivedId {
    Number(i64),
    String(String),
}

fn id_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        json_value(),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        Just(json!(i64::MIN)),
        Just(json!(u64::MAX)),
        Just(json!(1.0)),
    ]
}

proptest! {
    /// The hand-written reading of an id takes exactly what the derived one took, as the same
    /// id, from a text and from a `Value`.
    #[test]
    fn an_id_reads_as_the_derived_reading_read_it(value in id_value()) {
        let text = value.to_string();
        let derived = serde_json::from_str::<DerivedId>(&text).ok().map(|id| match id {
            DerivedId::Number(n) => RequestId::Number(n),
            DerivedId::String(s) => RequestId::String(s),
        });
        prop_assert_eq!(serde_json::from_str::<RequestId>(&text).ok(), derived.clone());
        prop_assert_eq!(RequestId::deserialize(&value).ok(), derived);
    }
}
