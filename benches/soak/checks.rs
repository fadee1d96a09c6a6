//! The verdict: what must hold after the soak, each check with what it saw.
//!
//! Both readings (after the warm-up, after the soak) are taken the same way: traffic stopped,
//! the quiet period over, one fresh connection asking `soak_stats`. So the alive tasks and
//! open descriptors are compared with a small slack only (2: a connection of an earlier
//! reading still being torn down, a timer of the runtime).
//!
//! RSS may grow by [`RSS_SLACK_PERCENT`] of the warm RSS or [`RSS_SLACK_KIB`], whichever is
//! larger. The allocator keeps freed pages (glibc's per-thread arenas, fragmentation), so a
//! flat server still wanders by a MiB or two between two quiet moments; a leak of one
//! connection, task or session (a few KiB each) per scenario shows after minutes as tens of
//! MiB, far above either bound.

use crate::Reading;
use crate::tally::Tally;
use serde_json::{Value, json};
use std::fmt;

/// The alive tasks and open descriptors allowed above the warm reading.
const SLACK: u64 = 2;
/// RSS growth allowed, in percent of the warm RSS…
const RSS_SLACK_PERCENT: u64 = 25;
/// …or in KiB, whichever is larger.
const RSS_SLACK_KIB: u64 = 4 * 1024;

/// The kinds of request every soak must have played.
const KINDS: [&str; 13] = [
    "modern.add",
    "modern.ask",
    "modern.ask.retry",
    "modern.ask_abandoned",
    "modern.slow_dropped",
    "legacy.initialize",
    "legacy.initialized",
    "legacy.add",
    "legacy.ask",
    "legacy.answer",
    "legacy.ask_vanished",
    "legacy.slow_resumed",
    "legacy.delete",
];

/// What the soak saw.
pub struct Outcome<'a> {
    pub warmup: &'a Tally,
    pub tally: &'a Tally,
    pub warm: &'a Reading,
    pub end: &'a Reading,
    /// Whether the server was still running at the end.
    pub alive: bool,
    /// Of the latest sessions left behind: how many had ended, of how many probed.
    pub left: (usize, usize),
}

pub struct Check {
    pub name: &'static str,
    pub passed: bool,
    pub detail: String,
}

impl Check {
    fn new(name: &'static str, passed: bool, detail: String) -> Self {
        Self {
            name,
            passed,
            detail,
        }
    }

    pub fn to_json(&self) -> Value {
        json!({"name": self.name, "passed": self.passed, "detail": self.detail})
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.passed { "ok" } else { "FAILED" };
        write!(f, "check {}: {verdict} ({})", self.name, self.detail)
    }
}

fn stat(reading: &Reading, key: &str) -> i64 {
    reading.stats[key].as_i64().unwrap_or(-1)
}

/// `end - warm` of a server counter.
fn delta(outcome: &Outcome, key: &str) -> i64 {
    stat(outcome.end, key) - stat(outcome.warm, key)
}

/// At most `SLACK` above the warm value.
fn released(outcome: &Outcome, name: &'static str, key: &str) -> Check {
    let (warm, end) = (stat(outcome.warm, key), stat(outcome.end, key));
    let passed = warm >= 0 && end >= 0 && end <= warm + SLACK as i64;
    Check::new(
        name,
        passed,
        format!("{key}: {warm} after warm-up, {end} at the end"),
    )
}

pub fn run(outcome: &Outcome) -> Vec<Check> {
    let (soak, warmup) = (outcome.tally.total(), outcome.warmup.total());
    let open = outcome.tally.open() + outcome.warmup.open();
    let lost = soak.lost + warmup.lost;
    let wrong = soak.wrong + warmup.wrong;
    let missing: Vec<&str> = KINDS
        .into_iter()
        .filter(|kind| outcome.tally.of(kind).sent == 0)
        .collect();
    let answered = |kind| outcome.tally.of(kind).answered as i64;
    let sent = |kind| outcome.tally.of(kind).sent as i64;
    let counted = [
        ("add_calls", answered("modern.add") + answered("legacy.add")),
        (
            "ask_calls",
            answered("modern.ask.retry") + answered("legacy.ask"),
        ),
        (
            "slow_started",
            sent("modern.slow_dropped") + sent("legacy.slow_resumed"),
        ),
        // The dropped 2026-07-28 calls were cancelled: only resumed ones ran to the end.
        ("slow_finished", answered("legacy.slow_resumed")),
    ];
    let disagree: Vec<String> = counted
        .iter()
        .filter(|(key, expected)| delta(outcome, key) != *expected)
        .map(|(key, expected)| format!("{key}: server {}, clients {expected}", delta(outcome, key)))
        .collect();
    let (warm_rss, end_rss) = (outcome.warm.rss_kib, outcome.end.rss_kib);
    let allowed = (warm_rss * RSS_SLACK_PERCENT / 100).max(RSS_SLACK_KIB);
    vec![
        Check::new(
            "no_request_lost",
            lost == 0 && open == 0,
            format!(
                "{lost} lost, {open} unaccounted, of {} sent",
                soak.sent + warmup.sent
            ),
        ),
        Check::new(
            "no_unexpected_answer",
            wrong == 0,
            format!("{wrong} wrong answers"),
        ),
        Check::new(
            "every_kind_ran",
            missing.is_empty(),
            format!("{} kinds, missing {missing:?}", KINDS.len()),
        ),
        Check::new(
            "server_counted_the_same",
            disagree.is_empty(),
            if disagree.is_empty() {
                format!("{counted:?}")
            } else {
                disagree.join("; ")
            },
        ),
        released(outcome, "tasks_released", "alive_tasks"),
        released(outcome, "descriptors_released", "open_fds"),
        Check::new(
            "slow_bodies_released",
            stat(outcome.end, "slow_running") == 0,
            format!(
                "{} slow bodies alive at the end",
                stat(outcome.end, "slow_running")
            ),
        ),
        Check::new(
            "rss_flat",
            end_rss <= warm_rss + allowed,
            format!(
                "{warm_rss} KiB after warm-up, {end_rss} KiB at the end, {allowed} KiB allowed"
            ),
        ),
        Check::new(
            "left_sessions_ended",
            outcome.left.0 == outcome.left.1 && outcome.left.1 > 0,
            format!(
                "{} of the latest {} sessions left behind answered 404",
                outcome.left.0, outcome.left.1
            ),
        ),
        Check::new(
            "server_alive",
            outcome.alive,
            "still running at the end".into(),
        ),
    ]
}
