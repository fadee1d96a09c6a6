//! The second round of the 2-round call (`confirm_order` on 2026-07-28): read the first round's
//! `input_required` result, answer every question it asks, and echo its `requestState`.

use serde_json::{Map, Value, json};

/// `_meta` of a request that may be asked a form question: the client declares elicitation.
pub const META: &str = r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}"#;

/// The second `tools/call` of `confirm_order` (request `id`), from the first round's response:
/// every key of its `inputRequests` accepted with `{"confirm": true}`, and its `requestState`
/// echoed when there is one. Fails when the first round did not ask.
pub fn second_round(first: &[u8], id: u64) -> Result<String, String> {
    let fail = || format!("first round: {}", String::from_utf8_lossy(first));
    let reply: Value = serde_json::from_slice(first).map_err(|_| fail())?;
    let result = reply.get("result").ok_or_else(fail)?;
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return Err(fail());
    }
    let asked = result
        .get("inputRequests")
        .and_then(Value::as_object)
        .filter(|asked| !asked.is_empty())
        .ok_or_else(fail)?;
    let answers: Map<String, Value> = asked
        .keys()
        .map(|key| {
            let answer = json!({"action": "accept", "content": {"confirm": true}});
            (key.clone(), answer)
        })
        .collect();
    let mut params = json!({
        "name": "confirm_order",
        "arguments": {"title": "Dune"},
        "inputResponses": answers,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        },
    });
    if let Some(state) = result.get("requestState") {
        params["requestState"] = state.clone();
    }
    let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    Ok(request.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_every_question_and_echoes_the_state() {
        let first = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",
            "inputRequests":{"q1":{"method":"elicitation/create","params":{}}},
            "requestState":"v2.abc"}}"#;
        let second: Value = serde_json::from_str(&second_round(first, 2).unwrap()).unwrap();
        assert_eq!(second["id"], 2);
        assert_eq!(second["params"]["requestState"], "v2.abc");
        assert_eq!(
            second["params"]["inputResponses"]["q1"]["content"]["confirm"],
            true
        );
    }

    #[test]
    fn a_first_round_that_does_not_ask_fails() {
        let done = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
        assert!(second_round(done, 2).is_err());
        let error = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"no"}}"#;
        assert!(second_round(error, 2).is_err());
    }
}
