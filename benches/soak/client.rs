//! A virtual client: picks a scenario by weight, plays it, counts every request, pauses, and
//! again until the traffic window closes. It holds at most two connections at once (one for
//! the requests, one for the answers a 2025-11-25 client posts while a stream is open).

use crate::tally::{Failure, Tally};
use crate::wire::{Conn, Events, Headers, Target, body_of, is_stream};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The scenarios and their weights (out of 100).
const MIX: [(Scenario, u32); 5] = [
    (Scenario::ModernAdd, 30),
    (Scenario::ModernAsk, 14),
    (Scenario::ModernAskAbandoned, 6),
    (Scenario::ModernSlowDropped, 5),
    (Scenario::LegacySession, 45),
];

#[derive(Clone, Copy)]
enum Scenario {
    ModernAdd,
    ModernAsk,
    ModernAskAbandoned,
    ModernSlowDropped,
    LegacySession,
}

/// xorshift64*: a small deterministic generator, so a run can be replayed with its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((x >> 32) % u64::from(n.max(1))) as u32
    }
}

pub struct Client {
    pub target: Arc<Target>,
    pub tally: Tally,
    pub rng: Rng,
    main: Option<Conn>,
    side: Option<Conn>,
    next_id: u64,
}

impl Client {
    pub fn new(target: Arc<Target>, tally: Tally, seed: u64) -> Self {
        Self {
            target,
            tally,
            rng: Rng::new(seed),
            main: None,
            side: None,
            next_id: 1,
        }
    }

    /// Plays scenarios until `until`, pausing about `pace` between them. A scenario that has
    /// started is played to its end, so every request it sent is accounted for.
    pub async fn run(mut self, until: Instant, pace: Duration) {
        while Instant::now() < until {
            let mut pick = self.rng.below(100);
            let scenario = MIX
                .iter()
                .find(|(_, weight)| {
                    pick < *weight || {
                        pick -= weight;
                        false
                    }
                })
                .map_or(Scenario::ModernAdd, |(s, _)| *s);
            match scenario {
                Scenario::ModernAdd => self.modern_add().await,
                Scenario::ModernAsk => self.modern_ask(true).await,
                Scenario::ModernAskAbandoned => self.modern_ask(false).await,
                Scenario::ModernSlowDropped => self.modern_slow_dropped().await,
                Scenario::LegacySession => self.legacy_session().await,
            }
            let jitter = self.rng.below(2001);
            tokio::time::sleep(pace.mul_f64(f64::from(jitter) / 1000.0)).await;
        }
    }

    /// A fresh JSON-RPC id.
    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The request connection, opened when there is none (or the server closed it).
    pub async fn main(&mut self) -> Result<&mut Conn, Failure> {
        Self::ready(&mut self.main, &self.target).await
    }

    /// The second connection, for answers posted while the main one carries a stream.
    pub async fn side(&mut self) -> Result<&mut Conn, Failure> {
        Self::ready(&mut self.side, &self.target).await
    }

    async fn ready<'a>(
        slot: &'a mut Option<Conn>,
        target: &Target,
    ) -> Result<&'a mut Conn, Failure> {
        if slot.as_ref().is_none_or(Conn::is_closed) {
            *slot = None;
            let conn = Conn::open(target).await.map_err(Failure::Lost)?;
            *slot = Some(conn);
        }
        Ok(slot.as_mut().expect("just opened"))
    }

    /// Closes both connections at once: the client vanishes.
    pub fn vanish(&mut self) {
        self.main = None;
        self.side = None;
    }

    /// Reads the rest of the main connection's answered stream; one that does not end is
    /// counted (`stream_not_ended`) and its connection closed.
    pub async fn finish(&mut self, events: Events) {
        if !events.finish().await {
            self.tally.event("stream_not_ended");
            self.main = None;
        }
    }

    /// Records the outcome of one request of `kind`; a failed one also closes the connections
    /// (they may be in the middle of an answer).
    pub fn settle<T>(&mut self, kind: &'static str, outcome: Result<T, Failure>) -> Option<T> {
        match outcome {
            Ok(value) => {
                self.tally.answered(kind);
                Some(value)
            }
            Err(failure) => {
                self.tally.failed(kind, failure);
                self.vanish();
                None
            }
        }
    }

    /// POSTs `body` on the main connection and returns its JSON-RPC response to `id`: the JSON
    /// body, or the message with that id on the event stream (notifications before it are
    /// skipped). A JSON body must come with `200`.
    pub async fn exchange(
        &mut self,
        headers: Headers<'_>,
        body: String,
        id: u64,
    ) -> Result<(hyper::HeaderMap, Value), Failure> {
        let target = self.target.clone();
        let conn = self.main().await?;
        let response = conn
            .send(&target, hyper::Method::POST, headers, &[], body)
            .await?;
        let status = response.status();
        let head = response.headers().clone();
        if is_stream(&response) {
            let mut events = Events::new(response);
            let message = response_in(&mut events, id).await?;
            self.finish(events).await;
            return Ok((head, message));
        }
        let bytes = body_of(response).await?;
        let message: Value = serde_json::from_slice(&bytes).map_err(|_| {
            Failure::Wrong(format!(
                "HTTP {status}: {}",
                String::from_utf8_lossy(&bytes)
            ))
        })?;
        if status != 200 {
            return Err(Failure::Wrong(format!("HTTP {status}: {message}")));
        }
        Ok((head, message))
    }
}

/// The response to `id` on an event stream, skipping notifications.
pub async fn response_in(events: &mut Events, id: u64) -> Result<Value, Failure> {
    loop {
        let message = events.message().await?;
        if message.get("method").is_none() && message.get("id") == Some(&json!(id)) {
            return Ok(message);
        }
        if message.get("method").is_none() {
            return Err(Failure::Wrong(format!(
                "a response to another id: {message}"
            )));
        }
    }
}

/// A `tools/call` of `tool` with `arguments` (and `_meta` when given).
pub fn tool_call(id: u64, tool: &str, arguments: Value, meta: Option<Value>) -> String {
    let mut params = json!({"name": tool, "arguments": arguments});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
}

/// The `result` of response `message`, which must answer `id` without an error.
pub fn result_of(message: &Value, id: u64) -> Result<&Value, Failure> {
    match (message.get("id"), message.get("result")) {
        (Some(answered), Some(result))
            if *answered == json!(id) && message.get("error").is_none() =>
        {
            Ok(result)
        }
        _ => Err(Failure::Wrong(format!(
            "not a result for id {id}: {message}"
        ))),
    }
}

/// The first text block of a tool result, which must be `expected` (and not an error).
pub fn expect_text(message: &Value, id: u64, expected: &str) -> Result<(), Failure> {
    let result = result_of(message, id)?;
    let text = result["content"][0]["text"].as_str();
    if result["isError"] == json!(true) || text != Some(expected) {
        return Err(Failure::Wrong(format!("expected {expected:?}: {message}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_adds_up_and_the_generator_stays_in_range() {
        assert_eq!(MIX.iter().map(|(_, w)| w).sum::<u32>(), 100);
        let mut rng = Rng::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
    }

    #[test]
    fn checks_tool_results() {
        let ok = json!({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"5"}]}});
        assert!(expect_text(&ok, 3, "5").is_ok());
        assert!(expect_text(&ok, 4, "5").is_err());
        assert!(expect_text(&ok, 3, "6").is_err());
        let error = json!({"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"no"}});
        assert!(expect_text(&error, 3, "5").is_err());
    }
}
