//! The one place where results differ by revision: 2026-07-28 results carry `resultType` and
//! `_meta.serverInfo` (and cache hints on cacheable results); 2025-11-25 results carry neither.

use crate::protocol::jsonrpc::{RequestId, push_result_head, result_head_len, result_line};
use crate::protocol::lifecycle::CacheScope;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject};
use crate::server::core::ServerCore;

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
    match era {
        Era::Legacy => result_line(id, result_json),
        Era::Modern => {
            let body = result_json.trim_end();
            let body = body.strip_suffix('}').expect("results are JSON objects");
            let comma = !body.trim_end().ends_with('{');
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
            let meta = &core.server_info_meta;
            // The line is written whole here, not the result and then the line around it, into
            // a buffer of its exact length (the response body then takes it as it is).
            let length = result_head_len(id)
                + body.len()
                + usize::from(comma)
                + result_type.len()
                + cache.len()
                + meta.len()
                + 2;
            let mut out = String::with_capacity(length);
            push_result_head(&mut out, id);
            out.push_str(body);
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
    }
}

/// A result object as JSON.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("results serialize")
}
