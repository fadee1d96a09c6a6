//! [`Envelope`]: a JSON-RPC message's envelope as [`CallRead`](super::call_read::CallRead) reads
//! it, with its `params` read into place ([`BothIn`]) rather than built and moved up through
//! each level of the reading.
//!
//! It accepts and refuses what a derived reading of the same fields (each `Option`, `params` an
//! object) does: an object only, each field at most once, any other field skipped, `jsonrpc` and
//! `method` only as strings without escapes (borrowed from the body).

use crate::dispatch::params_fields::{Both, BothIn, Given, present};
use crate::protocol::jsonrpc::RequestId;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use std::fmt;

/// The envelope's fields. A response's fields are read only to send such a message the usual
/// way.
#[derive(Default)]
pub(super) struct Envelope<'a> {
    pub(super) jsonrpc: Option<&'a str>,
    pub(super) id: Option<RequestId>,
    pub(super) method: Option<&'a str>,
    /// `params`' fields, when `params` is an object ([`Envelope::params_given`]).
    pub(super) params: Both<'a>,
    /// Whether `params` was given as an object (not absent, not `null`).
    pub(super) params_given: bool,
    /// Whether `result` is there (other than as `null`); its value skipped.
    pub(super) result: bool,
    /// Whether `error` is there (other than as `null`).
    pub(super) error: bool,
}

impl<'a> Envelope<'a> {
    /// Reads the envelope of the JSON object `text` into this (empty) one, where its caller
    /// keeps it; `false` when `text` is not one, or a field is given twice or does not read as
    /// its type.
    #[inline]
    pub(super) fn read(&mut self, text: &'a str) -> bool {
        let mut reading = serde_json::Deserializer::from_str(text);
        EnvelopeIn(self).deserialize(&mut reading).is_ok() && reading.end().is_ok()
    }
}

/// Reads an object's fields into the [`Envelope`] it holds.
struct EnvelopeIn<'p, 'a>(&'p mut Envelope<'a>);

/// The names of [`Envelope`]'s fields, any other name as `Other`.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    #[serde(other)]
    Other,
}

impl<'de: 'a, 'a> DeserializeSeed<'de> for EnvelopeIn<'_, 'a> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for EnvelopeIn<'_, 'a> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let envelope = self.0;
        let mut given = Given::default();
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Jsonrpc => {
                    given.once(0, "jsonrpc")?;
                    envelope.jsonrpc = map.next_value()?;
                }
                Field::Id => {
                    given.once(1, "id")?;
                    envelope.id = map.next_value()?;
                }
                Field::Method => {
                    given.once(2, "method")?;
                    envelope.method = map.next_value()?;
                }
                Field::Params => {
                    given.once(3, "params")?;
                    envelope.params_given = map.next_value_seed(ParamsIn(&mut envelope.params))?;
                }
                Field::Result => {
                    given.once(4, "result")?;
                    envelope.result = present(&mut map)?;
                }
                Field::Error => {
                    given.once(5, "error")?;
                    envelope.error = present(&mut map)?;
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// Reads `params` into the [`Both`] it holds: whether it was an object (`null`: not given).
struct ParamsIn<'p, 'a>(&'p mut Both<'a>);

impl<'de: 'a, 'a> DeserializeSeed<'de> for ParamsIn<'_, 'a> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for ParamsIn<'_, 'a> {
    type Value = bool;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object or null")
    }

    fn visit_none<E>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        BothIn(self.0).deserialize(deserializer)?;
        Ok(true)
    }
}
