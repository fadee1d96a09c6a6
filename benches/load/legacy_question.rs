//! `confirm_order` on a 2025-11-25 session: the call's stream carries the server's
//! `elicitation/create`; the answer goes back as a POST on a second connection (the first one is
//! busy with the stream), and the result follows on the stream.

use super::{Client, Era, Meta, Tool, call_body};
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::header;
use serde_json::{Value, json};

impl Client {
    /// Calls `confirm_order` as request `id`, accepts the question its stream asks, and returns
    /// the JSON-RPC response the stream ends with.
    pub(super) async fn confirm_on_session(&mut self, id: u64) -> Result<Bytes, String> {
        let tool = Tool::ConfirmOrder;
        let response = self
            .send(call_body(id, tool, Era::Legacy, Meta::Bare), Some(tool))
            .await?;
        let sse = response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
        if response.status() != 200 || !sse {
            return Err(format!(
                "confirm_order: HTTP {} without an event stream",
                response.status()
            ));
        }
        let mut body = response.into_body();
        let mut pending = Vec::new();
        let mut answered = false;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| format!("body: {e}"))?;
            let Some(data) = frame.data_ref() else {
                continue;
            };
            pending.extend_from_slice(data);
            while let Some(end) = pending.windows(2).position(|w| w == b"\n\n") {
                let event: Vec<u8> = pending.drain(..end + 2).collect();
                let Some(message) = data_of(&event) else {
                    continue;
                };
                if message["id"] == id {
                    // Read the stream to its end, so the connection can carry the next call
                    // (a body dropped unread closes it).
                    while let Some(rest) = body.frame().await {
                        rest.map_err(|e| format!("body: {e}"))?;
                    }
                    return Ok(Bytes::from(message.to_string()));
                }
                if message["method"] == "elicitation/create" && !answered {
                    self.answer(&message["id"]).await?;
                    answered = true;
                }
            }
        }
        Err("confirm_order: the stream ended without the response".into())
    }

    /// Accepts the question `question` on the second connection.
    async fn answer(&mut self, question: &Value) -> Result<(), String> {
        if self.answerer.as_ref().is_none_or(|a| a.is_closed()) {
            self.answerer = Some(super::open(self.addr).await?);
        }
        let body = json!({"jsonrpc": "2.0", "id": question,
            "result": {"action": "accept", "content": {"confirm": true}}});
        let request = self.request(body.to_string(), None);
        let answerer = self.answerer.as_mut().expect("connected above");
        answerer
            .ready()
            .await
            .map_err(|e| format!("connection: {e}"))?;
        let response = answerer
            .send_request(request)
            .await
            .map_err(|e| format!("answer: {e}"))?;
        let status = response.status().as_u16();
        let _ = response.into_body().collect().await;
        if status != 202 {
            return Err(format!("the answer was refused with HTTP {status}"));
        }
        Ok(())
    }
}

/// The JSON of an SSE event's `data:` lines, if any.
fn data_of(event: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(event).ok()?;
    let data: String = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim_start)
        .collect();
    serde_json::from_str(&data).ok()
}
