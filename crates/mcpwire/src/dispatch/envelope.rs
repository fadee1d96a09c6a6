//! The one place where results differ by revision: 2026-07-28 results carry `resultType` and
//! `_meta.serverInfo` (and cache hints on cacheable results); 2025-11-25 results carry neither.

use crate::protocol::jsonrpc::{RequestId, push_result_head, result_line};
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
            // The line is written whole here, not the result and then the line around it.
            let mut out = String::with_capacity(body.len() + core.server_info_meta.len() + 112);
            push_result_head(&mut out, id);
            out.push_str(body);
            if !body.trim_end().ends_with('{') {
                out.push(',');
            }
            if kind == ResultKind::InputRequired {
                out.push_str(r#""resultType":"input_required","#);
            } else if kind == ResultKind::Task {
                out.push_str(r#""resultType":"task","#);
            } else {
                out.push_str(r#""resultType":"complete","#);
            }
            if let ResultKind::Cacheable(hint) = kind {
                let scope = match hint.scope {
                    CacheScope::Public => "public",
                    CacheScope::Private => "private",
                };
                out.push_str(&format!(
                    r#""ttlMs":{},"cacheScope":"{scope}","#,
                    hint.ttl_ms
                ));
            }
            out.push_str(&core.server_info_meta);
            out.push_str("}}");
            out
        }
    }
}

/// A result object as JSON.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("results serialize")
}
