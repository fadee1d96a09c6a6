//! The stdio transport: the server is a child process (spawned without a shell) speaking one
//! JSON-RPC message per line on its stdin and stdout. Its stderr is drained and its last
//! kilobytes kept (shown when it dies), or passed through. The child is killed when the client
//! is dropped.

use super::first_output::{FirstOutput, Noticing};
use super::streams::Lines;
use super::{BoxFuture, Inbox, Outgoing, Sent, Transport};
use crate::client::error::ClientError;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Stdio as Pipe;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};

/// How much of the child's stderr is kept.
const STDERR_TAIL: usize = 8 * 1024;

/// How to start a stdio server: a program, its arguments, environment and directory.
///
/// # Examples
///
/// ```
/// use mcpwire::client::StdioServer;
///
/// let server = StdioServer::new("uvx")
///     .args(["my-mcp-server", "--verbose"])
///     .env("LOG_LEVEL", "debug")
///     .inherit_stderr();
/// # drop(server);
/// ```
#[derive(Clone, Debug)]
pub struct StdioServer {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    cwd: Option<PathBuf>,
    stderr: Stderr,
    env_clear: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stderr {
    Capture,
    Inherit,
}

impl StdioServer {
    /// Runs `program` (found on `PATH`, no shell involved).
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("/usr/local/bin/my-server");
    /// # drop(server);
    /// ```
    pub fn new(program: impl Into<OsString>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
            stderr: Stderr::Capture,
            env_clear: false,
        }
    }

    /// Adds one argument.
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("server").arg("--stdio");
    /// # drop(server);
    /// ```
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("server").args(["-v", "--stdio"]);
    /// # drop(server);
    /// ```
    pub fn args<I, A>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable for the child (the rest is inherited, unless
    /// [`env_clear`](StdioServer::env_clear)).
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("server").env("RUST_LOG", "debug");
    /// # drop(server);
    /// ```
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Starts the child with an empty environment: it sees only the variables set with
    /// [`env`](StdioServer::env), none of this process's (credentials included).
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("server")
    ///     .env_clear()
    ///     .env("PATH", "/usr/bin:/bin");
    /// # drop(server);
    /// ```
    pub fn env_clear(mut self) -> Self {
        self.env_clear = true;
        self
    }

    /// Starts the child with only this process's values of `keys` (those that are set) and the
    /// variables set with [`env`](StdioServer::env), which win over them: what a server you
    /// start but do not trust with your credentials should see. The gateway starts its stdio
    /// backends this way.
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("npx")
    ///     .args(["-y", "@modelcontextprotocol/server-everything"])
    ///     .env_inherit_only(&["PATH", "HOME"])
    ///     .env("NODE_ENV", "production");
    /// # drop(server);
    /// ```
    pub fn env_inherit_only(mut self, keys: &[&str]) -> Self {
        let kept =
            (keys.iter()).filter_map(|key| Some((OsString::from(key), std::env::var_os(key)?)));
        self.env = kept.chain(self.env).collect();
        self.env_clear()
    }

    /// Runs the child in `dir`.
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("server").current_dir("/tmp");
    /// # drop(server);
    /// ```
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    /// Passes the child's stderr through to this process's stderr, instead of capturing its
    /// tail (the default, shown in [`ClientError::Closed`] when the child dies).
    ///
    /// # Examples
    ///
    /// ```
    /// let server = mcpwire::client::StdioServer::new("server").inherit_stderr();
    /// # drop(server);
    /// ```
    pub fn inherit_stderr(mut self) -> Self {
        self.stderr = Stderr::Inherit;
        self
    }

    fn spawn(&self, stderr: Stderr) -> Result<Child, ClientError> {
        let mut command = Command::new(&self.program);
        if self.env_clear {
            command.env_clear();
        }
        command
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Pipe::piped())
            .stdout(Pipe::piped())
            .kill_on_drop(true);
        command.stderr(match stderr {
            Stderr::Capture => Pipe::piped(),
            Stderr::Inherit => Pipe::inherit(),
        });
        if let Some(dir) = &self.cwd {
            command.current_dir(dir);
        }
        command
            .spawn()
            .map_err(|e| ClientError::Transport(format!("cannot start {:?}: {e}", self.program)))
    }
}

/// How long `Client::close` waits for the child to exit after closing its stdin.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// A child process speaking on its stdin and stdout.
pub(crate) struct Stdio {
    lines: Lines,
    child: tokio::sync::Mutex<Child>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    output: FirstOutput,
}

impl Transport for Stdio {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Sent, ClientError>> {
        let sent = self.lines.send(message.body);
        Box::pin(async move {
            match sent {
                true => Ok(Sent::Nothing),
                false => Err(ClientError::Closed(self.closed_detail())),
            }
        })
    }

    fn probe_clock(&self, limit: Duration) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.output.wait().await;
            tokio::time::sleep(limit).await;
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        self.lines.close();
        Box::pin(async move {
            let mut child = self.child.lock().await;
            if tokio::time::timeout(EXIT_GRACE, child.wait())
                .await
                .is_err()
            {
                let _ = child.kill().await;
            }
        })
    }

    fn closed_detail(&self) -> Option<String> {
        let tail = self.stderr.lock().expect("stderr lock");
        let (a, b) = tail.as_slices();
        let text = String::from_utf8_lossy(&[a, b].concat()).trim().to_owned();
        (!text.is_empty()).then(|| format!("the server's stderr ends with:\n{text}"))
    }
}

/// Starts the child, its reader and writer, and its stderr drain.
pub(crate) fn start(server: &StdioServer) -> Result<(Stdio, Inbox), ClientError> {
    let mut child = server.spawn(server.stderr)?;
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let output = FirstOutput::new();
    let (lines, incoming) = Lines::start(Noticing::new(stdout, output.clone()), stdin);
    let stderr = Arc::new(Mutex::new(VecDeque::new()));
    if let Some(pipe) = child.stderr.take() {
        let tail = stderr.clone();
        let mut pipe = Noticing::new(pipe, output.clone());
        tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = pipe.read(&mut buf).await {
                let mut tail = tail.lock().expect("stderr lock");
                tail.extend(&buf[..n]);
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
        });
    }
    let stdio = Stdio {
        lines,
        child: tokio::sync::Mutex::new(child),
        stderr,
        output,
    };
    Ok((stdio, incoming))
}
