//! The server under soak: started from its binary on `127.0.0.1:0`, found by the URL it prints,
//! watched through `/proc/PID/status` and its own `soak_stats` tool, killed at the end.

use crate::client::{result_of, tool_call};
use crate::tally::Failure;
use crate::wire::{Conn, Headers, MODERN, Target, body_of};
use serde_json::{Value, json};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The last lines the server wrote on stderr, for the report when something fails.
const KEPT_LINES: usize = 20;

pub struct Server {
    child: Child,
    pub pid: u32,
    pub url: String,
    /// The server's last lines on stderr (after its URL).
    pub stderr: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts `binary --http 127.0.0.1:0` and waits (up to `timeout`) for its URL.
    pub async fn start(binary: &str, timeout: Duration) -> Result<Self, String> {
        let mut child = Command::new(binary)
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("starting {binary}: {e}"))?;
        let pid = child.id().ok_or("the server exited at once")?;
        let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
        let url = tokio::time::timeout(timeout, async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(url) = line.strip_prefix("MCP server listening on ") {
                    return Some(url.trim().to_owned());
                }
            }
            None
        })
        .await
        .map_err(|_| format!("no URL from the server within {timeout:?}"))?
        .ok_or("the server closed stderr without printing its URL")?;
        // Keep reading stderr, so the server never blocks on a full pipe.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = stderr.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == KEPT_LINES {
                    kept.remove(0);
                }
                kept.push(line);
            }
        });
        Ok(Self {
            child,
            pid,
            url,
            stderr,
        })
    }

    /// The server's resident memory in KiB (`VmRSS`); `None` once it is gone.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// CPU time (user + system) of every thread of the server, in ns, from the scheduler's
    /// accounting (`/proc/PID/task/*/schedstat`).
    pub fn cpu_ns(&self) -> Option<u64> {
        cpu_ns(&self.pid.to_string())
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the server and reaps it.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// CPU time of every thread of process `pid` (`self` for this one), in ns.
pub fn cpu_ns(pid: &str) -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        // A thread that ended since the listing no longer counts.
        let Ok(stat) = std::fs::read_to_string(task.ok()?.path().join("schedstat")) else {
            continue;
        };
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// The server's `soak_stats`, over a connection of its own (closed afterwards).
pub async fn stats(target: &Target) -> Result<Value, String> {
    let mut conn = Conn::open(target).await?;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let body = tool_call(1, "soak_stats", json!({}), Some(meta));
    let headers = Headers::Modern {
        method: "tools/call",
        name: "soak_stats",
    };
    let describe = |failure: Failure| format!("soak_stats: {failure:?}");
    let response = conn
        .send(target, hyper::Method::POST, headers, &[], body)
        .await
        .map_err(describe)?;
    let bytes = body_of(response).await.map_err(describe)?;
    let message: Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("soak_stats: not JSON: {e}"))?;
    let result = result_of(&message, 1).map_err(describe)?;
    Ok(result["structuredContent"].clone())
}
