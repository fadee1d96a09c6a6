//! The one place where results differ by revision: 2026-07-28 results carry `resultType` and
//! `_meta.serverInfo` (and cache hints on cacheable results); 2025-11-25 results carry neither.

use crate::layer::ResultJson;
use crate::protocol::jsonrpc::{RequestId, push_result_head, result_head_len, result_line};
use crate::protocol::lifecycle::CacheScope;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject};
use crate::server::core::ServerCore;
use crate::wire::structured::{StructuredResult, with_structured};

/// How a method's handling ended: a result body and the kind of result it is, or the error to
/// answer with.
pub(crate) type MethodResult = Result<(String, ResultKind), ErrorObject>;

/// Writes the response line for `result_json` (a serialized JSON object) under `era`.
pub(crate) fn result(
    core: &ServerCore,
    era: Era,
    id: &RequestId,
    result_json: &str,
    kind: ResultKind,
) -> String {
    result_line_of(&core.server_info_meta, era, id, result_json, kind)
}

/// The response line of the result `json`, of kind `kind`, under `era`. A tool's structured
/// output not written yet is written straight into the line, in one buffer of the line's exact
/// length (the response body then takes it as it is), with no result written apart first.
pub(crate) fn result_of(
    core: &ServerCore,
    era: Era,
    id: &RequestId,
    json: ResultJson,
    kind: ResultKind,
) -> String {
    let meta = &core.server_info_meta;
    match json {
        ResultJson::Structured {
            value,
            wrapped,
            written,
        } if written.get().is_none() && kind == ResultKind::Complete => {
            with_structured(&value, wrapped, |structured| {
                structured_line(meta, era, id, &structured)
            })
        }
        json => result_line_of(meta, era, id, json.as_str(), kind),
    }
}

/// The response line of a structured result, `meta` being the server's `_meta` field.
fn structured_line(meta: &str, era: Era, id: &RequestId, result: &StructuredResult<'_>) -> String {
    let fields = (result.open_len(), true);
    line_around(meta, era, id, ResultKind::Complete, fields, |out| {
        result.write_open(out)
    })
}

/// [`result`], `meta` being the server's `_meta` field.
fn result_line_of(
    meta: &str,
    era: Era,
    id: &RequestId,
    result_json: &str,
    kind: ResultKind,
) -> String {
    match era {
        Era::Legacy => result_line(id, result_json),
        Era::Modern => {
            let body = result_json.trim_end();
            let body = body.strip_suffix('}').expect("results are JSON objects");
            let fields = (body.len(), !body.trim_end().ends_with('{'));
            line_around(meta, era, id, kind, fields, |out| out.push_str(body))
        }
    }
}

/// A result line under `era`, written whole into a buffer of its exact length (the response
/// body then takes it as it is): the JSON-RPC head, the result's own fields (`body`: the result
/// object but its closing brace, `length` bytes, with fields when `fields`), then on 2026-07-28
/// `resultType`, a cacheable result's hint and the server's `_meta` (`meta`), and the closing
/// braces.
fn line_around(
    meta: &str,
    era: Era,
    id: &RequestId,
    kind: ResultKind,
    (length, fields): (usize, bool),
    body: impl FnOnce(&mut String),
) -> String {
    let (result_type, cache) = match era {
        Era::Legacy => ("", String::new()),
        Era::Modern => modern_fields(kind),
    };
    let comma = era == Era::Modern && fields;
    let meta = match era {
        Era::Legacy => "",
        Era::Modern => meta,
    };
    let length = result_head_len(id)
        + length
        + usize::from(comma)
        + result_type.len()
        + cache.len()
        + meta.len()
        + 2;
    let mut out = String::with_capacity(length);
    push_result_head(&mut out, id);
    body(&mut out);
    if comma {
        out.push(',');
    }
    out.push_str(result_type);
    out.push_str(&cache);
    out.push_str(meta);
    out.push_str("}}");
    debug_assert_eq!(out.len(), length);
    out
}

/// A 2026-07-28 result's `resultType` field of kind `kind`, and a cacheable result's hint (each
/// with its trailing comma).
fn modern_fields(kind: ResultKind) -> (&'static str, String) {
    let result_type = match kind {
        ResultKind::InputRequired => r#""resultType":"input_required","#,
        ResultKind::Task => r#""resultType":"task","#,
        _ => r#""resultType":"complete","#,
    };
    let cache = match kind {
        ResultKind::Cacheable(hint) => {
            let scope = match hint.scope {
                CacheScope::Public => "public",
                CacheScope::Private => "private",
            };
            format!(r#""ttlMs":{},"cacheScope":"{scope}","#, hint.ttl_ms)
        }
        _ => String::new(),
    };
    (result_type, cache)
}

/// A result object as JSON.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("results serialize")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::CallToolResult;
    use crate::server::tool_output::ToolOutput;
    use serde_json::json;

    #[test]
    fn a_structured_line_is_the_line_of_the_result_written_apart() {
        let meta = r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;
        let ids = [
            RequestId::Number(7),
            RequestId::String("a \"quoted\" id".into()),
        ];
        let values = [
            json!(3),
            json!("a \"quoted\" line\nand \\"),
            json!({"title": "Dune", "tags": ["sf"]}),
            json!({"long": "y\"".repeat(100)}),
        ];
        for (era, id, value, wrapped) in ids.iter().flat_map(|id| {
            values.iter().flat_map(move |value| {
                [Era::Modern, Era::Legacy]
                    .into_iter()
                    .flat_map(move |era| [false, true].map(|wrapped| (era, id, value, wrapped)))
            })
        }) {
            let output = || ToolOutput::structured(value.clone(), wrapped);
            let apart = result_line_of(meta, era, id, &output().into_json(), ResultKind::Complete);
            let line = with_structured(value, wrapped, |structured| {
                structured_line(meta, era, id, &structured)
            });
            assert_eq!(line, apart, "{era:?} {id:?} {value} {wrapped}");
            assert_eq!(line.len(), line.capacity());
            serde_json::from_str::<serde_json::Value>(&line).unwrap();
        }
        // Structured output a layer read is sent as it was written then.
        let read = ToolOutput::structured(json!(3), true).into_result_json();
        let written = read.as_str().to_owned();
        let ResultJson::Structured { written: kept, .. } = &read else {
            unreachable!()
        };
        assert_eq!(kept.get(), Some(&written));
        // Any other output is written apart, as it was.
        let other = ToolOutput::from(CallToolResult::error("no")).into_result_json();
        assert!(matches!(other, ResultJson::Written(_)));
    }
}
