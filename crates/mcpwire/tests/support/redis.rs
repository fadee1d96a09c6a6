//! A `redis-server` child of a test: no persistence, a unix socket in a fresh directory, killed
//! (by its PID) when dropped; it can be stopped and started again on the same socket.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Redis {
    child: Option<Child>,
    dir: PathBuf,
    socket: PathBuf,
}

impl Redis {
    /// Starts one in a fresh directory.
    pub fn start() -> Self {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).unwrap();
        let dir = std::env::temp_dir().join(format!("mcpwire-redis-{}", u64::from_le_bytes(bytes)));
        std::fs::create_dir_all(&dir).unwrap();
        let socket = dir.join("redis.sock");
        let mut redis = Redis {
            child: None,
            dir,
            socket,
        };
        redis.resume();
        redis
    }

    /// Starts it (again) on its socket, and waits until it answers.
    pub fn resume(&mut self) {
        let program = std::env::var("MCP_REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
        let _ = std::fs::remove_file(&self.socket);
        let child = Command::new(&program)
            .args(["--port", "0", "--unixsocket"])
            .arg(&self.socket)
            .args([
                "--unixsocketperm",
                "700",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("{program} (apt-get install redis-server; scripts/test does): {e}")
            });
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::os::unix::net::UnixStream::connect(&self.socket).is_err() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not open its socket"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn url(&self) -> String {
        format!("unix://{}", self.socket.display())
    }

    /// Kills it (its data goes with it).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What Redis saw, asked on a connection of the test's own: the tests of a fleet count what
/// the shared service holds and ran, not only what the replicas answered.
pub struct Probe {
    connection: redis::aio::MultiplexedConnection,
}

impl Probe {
    pub async fn new(redis: &Redis) -> Self {
        let client = redis::Client::open(redis.url()).unwrap();
        let connection = client.get_multiplexed_async_connection().await.unwrap();
        Self { connection }
    }

    /// The probe's connection, for a command of the test's own.
    pub fn connection(&mut self) -> &mut redis::aio::MultiplexedConnection {
        &mut self.connection
    }

    /// The clients connected (`CLIENT LIST`), this probe included.
    pub async fn clients(&mut self) -> usize {
        let list: String = redis::cmd("CLIENT")
            .arg("LIST")
            .query_async(&mut self.connection)
            .await
            .unwrap();
        list.lines().filter(|line| !line.trim().is_empty()).count()
    }

    /// One number of `INFO section` (`0` when it is not there).
    pub async fn info(&mut self, section: &str, name: &str) -> u64 {
        let text: String = redis::cmd("INFO")
            .arg(section)
            .query_async(&mut self.connection)
            .await
            .unwrap();
        let wanted = format!("{name}:");
        text.lines()
            .find_map(|line| line.strip_prefix(&wanted))
            .map_or(0, |value| value.trim().parse().unwrap())
    }

    /// How many times `command` ran so far (`INFO commandstats`; from scripts included).
    pub async fn calls(&mut self, command: &str) -> u64 {
        let info: String = redis::cmd("INFO")
            .arg("commandstats")
            .query_async(&mut self.connection)
            .await
            .unwrap();
        let wanted = format!("cmdstat_{}:", command.to_lowercase());
        info.lines()
            .find_map(|line| line.strip_prefix(&wanted))
            .and_then(|stats| stats.split(',').find_map(|f| f.strip_prefix("calls=")))
            .and_then(|calls| calls.parse().ok())
            .unwrap_or(0)
    }

    /// Every key matching `pattern` (a full `SCAN`).
    pub async fn keys(&mut self, pattern: &str) -> Vec<String> {
        let mut cursor = 0u64;
        let mut found = Vec::new();
        loop {
            let (next, batch): (u64, Vec<String>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(pattern)
                .arg("COUNT")
                .arg(1000)
                .query_async(&mut self.connection)
                .await
                .unwrap();
            found.extend(batch);
            if next == 0 {
                return found;
            }
            cursor = next;
        }
    }

    /// Every key under `prefix` with its `PTTL` (`-1`: no expiry).
    pub async fn keys_with_ttl(&mut self, prefix: &str) -> Vec<(String, i64)> {
        let mut found = Vec::new();
        for key in self.keys(&format!("{prefix}*")).await {
            let ttl: i64 = redis::cmd("PTTL")
                .arg(&key)
                .query_async(&mut self.connection)
                .await
                .unwrap();
            found.push((key, ttl));
        }
        found
    }

    /// Asserts that every key under `prefix` expires.
    pub async fn all_expire(&mut self, prefix: &str) {
        for (key, ttl) in self.keys_with_ttl(prefix).await {
            assert!(ttl > 0, "{key} has no expiry ({ttl})");
        }
    }

    /// The bytes Redis uses for `keys` (`MEMORY USAGE`).
    pub async fn memory(&mut self, keys: &[String]) -> u64 {
        let mut total = 0;
        for key in keys {
            let used: Option<u64> = redis::cmd("MEMORY")
                .arg("USAGE")
                .arg(key)
                .query_async(&mut self.connection)
                .await
                .unwrap();
            total += used.unwrap_or(0);
        }
        total
    }

    /// Sets Redis's counters (`INFO commandstats`, `INFO stats`) back to zero.
    pub async fn reset_stats(&mut self) {
        let _: () = redis::cmd("CONFIG")
            .arg("RESETSTAT")
            .query_async(&mut self.connection)
            .await
            .unwrap();
    }

    /// Whether `key` exists.
    pub async fn exists(&mut self, key: &str) -> bool {
        redis::cmd("EXISTS")
            .arg(key)
            .query_async(&mut self.connection)
            .await
            .unwrap()
    }
}
