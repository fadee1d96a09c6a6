//! The gateway's connection to one backend: up (a client) or down (why), opened with the
//! client's `Auto` revision, and reopened after a bounded backoff when it is lost.

use super::backend::{Backend, Target};
use crate::client::{Client, ClientError, HttpOptions};
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::Notify;

/// The first wait before reopening a lost connection; it doubles up to [`MAX_BACKOFF`].
pub(crate) const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// The longest wait between two attempts.
pub(crate) const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// The variables of the gateway's environment a stdio backend's child inherits; the rest
/// (credentials, sealing keys, Redis and OAuth settings) it does not see. Its entry's `env` is
/// set on top.
pub(crate) const INHERITED_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "TERM",
    // Windows: what programs need to start and find their profile.
    "SystemRoot",
    "SystemDrive",
    "windir",
    "ComSpec",
    "PATHEXT",
    "TEMP",
    "TMP",
    "USERPROFILE",
    "APPDATA",
    "LOCALAPPDATA",
    "ProgramFiles",
    "ProgramData",
];

/// A backend's connection.
pub(crate) struct Link {
    pub(crate) backend: Backend,
    state: Mutex<State>,
    /// Woken when the connection is found lost.
    pub(crate) lost: std::sync::Arc<Notify>,
}

enum State {
    Up(Client),
    Down(String),
}

/// Why a request to a backend failed.
pub(crate) enum Failure {
    /// The backend answered with a JSON-RPC error: passed on as is.
    Rpc(crate::protocol::ErrorObject),
    /// The backend is unreachable, or the request failed on the way: a clear message.
    Unavailable(String),
}

impl Link {
    pub(crate) fn new(backend: Backend) -> Self {
        Self {
            backend,
            state: Mutex::new(State::Down("not connected yet".to_owned())),
            lost: std::sync::Arc::new(Notify::new()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The client, when up.
    pub(crate) fn client(&self) -> Result<Client, String> {
        match &*self.state() {
            State::Up(client) => Ok(client.clone()),
            State::Down(why) => Err(why.clone()),
        }
    }

    pub(crate) fn is_up(&self) -> bool {
        matches!(&*self.state(), State::Up(_))
    }

    pub(crate) fn set_up(&self, client: Client) {
        *self.state() = State::Up(client);
    }

    /// Records the connection lost (`why`) and wakes the supervisor.
    pub(crate) fn set_down(&self, why: String) {
        let previous = std::mem::replace(&mut *self.state(), State::Down(why));
        if let State::Up(client) = previous {
            tokio::spawn(async move { client.close().await });
        }
        self.lost.notify_one();
    }

    /// Opens a connection (with `authorization` as the `Authorization` header on HTTP).
    pub(crate) async fn connect(&self, authorization: Option<&str>) -> Result<Client, ClientError> {
        let mut builder = Client::builder().info("mcpwire-gateway", env!("CARGO_PKG_VERSION"));
        if let Some(timeout) = self.backend.timeout {
            builder = builder.timeout(timeout);
        }
        match &self.backend.target {
            Target::Stdio(server) => {
                (builder.connect_stdio(server.clone().env_only(INHERITED_ENV))).await
            }
            Target::Http { url, headers } => {
                let mut options = HttpOptions::new();
                for (name, value) in headers {
                    options = options.header(name, value)?;
                }
                if let Some(token) = authorization {
                    options = options.header("Authorization", token)?;
                }
                builder.connect_http_with(url, options).await
            }
        }
    }

    /// Sends one request; a lost connection is recorded (and reopened by the supervisor).
    /// The caller is told only that the backend is unavailable or failed: what went wrong (a
    /// URL with its credentials, a child's stderr, an HTTP error body) goes to the log.
    pub(crate) async fn request(
        &self,
        method: &str,
        params: serde_json::Value,
        authorization: Option<&str>,
    ) -> Result<serde_json::Value, Failure> {
        let http = matches!(self.backend.target, Target::Http { .. });
        if let Some(token) = authorization.filter(|_| http && self.backend.forward_authorization) {
            // The caller's own token, on a connection of this call's own.
            let client = self.connect(Some(token)).await.map_err(|error| {
                tracing::warn!(backend = %self.backend.name, %error, "a backend cannot be reached with the caller's token");
                self.unavailable()
            })?;
            let answer = client.request(method, params).await;
            client.close().await;
            return answer.map_err(|e| self.failure(e, None));
        }
        let client = self.client().map_err(|why| {
            tracing::debug!(backend = %self.backend.name, %why, "a call to a backend that is down");
            self.unavailable()
        })?;
        client
            .request(method, params)
            .await
            .map_err(|e| self.failure(e, Some(&client)))
    }

    fn unavailable(&self) -> Failure {
        Failure::Unavailable(format!("backend '{}' is unavailable", self.backend.name))
    }

    fn failure(&self, error: ClientError, shared: Option<&Client>) -> Failure {
        let name = &self.backend.name;
        match error {
            ClientError::Rpc(error) => Failure::Rpc(error),
            ClientError::Closed(_) | ClientError::Transport(_) | ClientError::SessionExpired => {
                tracing::warn!(backend = %name, %error, "a backend is lost");
                if shared.is_some() {
                    self.set_down(error.to_string());
                }
                self.unavailable()
            }
            other => {
                tracing::warn!(backend = %name, error = %other, "a request to a backend failed");
                Failure::Unavailable(format!("backend '{name}' failed"))
            }
        }
    }
}

/// The wait after `attempts` failed attempts in a row.
pub(crate) fn backoff(attempts: u32) -> Duration {
    FIRST_BACKOFF
        .saturating_mul(1 << attempts.min(16))
        .min(MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_caller_is_not_told_the_backends_url_or_why_it_is_down() {
        let backend = Backend::http("shop", "http://127.0.0.1:1/mcp?key=s3cr3t-value");
        let link = Link::new(backend.clone());
        let error = link
            .connect(None)
            .await
            .expect_err("nothing listens on port 1");
        link.set_down(error.to_string());
        let Err(Failure::Unavailable(message)) = link
            .request("tools/list", serde_json::json!({}), None)
            .await
        else {
            panic!("a down backend answered");
        };
        assert_eq!(message, "backend 'shop' is unavailable");
        // The caller's own connection (forwardAuthorization) fails the same way.
        let link = Link::new(backend.forward_authorization(true));
        let Err(Failure::Unavailable(message)) = link
            .request("tools/list", serde_json::json!({}), Some("Bearer t"))
            .await
        else {
            panic!("an unreachable backend answered");
        };
        assert!(!message.contains("s3cr3t"), "{message}");
    }

    #[tokio::test]
    async fn a_stdio_child_sees_only_the_inherited_variables_and_its_own() {
        // The test process has variables outside the list (cargo sets CARGO_*).
        let hidden: Vec<String> = (std::env::vars().map(|(k, _)| k))
            .filter(|k| !INHERITED_ENV.contains(&k.as_str()))
            .collect();
        assert!(!hidden.is_empty());
        // A child that writes its environment to stderr and exits: its stderr comes back in
        // the connection error.
        let child = crate::client::StdioServer::new("sh")
            .args(["-c", "env >&2; exit 1"])
            .env("FROM_ENTRY", "1");
        let link = Link::new(Backend::stdio("child", child));
        let error = link
            .connect(None)
            .await
            .expect_err("the child exits")
            .to_string();
        assert!(error.contains("FROM_ENTRY=1"), "{error}");
        for line in error.lines() {
            let key = line.split('=').next().unwrap_or_default();
            assert!(
                !hidden
                    .iter()
                    .any(|h| h == key && !matches!(key, "PWD" | "SHLVL" | "_")),
                "{key} reached the child"
            );
        }
    }

    #[test]
    fn the_backoff_doubles_up_to_its_bound() {
        assert_eq!(backoff(0), FIRST_BACKOFF);
        assert_eq!(backoff(1), FIRST_BACKOFF * 2);
        assert_eq!(backoff(40), MAX_BACKOFF);
    }
}
