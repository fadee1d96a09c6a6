//! 2026-07-28 scenarios: stateless requests with `_meta` and the mirrored headers.
//!
//! - `modern.add`: one call.
//! - `modern.ask` then `modern.ask.retry`: `input_required`, then the retry with
//!   `inputResponses` and the echoed `requestState`, answered with the answer.
//! - `modern.ask_abandoned`: the first round only; the client never retries (nothing is left
//!   on the server: the state travels with the client).
//! - `modern.slow_dropped`: `slow` with a progress token; the stream is dropped after the first
//!   progress notification (abandoned: on 2026-07-28 closing the stream cancels the call).

use crate::client::{Client, expect_text, result_of, tool_call};
use crate::tally::Failure;
use crate::wire::{Events, Headers, MODERN, is_stream};
use serde_json::{Value, json};

/// `_meta` of a 2026-07-28 request with these client capabilities.
fn meta(capabilities: Value, progress: Option<u64>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "mcpwire-soak", "version": "0.1.0"},
    });
    if let Some(token) = progress {
        meta["progressToken"] = json!(format!("p-{token}"));
    }
    meta
}

fn headers(name: &str) -> Headers<'_> {
    Headers::Modern {
        method: "tools/call",
        name,
    }
}

/// The question of an `input_required` result: its key and the `requestState` to echo.
fn question_of(message: &Value, id: u64) -> Result<(String, String), Failure> {
    let result = result_of(message, id)?;
    let wrong = || Failure::Wrong(format!("not one elicitation round: {message}"));
    if result["resultType"] != "input_required" {
        return Err(wrong());
    }
    let requests = result["inputRequests"].as_object().ok_or_else(wrong)?;
    let (key, request) = match requests.iter().next() {
        Some(entry) if requests.len() == 1 => entry,
        _ => return Err(wrong()),
    };
    if request["method"] != "elicitation/create" {
        return Err(wrong());
    }
    let state = result["requestState"].as_str().ok_or_else(wrong)?;
    Ok((key.clone(), state.to_owned()))
}

impl Client {
    pub async fn modern_add(&mut self) {
        let (a, b) = (
            i64::from(self.rng.below(1000)),
            i64::from(self.rng.below(1000)),
        );
        let id = self.id();
        let body = tool_call(
            id,
            "add",
            json!({"a": a, "b": b}),
            Some(meta(json!({}), None)),
        );
        self.tally.sent("modern.add");
        let outcome = self.exchange(headers("add"), body, id).await;
        let outcome = outcome.and_then(|(_, m)| expect_text(&m, id, &(a + b).to_string()));
        self.settle("modern.add", outcome);
    }

    /// Round one of `ask`; with `answer`, the retry too.
    pub async fn modern_ask(&mut self, answer: bool) {
        let word = format!("w{}", self.rng.below(1_000_000));
        let caps = json!({"elicitation": {}});
        let kind = if answer {
            "modern.ask"
        } else {
            "modern.ask_abandoned"
        };
        let id = self.id();
        let arguments = json!({"word": word});
        let body = tool_call(id, "ask", arguments.clone(), Some(meta(caps.clone(), None)));
        self.tally.sent(kind);
        let outcome = self.exchange(headers("ask"), body, id).await;
        let outcome = outcome.and_then(|(_, m)| question_of(&m, id));
        let Some((key, state)) = self.settle(kind, outcome) else {
            return;
        };
        if !answer {
            return;
        }
        let said = format!("yes-{}", self.rng.below(1000));
        let retry = self.id();
        let body = json!({"jsonrpc": "2.0", "id": retry, "method": "tools/call", "params": {
            "name": "ask", "arguments": arguments,
            "inputResponses": {key: {"action": "accept", "content": {"answer": said}}},
            "requestState": state, "_meta": meta(caps, None)}});
        self.tally.sent("modern.ask.retry");
        let outcome = self.exchange(headers("ask"), body.to_string(), retry).await;
        let expected = format!("{word}: {said}");
        let outcome = outcome.and_then(|(_, m)| expect_text(&m, retry, &expected));
        self.settle("modern.ask.retry", outcome);
    }

    pub async fn modern_slow_dropped(&mut self) {
        let id = self.id();
        let body = tool_call(
            id,
            "slow",
            json!({"steps": 8}),
            Some(meta(json!({}), Some(id))),
        );
        self.tally.sent("modern.slow_dropped");
        let outcome = self.first_progress(headers("slow"), body).await;
        if let Err(failure) = outcome {
            self.tally.failed("modern.slow_dropped", failure);
        } else {
            self.tally.abandoned("modern.slow_dropped");
        }
        // Drop the stream mid-answer (and the connection with it).
        self.vanish();
    }

    /// POSTs `body` and reads its event stream up to the first progress notification; returns
    /// the stream, still open.
    pub async fn first_progress(
        &mut self,
        headers: Headers<'_>,
        body: String,
    ) -> Result<Events, Failure> {
        let target = self.target.clone();
        let conn = self.main().await?;
        let response = conn
            .send(&target, hyper::Method::POST, headers, &[], body)
            .await?;
        if !is_stream(&response) {
            let status = response.status();
            return Err(Failure::Wrong(format!(
                "HTTP {status}: not an event stream"
            )));
        }
        let mut events = Events::new(response);
        let message = events.message().await?;
        if message["method"] != "notifications/progress" {
            return Err(Failure::Wrong(format!(
                "not a progress notification: {message}"
            )));
        }
        Ok(events)
    }
}
