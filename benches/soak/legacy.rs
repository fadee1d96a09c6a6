//! 2025-11-25 scenarios: one session per scenario (`initialize`, `notifications/initialized`),
//! one to three operations, then an ending.
//!
//! Operations:
//! - `legacy.add`: one call.
//! - `legacy.ask`: the question arrives as an `elicitation/create` request on the call's event
//!   stream; the client POSTs its JSON-RPC response (`legacy.answer`, `202`) on its second
//!   connection, and the call's answer follows on the stream.
//! - `legacy.slow_resumed`: `slow` with a progress token; the stream is dropped after the first
//!   progress notification, then resumed with `GET` and `Last-Event-ID`, which must deliver the
//!   answer (a dropped stream does not cancel a session's request; the answer is not lost).
//!
//! Endings: `DELETE` (`legacy.delete`); leaving the session to expire (`session_left`); or
//! vanishing while a question is pending (`legacy.ask_vanished`: both connections are closed
//! once `elicitation/create` arrived; the server's question times out and the session expires).

use crate::client::{Client, expect_text, response_in, tool_call};
use crate::tally::Failure;
use crate::wire::{Conn, Events, Headers, LEGACY, Target, body_of, is_stream};
use hyper::header::HeaderValue;
use serde_json::{Value, json};

/// The operations and their weights (out of 100).
const OPERATIONS: [(Operation, u32); 3] = [
    (Operation::Add, 45),
    (Operation::Ask, 35),
    (Operation::SlowResumed, 20),
];

#[derive(Clone, Copy)]
enum Operation {
    Add,
    Ask,
    SlowResumed,
}

impl Client {
    pub async fn legacy_session(&mut self) {
        let Some(session) = self.initialize().await else {
            return;
        };
        for _ in 0..=self.rng.below(3) {
            let mut pick = self.rng.below(100);
            let operation = OPERATIONS
                .iter()
                .find(|(_, weight)| {
                    pick < *weight || {
                        pick -= weight;
                        false
                    }
                })
                .map_or(Operation::Add, |(o, _)| *o);
            let done = match operation {
                Operation::Add => self.legacy_add(&session).await,
                Operation::Ask => self.legacy_ask(&session).await,
                Operation::SlowResumed => self.legacy_slow_resumed(&session).await,
            };
            if done.is_none() {
                return; // a failure was counted; the session is left behind
            }
        }
        match self.rng.below(100) {
            0..40 => self.delete(&session).await,
            40..80 => {
                self.tally.event("session_left");
                self.tally.left(&session);
            }
            _ => {
                self.ask_and_vanish(&session).await;
                self.tally.left(&session);
            }
        }
    }

    /// `initialize` and `notifications/initialized`; the session id.
    async fn initialize(&mut self) -> Option<HeaderValue> {
        let id = self.id();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "mcpwire-soak", "version": "0.1.0"}}});
        self.tally.sent("legacy.initialize");
        let outcome = self.exchange(Headers::None, body.to_string(), id).await;
        let outcome = outcome.and_then(|(head, message)| {
            let session = head.get("mcp-session-id").cloned();
            match session {
                Some(session) if message["result"]["protocolVersion"] == LEGACY => Ok(session),
                _ => Err(Failure::Wrong(format!("no session: {message}"))),
            }
        });
        let session = self.settle("legacy.initialize", outcome)?;
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        self.tally.sent("legacy.initialized");
        let outcome = self.accepted(&session, note.to_string(), false).await;
        self.settle("legacy.initialized", outcome)?;
        Some(session)
    }

    /// POSTs a message that is not a request (a notification, a response) and expects `202`;
    /// on the second connection when `side`.
    async fn accepted(
        &mut self,
        session: &HeaderValue,
        body: String,
        side: bool,
    ) -> Result<(), Failure> {
        let target = self.target.clone();
        let conn = if side {
            self.side().await?
        } else {
            self.main().await?
        };
        let method = hyper::Method::POST;
        let response = conn
            .send(&target, method, Headers::Session(session), &[], body)
            .await?;
        let status = response.status();
        body_of(response).await?;
        if status != 202 {
            return Err(Failure::Wrong(format!("HTTP {status}, not 202")));
        }
        Ok(())
    }

    async fn legacy_add(&mut self, session: &HeaderValue) -> Option<()> {
        let (a, b) = (
            i64::from(self.rng.below(1000)),
            i64::from(self.rng.below(1000)),
        );
        let id = self.id();
        let body = tool_call(id, "add", json!({"a": a, "b": b}), None);
        self.tally.sent("legacy.add");
        let outcome = self.exchange(Headers::Session(session), body, id).await;
        let outcome = outcome.and_then(|(_, m)| expect_text(&m, id, &(a + b).to_string()));
        self.settle("legacy.add", outcome)
    }

    /// POSTs `ask` and reads its stream up to the question; the stream (still open) and the
    /// question's id.
    async fn question(
        &mut self,
        session: &HeaderValue,
        id: u64,
        word: &str,
    ) -> Result<(Events, Value), Failure> {
        let target = self.target.clone();
        let body = tool_call(id, "ask", json!({"word": word}), None);
        let conn = self.main().await?;
        let method = hyper::Method::POST;
        let response = conn
            .send(&target, method, Headers::Session(session), &[], body)
            .await?;
        if !is_stream(&response) {
            let status = response.status();
            return Err(Failure::Wrong(format!(
                "HTTP {status}: not an event stream"
            )));
        }
        let mut events = Events::new(response);
        let question = events.message().await?;
        match question.get("id") {
            Some(asked) if question["method"] == "elicitation/create" => {
                Ok((events, asked.clone()))
            }
            _ => Err(Failure::Wrong(format!("not a question: {question}"))),
        }
    }

    async fn legacy_ask(&mut self, session: &HeaderValue) -> Option<()> {
        let word = format!("w{}", self.rng.below(1_000_000));
        let id = self.id();
        self.tally.sent("legacy.ask");
        let outcome = self.question(session, id, &word).await;
        let (mut events, asked) = match outcome {
            Ok(asked) => asked,
            Err(failure) => return self.settle("legacy.ask", Err(failure)),
        };
        let said = format!("yes-{}", self.rng.below(1000));
        let response = json!({"jsonrpc": "2.0", "id": asked,
            "result": {"action": "accept", "content": {"answer": said}}});
        self.tally.sent("legacy.answer");
        let posted = self.accepted(session, response.to_string(), true).await;
        if self.settle("legacy.answer", posted).is_none() {
            // The call cannot be answered now: count it as lost with its answer.
            let lost = Failure::Lost("its question's answer was not accepted".into());
            return self.settle("legacy.ask", Err(lost));
        }
        let outcome = response_in(&mut events, id).await;
        if outcome.is_ok() {
            self.finish(events).await;
        }
        let expected = format!("{word}: {said}");
        let outcome = outcome.and_then(|m| expect_text(&m, id, &expected));
        self.settle("legacy.ask", outcome)
    }

    async fn legacy_slow_resumed(&mut self, session: &HeaderValue) -> Option<()> {
        let id = self.id();
        let meta = json!({"progressToken": format!("p-{id}")});
        let body = tool_call(id, "slow", json!({"steps": 6}), Some(meta));
        self.tally.sent("legacy.slow_resumed");
        let outcome = self.first_progress(Headers::Session(session), body).await;
        let last = outcome.and_then(|events| {
            events
                .last_id
                .clone()
                .ok_or_else(|| Failure::Wrong("an event stream without ids".into()))
        });
        // Drop the stream mid-answer (and its connection), then resume it.
        self.vanish();
        let outcome = match last {
            Ok(last) => self.resume(session, &last, id).await,
            Err(failure) => Err(failure),
        };
        self.settle("legacy.slow_resumed", outcome)
    }

    /// `GET` with `Last-Event-ID`: the rest of the stream must carry the answer to `id`.
    async fn resume(&mut self, session: &HeaderValue, last: &str, id: u64) -> Result<(), Failure> {
        let target = self.target.clone();
        let conn = self.main().await?;
        let extra = [("last-event-id", last)];
        let response = conn
            .send(
                &target,
                hyper::Method::GET,
                Headers::Session(session),
                &extra,
                String::new(),
            )
            .await?;
        let status = response.status();
        if status != 200 || !is_stream(&response) {
            let body = body_of(response).await.unwrap_or_default();
            let body = String::from_utf8_lossy(&body);
            return Err(Failure::Lost(format!(
                "resuming answered HTTP {status}: {body}"
            )));
        }
        let mut events = Events::new(response);
        let message = response_in(&mut events, id).await?;
        self.finish(events).await;
        expect_text(&message, id, "slept 6 steps")
    }

    async fn delete(&mut self, session: &HeaderValue) {
        let target = self.target.clone();
        self.tally.sent("legacy.delete");
        let outcome = async {
            let conn = self.main().await?;
            let method = hyper::Method::DELETE;
            let response = conn
                .send(
                    &target,
                    method,
                    Headers::Session(session),
                    &[],
                    String::new(),
                )
                .await?;
            let status = response.status();
            body_of(response).await?;
            match status.as_u16() {
                200 => Ok(()),
                _ => Err(Failure::Wrong(format!("DELETE answered HTTP {status}"))),
            }
        }
        .await;
        self.settle("legacy.delete", outcome);
    }

    /// Asks, waits for the question, and vanishes without answering.
    async fn ask_and_vanish(&mut self, session: &HeaderValue) {
        let id = self.id();
        self.tally.sent("legacy.ask_vanished");
        match self.question(session, id, "gone").await {
            Ok(_) => self.tally.abandoned("legacy.ask_vanished"),
            Err(failure) => self.tally.failed("legacy.ask_vanished", failure),
        }
        self.vanish();
    }
}

/// How many of `sessions` have ended: a request naming one must get `404`. Returns the ended
/// count, or why the probe failed.
pub async fn sessions_ended(target: &Target, sessions: &[HeaderValue]) -> Result<usize, String> {
    let mut conn = Conn::open(target).await?;
    let mut ended = 0;
    for (id, session) in (1u64..).zip(sessions) {
        let body = tool_call(id, "add", json!({"a": 1, "b": 1}), None);
        let response = conn
            .send(
                target,
                hyper::Method::POST,
                Headers::Session(session),
                &[],
                body,
            )
            .await
            .map_err(|failure| format!("probing a session: {failure:?}"))?;
        let status = response.status();
        body_of(response)
            .await
            .map_err(|failure| format!("probing a session: {failure:?}"))?;
        ended += usize::from(status == 404);
    }
    Ok(ended)
}
