//! What a 2026-07-28 request carries from round to round: the answers already given (each
//! pinned to the exact question it answers) and the questions asked last round.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// An answer recorded in the state: the client's answer as sent, and the digest of the question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Recorded {
    /// The answer, as the client sent it.
    pub(crate) d: Value,
    /// The digest of the question it answered.
    pub(crate) q: String,
}

/// The plaintext inside `requestState`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct RoundState {
    /// Answered questions, by resolver key.
    #[serde(default)]
    pub(crate) answered: BTreeMap<String, Recorded>,
    /// The digests of the questions asked last round, by resolver key.
    #[serde(default)]
    pub(crate) asked: BTreeMap<String, String>,
    /// What a handler of the crate's own that asks its questions itself carries to the next
    /// round, sealed with the rest (the gateway: which backend asked, and that backend's own
    /// `requestState`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) carried: Option<Box<Value>>,
}

impl RoundState {
    /// Reads the state; anything unreadable (an older format in a rolling upgrade) reads as "no
    /// progress", never as an error: the string was already authenticated.
    pub(crate) fn parse(text: &str) -> Self {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).expect("round state serializes")
    }
}

/// What the engine reads on this round: nothing on a call's first round without answers (most
/// calls), which is then made and dropped without building the maps a later round fills.
#[derive(Debug, Default)]
pub struct RoundInputs(Option<Box<Round>>);

/// A round's inputs, when it has any.
#[derive(Debug, Default)]
pub(crate) struct Round {
    pub(crate) state: RoundState,
    pub(crate) responses: Map<String, Value>,
    /// The call this round continues, when it came with a `requestState`.
    pub(crate) call: Option<CallToken>,
}

impl RoundInputs {
    /// A round with these inputs.
    pub(crate) fn new(
        state: RoundState,
        responses: Map<String, Value>,
        call: Option<CallToken>,
    ) -> Self {
        let empty = call.is_none()
            && responses.is_empty()
            && state.answered.is_empty()
            && state.asked.is_empty()
            && state.carried.is_none();
        if empty {
            return Self(None);
        }
        Self(Some(Box::new(Round {
            state,
            responses,
            call,
        })))
    }

    /// The round's inputs (none on a first round without answers).
    pub(crate) fn get(&self) -> &Round {
        static NONE: std::sync::LazyLock<Round> = std::sync::LazyLock::new(Round::default);
        self.0.as_deref().unwrap_or_else(|| &NONE)
    }
}

/// The identity of a multi-round call, read from its verified `requestState`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CallToken {
    /// The same in every round of the call.
    pub(crate) id: String,
    /// When the state this round came with expires (ms since the epoch).
    pub(crate) expires_at_ms: u64,
}

/// The questions a round could not answer, and the state for the retry.
#[derive(Debug)]
pub struct InputRequired {
    /// `inputRequests`, by resolver key.
    pub(crate) requests: Map<String, Value>,
    /// The plaintext state, sealed by the dispatcher.
    pub(crate) state: RoundState,
    /// The call's id, when this round continued one (the next state carries it on).
    pub(crate) call_id: Option<String>,
}

/// The next round's state, built while this round runs.
#[derive(Default)]
pub(crate) struct NextRound {
    pub(crate) state: RoundState,
    pub(crate) requests: Map<String, Value>,
}
