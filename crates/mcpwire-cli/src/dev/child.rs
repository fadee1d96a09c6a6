//! A server process of the dev loop: started in a process group of its own, so that stopping
//! it stops what it started too (`cargo run` and its server), and stopped when dropped.

use std::process::Stdio;
use tokio::process::{Child, Command};

/// A running server command; dropping it stops the whole group.
pub struct ServerProcess {
    child: Child,
}

impl ServerProcess {
    /// Starts `command`; stdin and stdout as given, stderr shown (inherited).
    pub fn start(
        command: &[String],
        stdin: Stdio,
        stdout: Stdio,
    ) -> std::io::Result<ServerProcess> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("no server command"))?;
        let mut process = Command::new(program);
        process
            .args(args)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        #[cfg(unix)]
        process.process_group(0);
        Ok(ServerProcess {
            child: process.spawn()?,
        })
    }

    /// The child, for its pipes and its exit.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Stops the process group: SIGTERM, then SIGKILL after a moment.
    pub async fn stop(mut self) {
        self.signal_group(false);
        let exited =
            tokio::time::timeout(std::time::Duration::from_secs(3), self.child.wait()).await;
        if exited.is_err() {
            self.signal_group(true);
            let _ = self.child.wait().await;
        }
    }

    #[cfg(unix)]
    fn signal_group(&self, kill: bool) {
        if let Some(pid) = self.child.id() {
            let signal = if kill { libc::SIGKILL } else { libc::SIGTERM };
            // SAFETY: kill(2) with a negative pid signals that process group; no memory involved.
            unsafe {
                libc::kill(-(pid as libc::pid_t), signal);
            }
        }
    }

    #[cfg(not(unix))]
    fn signal_group(&mut self, _kill: bool) {
        let _ = self.child.start_kill();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        #[cfg(unix)]
        self.signal_group(true);
    }
}
