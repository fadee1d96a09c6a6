//! A `tools/call` request read in one pass of its body: the envelope, `_meta`, and the values
//! of `params` that the headers mirror and the method needs. What [`Incoming::parse`] and then
//! [`ParamsRead::of`] give for the same body, without reading `params` twice nor keeping a copy
//! of it: a request served this way carries no raw `params`, since nothing after it reads them.
//!
//! Anything this reading does not take whole (another method, an escape where it borrows, a
//! field it would have to keep raw for later, a `null` id, a malformed envelope) is read the
//! usual way instead, which answers it as before.
//!
//! [`Incoming::parse`]: crate::protocol::jsonrpc::Incoming::parse

use super::call_envelope::Envelope;
use crate::dispatch::params_read::ParamsRead;
use crate::dispatch::preread::Preread;
use crate::protocol::jsonrpc::Request;
use crate::protocol::methods::TOOLS_CALL;
use crate::server::tool_kind::ToolView;
use bytestring::ByteString;
use std::borrow::Cow;

/// A `tools/call` request, read in one pass.
pub(super) struct CallRead<'a> {
    /// The request, without its raw `params`.
    pub(super) request: Request,
    /// What the endpoint reads of `params`.
    pub(super) read: ParamsRead<'a>,
    /// The call's parameters, whole.
    pub(super) preread: Preread,
}

impl<'a> CallRead<'a> {
    /// `body` read in one pass, when it is a `tools/call` request this reading takes whole;
    /// `None` sends it the usual way. The tool it names is looked up in `tools`; its arguments
    /// are a slice of `body` (shared, not copied).
    ///
    /// Inlined into its one caller, so that what it gives is made where it is used, not
    /// returned and moved there.
    #[inline(always)]
    pub(super) fn of(body: &'a ByteString, tools: &ToolView) -> Option<Self> {
        // Read into place and taken from there: the reading is not moved whole.
        let mut envelope = Envelope::default();
        let taken = envelope.read(body)
            && envelope.jsonrpc == Some("2.0")
            && envelope.method == Some(TOOLS_CALL)
            && envelope.params_given
            && !envelope.result
            && !envelope.error;
        let id = envelope.id.take().filter(|_| taken)?;
        let read = ParamsRead::of_both(&mut envelope.params);
        let preread = read.tool_call(tools, Some(body));
        if matches!(preread, Preread::Nothing) {
            return None;
        }
        let request = Request {
            id,
            method: Cow::Borrowed(TOOLS_CALL),
            params: None,
        };
        Some(Self {
            request,
            read,
            preread,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::preread::PlainCall;
    use crate::protocol::jsonrpc::{Incoming, RequestId};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use serde_json::value::RawValue;

    /// What the usual reading makes of `text`: the request (with its raw `params`), and what
    /// the endpoint reads of them; written out to compare.
    fn usual(text: &str) -> Option<(String, String)> {
        let Ok(Incoming::Request(request)) = Incoming::parse(text) else {
            return None;
        };
        let read = ParamsRead::of(request.params.as_deref());
        let preread = match &*request.method {
            TOOLS_CALL => read.tool_call(&ToolView::default(), None),
            _ => Preread::Nothing,
        };
        let written = written(&request.id, &request.method, &read, &preread);
        Some((written, request.params.map(|p| p.get().to_owned())?))
    }

    fn written(id: &RequestId, method: &str, read: &ParamsRead<'_>, preread: &Preread) -> String {
        let named = [
            read.named.name,
            read.named.uri,
            read.named.task_id,
            read.named.arguments,
        ]
        .map(|value| value.map(RawValue::get));
        format!("{id:?} {method} {:?} {named:?} {preread:?}", read.meta)
    }

    /// Whenever the one pass takes a body, the usual reading gives the same request, the same
    /// reading of `params` and the same call parameters.
    fn agrees(text: &str) -> bool {
        let body = ByteString::from(text);
        let Some(call) = CallRead::of(&body, &ToolView::default()) else {
            return false;
        };
        assert!(call.request.params.is_none());
        // The arguments are the body's own bytes, not a copy of them.
        if let Preread::ToolCall(PlainCall {
            arguments: Some(arguments),
            ..
        }) = &call.preread
        {
            let (outer, inner) = (
                body.as_bytes().as_ptr_range(),
                arguments.get().as_bytes().as_ptr_range(),
            );
            assert!(
                outer.start <= inner.start && inner.end <= outer.end,
                "{text}"
            );
        }
        let once = written(
            &call.request.id,
            &call.request.method,
            &call.read,
            &call.preread,
        );
        let (usual, _) = usual(text).unwrap_or_else(|| panic!("the usual reading refused {text}"));
        assert_eq!(once, usual, "{text}");
        true
    }

    #[test]
    fn a_plain_call_is_read_in_one_pass_as_the_usual_reading_reads_it() {
        for text in [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            r#"{"method":"tools/call","params":{"name":"add"},"id":"x","jsonrpc":"2.0","extra":[1]}"#,
            r#" {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","requestState":null,"result":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"result":null,"error":null}"#,
        ] {
            assert!(agrees(text), "not taken: {text}");
        }
    }

    #[test]
    fn what_the_one_pass_does_not_take_whole_goes_the_usual_way() {
        for text in [
            // Not a call, or not one request.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"error":{}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"a"}}"#,
            r#"["2.0",1,"tools/call",{"name":"a"}]"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}]"#,
            // Escapes where the reading borrows.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2\u002e0","id":1,"method":"tools/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\u0061"}}"#,
            // Parameters the method must read itself, or that are no object.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","task":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","inputResponses":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["a"]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":[]}}}"#,
            // Fields given twice, and malformed JSON.
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}"#,
        ] {
            assert!(
                CallRead::of(&ByteString::from(text), &ToolView::default()).is_none(),
                "taken: {text}"
            );
        }
    }

    /// A JSON value of a few shapes, as text.
    fn value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            (-3i64..3).prop_map(|n| n.to_string()),
            Just("1.5".to_owned()),
            "[a-z\\\\\"]{0,3}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            Just(r#""\u0061""#.to_owned()),
        ];
        leaf.prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec((key(), inner), 0..3).prop_map(|fields| {
                    let fields: Vec<String> = fields
                        .into_iter()
                        .map(|(k, v)| format!("{k}:{v}"))
                        .collect();
                    format!("{{{}}}", fields.join(","))
                }),
            ]
        })
    }

    /// A key among those the readings know, or another.
    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(r#""name""#),
            Just(r#""arguments""#),
            Just(r#""_meta""#),
            Just(r#""uri""#),
            Just(r#""taskId""#),
            Just(r#""task""#),
            Just(r#""requestState""#),
            Just(r#""inputResponses""#),
            Just(r#""progressToken""#),
            Just(r#""io.modelcontextprotocol/protocolVersion""#),
            Just(r#""n\u0061me""#),
            Just(r#""other""#),
        ]
        .prop_map(str::to_owned)
    }

    /// A request's body: an envelope of a few shapes around `params` of many, most of them
    /// naming a tool (so that the one pass takes a good share of them).
    fn body() -> impl Strategy<Value = String> {
        let envelope_key = prop_oneof![
            Just(r#""result""#.to_owned()),
            Just(r#""error""#.to_owned()),
            Just(r#""other""#.to_owned()),
            Just(r#""id""#.to_owned()),
        ];
        let name = prop_oneof![
            3 => "[a-z_]{1,8}".prop_map(|s| format!(r#""{s}""#)),
            1 => value(),
        ];
        let meta = prop_oneof![
            Just(String::new()),
            Just(r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#.to_owned()),
            Just(r#","_meta":{"progressToken":"t"}"#.to_owned()),
            value().prop_map(|v| format!(r#","_meta":{v}"#)),
        ];
        let fields = prop::collection::vec((key(), value()), 0..2);
        let params = (name, meta, fields).prop_map(|(name, meta, fields)| {
            let fields: String = fields
                .into_iter()
                .map(|(k, v)| format!(",{k}:{v}"))
                .collect();
            format!(r#"{{"name":{name}{meta}{fields}}}"#)
        });
        let extra = prop::collection::vec((envelope_key, value()), 0..2);
        let id = prop_oneof![
            3 => Just("1"),
            2 => Just(r#""a""#),
            1 => Just("null"),
            1 => Just("1.5"),
        ];
        let method = prop_oneof![
            3 => Just(r#""tools/call""#),
            1 => Just(r#""tools/list""#),
        ];
        let params = prop_oneof![4 => params, 1 => value()];
        (id, method, params, extra).prop_map(|(id, method, params, extra)| {
            let extra: String = extra
                .into_iter()
                .map(|(k, v)| format!(",{k}:{v}"))
                .collect();
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":{method},"params":{params}{extra}}}"#)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Over bodies of many shapes, the one pass takes a body only when the usual reading
        /// gives the same.
        #[test]
        fn the_one_pass_agrees_with_the_usual_reading(text in body()) {
            agrees(&text);
        }
    }

    #[test]
    fn the_generated_bodies_are_taken_often_enough_to_compare() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let taken = (0..500)
            .filter(|_| agrees(&body().new_tree(&mut runner).unwrap().current()))
            .count();
        assert!(taken >= 50, "only {taken} of 500 taken");
    }
}
