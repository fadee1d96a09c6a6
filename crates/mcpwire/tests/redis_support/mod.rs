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
