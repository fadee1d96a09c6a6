//! What a transport reads of a request's `params` before the method does, in one pass: its
//! `_meta` (the revision and what the request's context needs) and the values the 2026-07-28
//! HTTP headers mirror (`name`, `uri`, `taskId`, `arguments`), these kept raw. A `tools/call`'s
//! parameters are made from that reading when it holds all of them ([`ParamsRead::tool_call`]);
//! any other method parses its parameters itself, later.

use crate::dispatch::params_fields::Both;
use crate::dispatch::preread::{CalledName, PlainCall, Preread};
use crate::protocol::meta::{RawMeta, RawMetaOnly, RequestMeta};
use crate::protocol::methods::TOOLS_CALL;
use crate::server::core::ServerCore;
use crate::server::tool_kind::ToolView;
use crate::wire::shared_json::SharedJson;
use bytestring::ByteString;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The fields of `params` the mirrored headers compare, each kept raw (borrowed from the body).
#[derive(Default, Deserialize)]
pub(crate) struct RawNamed<'a> {
    #[serde(borrow)]
    pub(crate) name: Option<&'a RawValue>,
    #[serde(borrow)]
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP headers mirror it")
    )]
    pub(crate) uri: Option<&'a RawValue>,
    #[serde(borrow, rename = "taskId")]
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP headers mirror it")
    )]
    pub(crate) task_id: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(crate) arguments: Option<&'a RawValue>,
}

impl<'a> RawNamed<'a> {
    /// The fields of `params`; none when they cannot be read (the parameter types ignore
    /// unknown fields, so this reading must not fail where theirs succeeds).
    pub(crate) fn of(params: Option<&'a RawValue>) -> Self {
        params
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or_default()
    }
}

/// `params`, read once.
pub(crate) struct ParamsRead<'a> {
    /// `_meta` (empty when there is none), or `None` when it is malformed: refused where the
    /// request is classified, as the revision it came on answers it.
    pub(crate) meta: Option<RequestMeta>,
    /// The values the headers mirror.
    pub(crate) named: RawNamed<'a>,
    /// Whether this one reading saw every field of a `tools/call`'s parameters: `params` was
    /// read in one pass (an object, each field once, a well-formed `_meta`) and carries none of
    /// a later round's fields (`inputResponses`, `requestState`) nor `task`, other than as
    /// `null`.
    whole_call: bool,
}

impl<'a> ParamsRead<'a> {
    /// Reads `params` (no params reads as `{}`). An object both readings accept is read once;
    /// anything else (an array, a malformed `_meta`, a field given twice) is read by each
    /// reading on its own, so that one's failure leaves the other's answer as it was.
    pub(crate) fn of(params: Option<&'a RawValue>) -> Self {
        let text = params.map_or("{}", RawValue::get);
        let mut both = Both::default();
        if both.read(text) {
            return Self::of_both(&mut both);
        }
        Self {
            meta: RawMetaOnly::read(text),
            named: RawNamed::of(params),
            whole_call: false,
        }
    }

    /// What one reading of `params` as an object gave. A `_meta` whose values do not read as
    /// theirs (a progress token that is an array) leaves the call to its method's own reading,
    /// as a `params` the one reading refused does.
    pub(crate) fn of_both(both: &mut Both<'a>) -> Self {
        let meta = RawMeta::read_or_empty(both.meta.take());
        let whole_call =
            meta.is_some() && !(both.input_responses || both.request_state || both.task);
        Self {
            meta,
            named: RawNamed {
                name: both.name,
                uri: both.uri,
                task_id: both.task_id,
                arguments: both.arguments,
            },
            whole_call,
        }
    }

    /// What this reading hands on to a `method` request's method: a `tools/call`'s parameters
    /// ([`ParamsRead::tool_call`]), nothing for any other method. `body` is the text `params`
    /// were read from, when it can be shared.
    pub(crate) fn preread(
        &self,
        method: &str,
        core: &ServerCore,
        body: Option<&ByteString>,
    ) -> Preread {
        if method == TOOLS_CALL {
            self.tool_call(&core.snapshot().tools, body)
        } else {
            Preread::Nothing
        }
    }

    /// The parameters of a `tools/call` with these `params`, exactly as parsing them as
    /// [`CallToolParams`](crate::protocol::tools::CallToolParams) gives them, when this reading
    /// holds them all: read in one pass, no later round's fields nor `task`, and `name` a string
    /// without escapes (else [`Preread::Nothing`]: the method parses them itself, and says what
    /// is wrong with them). The tool it names is looked up in `tools`, the registered tools.
    ///
    /// The arguments are a slice of `body` when they were read from it (shared, not copied:
    /// [`SharedJson::read`]); else a copy of their text.
    pub(crate) fn tool_call(&self, tools: &ToolView, body: Option<&ByteString>) -> Preread {
        let name = self.named.name.map(RawValue::get).and_then(unescaped);
        match name {
            Some(name) if self.whole_call => Preread::ToolCall(PlainCall {
                tool: CalledName::of(name, tools),
                arguments: self.named.arguments.map(|raw| SharedJson::read(raw, body)),
            }),
            _ => Preread::Nothing,
        }
    }
}

/// The text of the JSON string `raw`, when it is a string without escapes (its text is then
/// what is between its quotes).
fn unescaped(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.to_owned()).unwrap()
    }

    fn text(value: Option<&RawValue>) -> Option<&str> {
        value.map(RawValue::get)
    }

    #[test]
    fn one_pass_reads_what_the_two_readings_read() {
        let params = raw(
            r#"{"name":"add","arguments":{"a":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":3},"extra":[1,{"x":2}]}"#,
        );
        let read = ParamsRead::of(Some(&params));
        let meta = read.meta.expect("well-formed _meta");
        assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
        assert_eq!(text(read.named.name), Some(r#""add""#));
        assert_eq!(text(read.named.arguments), Some(r#"{"a":1}"#));
        assert!(read.named.uri.is_none() && read.named.task_id.is_none());
        let none = ParamsRead::of(None);
        assert!(
            none.meta
                .expect("no params: empty _meta")
                .protocol_version
                .is_none()
        );
        assert!(none.named.name.is_none());
    }

    /// What the two readings, each on its own, make of `params`.
    fn apart(params: &RawValue) -> (String, [Option<String>; 4]) {
        let meta = serde_json::from_str::<crate::protocol::meta::MetaOnly>(params.get())
            .ok()
            .map(|only| only.meta.unwrap_or_default());
        (format!("{meta:?}"), texts(&RawNamed::of(Some(params))))
    }

    fn texts(named: &RawNamed<'_>) -> [Option<String>; 4] {
        [named.name, named.uri, named.task_id, named.arguments].map(|v| text(v).map(str::to_owned))
    }

    /// What parsing `params` as the method does gives, written out to compare.
    fn parsed(params: &RawValue) -> String {
        format!(
            "{:?}",
            crate::protocol::params::parse::<crate::protocol::tools::CallToolParams>(Some(params))
        )
    }

    #[test]
    fn a_tool_call_read_once_is_what_parsing_its_params_gives() {
        for json in [
            r#"{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":3}}"#,
            r#"{"name":"add"}"#,
            r#"{"name":"ädd","arguments":null,"requestState":null,"task":null,"x":[1]}"#,
            r#"{"arguments" : [1, "two"] , "name" : "a b", "inputResponses": null}"#,
        ] {
            let params = raw(json);
            match ParamsRead::of(Some(&params)).tool_call(&ToolView::default(), None) {
                Preread::ToolCall(read) => {
                    assert_eq!(format!("Ok({:?})", read.into_params()), parsed(&params));
                }
                Preread::Nothing => panic!("not read in one pass: {json}"),
            }
        }
        // Anything else is left to the method's own parsing, which answers as it did.
        for json in [
            r#"{"name":"a\"b","arguments":{}}"#,
            r#"{"name":"\u0061dd"}"#,
            r#"{"name":"add","requestState":"s"}"#,
            r#"{"name":"add","inputResponses":{}}"#,
            r#"{"name":"add","task":{"ttl":1}}"#,
            r#"{"name":"add","name":"sub"}"#,
            r#"{"name":"add","_meta":{"progressToken":[]}}"#,
            r#"{"name":3}"#,
            r#"{"name":null}"#,
            r#"{"arguments":{}}"#,
            r#"["add"]"#,
            r#"{}"#,
        ] {
            let params = raw(json);
            let read = ParamsRead::of(Some(&params));
            assert!(
                matches!(read.tool_call(&ToolView::default(), None), Preread::Nothing),
                "{json}"
            );
        }
        assert!(matches!(
            ParamsRead::of(None).tool_call(&ToolView::default(), None),
            Preread::Nothing
        ));
    }

    #[test]
    fn a_failing_reading_leaves_the_other_as_it_was() {
        // A malformed `_meta`: no meta, the names still read.
        let params = raw(r#"{"name":"add","_meta":{"progressToken":[]}}"#);
        let read = ParamsRead::of(Some(&params));
        assert!(read.meta.is_none());
        assert_eq!(text(read.named.name), Some(r#""add""#));
        // A name given twice: no names, the meta still read.
        let params = raw(r#"{"name":"a","name":"b","_meta":{"progressToken":1}}"#);
        let read = ParamsRead::of(Some(&params));
        assert!(read.meta.expect("meta").progress_token.is_some());
        assert!(read.named.name.is_none());
        // Whatever the shape, the answer is the two readings'.
        for json in [
            r#"{"uri":"a://b","taskId":"t","_meta":null}"#,
            r#"{"_meta":{"progressToken":1},"_meta":{}}"#,
            r#"{"name":3,"arguments":"x"}"#,
            r#" {"name":"a"}"#,
            r#"[{"progressToken":1}]"#,
            r#"[{"progressToken":1},"x","t",{}]"#,
            r#"[]"#,
        ] {
            let params = raw(json);
            let read = ParamsRead::of(Some(&params));
            let together = (format!("{:?}", read.meta), texts(&read.named));
            assert_eq!(together, apart(&params), "{json}");
        }
    }
}
