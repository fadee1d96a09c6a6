//! The human-readable part of the report (stderr): requests by kind, RSS over time, the
//! server's view before and after.

use crate::tally::Tally;
use crate::{Reading, Samples};
use std::fmt::Write;

/// A table of the soak's requests by kind, the RSS samples (about ten of them) and the
/// readings.
pub fn human(tally: &Tally, samples: &Samples, warm: &Reading, end: &Reading) -> String {
    let mut out = String::new();
    let report = tally.report();
    let _ = writeln!(
        out,
        "{:<22} {:>9} {:>9} {:>9} {:>6} {:>6}",
        "request", "sent", "answered", "abandoned", "wrong", "lost"
    );
    if let Some(kinds) = report["requests"].as_object() {
        for (kind, c) in kinds {
            let n = |key: &str| c[key].as_u64().unwrap_or(0);
            let _ = writeln!(
                out,
                "{kind:<22} {:>9} {:>9} {:>9} {:>6} {:>6}",
                n("sent"),
                n("answered"),
                n("abandoned"),
                n("wrong"),
                n("lost")
            );
        }
    }
    let step = samples.len().div_ceil(10).max(1);
    let shown: Vec<String> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i == samples.len() - 1)
        .map(|(_, (t, kib))| format!("{t} s {:.1}", *kib as f64 / 1024.0))
        .collect();
    let _ = writeln!(out, "RSS MiB during the soak: {}", shown.join(", "));
    let view = |r: &Reading, key: &str| r.stats[key].clone();
    let _ = writeln!(
        out,
        "after warm-up: RSS {:.1} MiB, {} alive tasks, {} open fds; at the end: RSS {:.1} MiB, {} alive tasks, {} open fds",
        warm.rss_kib as f64 / 1024.0,
        view(warm, "alive_tasks"),
        view(warm, "open_fds"),
        end.rss_kib as f64 / 1024.0,
        view(end, "alive_tasks"),
        view(end, "open_fds"),
    );
    for line in report["failures"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "failure: {}", line.as_str().unwrap_or_default());
    }
    out
}
