//! A server process of the dev loop: started in a process group of its own, so that stopping
//! it stops what it started too (a wrapper script and its server), and stopped when dropped.
//! A server that reads the terminal stays in the terminal's group (a background group reading
//! it would be stopped by the terminal); stopping it then stops only the process itself.

use std::process::Stdio;
use tokio::process::{Child, Command};

/// A running server command; dropping it stops the whole group.
pub struct ServerProcess {
    child: Child,
    own_group: bool,
}

impl ServerProcess {
    /// Starts `command`; stdin and stdout as given, stderr shown (inherited); in a process
    /// group of its own when `own_group`.
    pub fn start(
        command: &[String],
        stdin: Stdio,
        stdout: Stdio,
        own_group: bool,
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
        if own_group {
            process.process_group(0);
        }
        Ok(ServerProcess {
            child: process.spawn()?,
            own_group,
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
    fn signal_group(&mut self, kill: bool) {
        let Some(pid) = self.child.id() else { return };
        let signal = if kill { libc::SIGKILL } else { libc::SIGTERM };
        // A negative pid names the process group the child leads.
        let target = if self.own_group {
            -(pid as libc::pid_t)
        } else {
            pid as libc::pid_t
        };
        // SAFETY: kill(2) only sends a signal; no memory is shared with it.
        unsafe {
            libc::kill(target, signal);
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
