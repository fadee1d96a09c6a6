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

/// The connections one backend may have open at once with callers' own tokens.
pub(crate) const MAX_FORWARDED: usize = 64;

/// A backend's connection.
pub(crate) struct Link {
    pub(crate) backend: Backend,
    state: Mutex<State>,
    /// Connections opened so far: a failure is blamed on the connection it happened on only.
    opened: std::sync::atomic::AtomicU64,
    /// Places for connections opened with a caller's own token (`forwardAuthorization`): at
    /// most [`MAX_FORWARDED`] at once; a call beyond them is refused, not queued.
    forwarded: std::sync::Arc<tokio::sync::Semaphore>,
    /// Woken when the connection is found lost.
    pub(crate) lost: std::sync::Arc<Notify>,
}

enum State {
    /// Connected: the client, and which connection it is (counted from 1 by `set_up`).
    Up(Client, u64),
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
            opened: std::sync::atomic::AtomicU64::new(0),
            forwarded: std::sync::Arc::new(tokio::sync::Semaphore::new(MAX_FORWARDED)),
            lost: std::sync::Arc::new(Notify::new()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The client and which connection it is, when up.
    fn client(&self) -> Result<(Client, u64), String> {
        match &*self.state() {
            State::Up(client, opened) => Ok((client.clone(), *opened)),
            State::Down(why) => Err(why.clone()),
        }
    }

    /// The settings the backend declared for the extension `id`, when it is up and did.
    pub(crate) fn declared(&self, id: &str) -> Option<serde_json::Value> {
        match &*self.state() {
            State::Up(client, _) => (client.server().capabilities.extensions)
                .and_then(|mut extensions| extensions.remove(id)),
            State::Down(_) => None,
        }
    }

    pub(crate) fn is_up(&self) -> bool {
        matches!(&*self.state(), State::Up(..))
    }

    /// Records `client` as the connection; which one it is (counted from 1).
    pub(crate) fn set_up(&self, client: Client) -> u64 {
        let opened = self
            .opened
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        *self.state() = State::Up(client, opened);
        opened
    }

    /// Whether connection `opened` is up and still the current one.
    pub(crate) fn is_current(&self, opened: u64) -> bool {
        matches!(&*self.state(), State::Up(_, current) if *current == opened)
    }

    /// Records the connection lost (`why`) and wakes the supervisor.
    pub(crate) fn set_down(&self, why: String) {
        self.set_down_if(why, |_| true);
    }

    /// Records connection `opened` lost, unless another one replaced it already (a request
    /// that failed late on an old connection leaves the new one up).
    fn set_down_from(&self, why: String, opened: u64) {
        self.set_down_if(why, |current| current == opened);
    }

    fn set_down_if(&self, why: String, is_current: impl FnOnce(u64) -> bool) {
        let mut state = self.state();
        if let State::Up(_, current) = &*state
            && !is_current(*current)
        {
            return;
        }
        let previous = std::mem::replace(&mut *state, State::Down(why));
        drop(state);
        if let State::Up(client, _) = previous {
            tokio::spawn(async move { client.close().await });
        }
        self.lost.notify_one();
    }

    /// Opens a connection (with `authorization` as the `Authorization` header on HTTP).
    pub(crate) async fn connect(&self, authorization: Option<&str>) -> Result<Client, ClientError> {
        let builder = Client::builder().info("mcpwire-gateway", env!("CARGO_PKG_VERSION"));
        // A 2025-11-25 backend may ask only what the client declared at `initialize`: the
        // gateway declares every kind its callers may answer. What it cannot tie to a call is
        // answered here (declined, refused, no roots); see `questions.rs`.
        let mut builder = super::questions::unanswerable(builder).era(self.backend.era);
        if let Some(timeout) = self.backend.timeout {
            builder = builder.timeout(timeout);
        }
        for hook in &self.backend.hooks.0 {
            builder = builder.hook(hook.clone());
        }
        match &self.backend.target {
            Target::Stdio(server) => {
                (builder.connect_stdio(server.clone().env_inherit_only(INHERITED_ENV))).await
            }
            Target::Http { url, headers } => {
                let mut options = HttpOptions::new();
                for (name, value) in headers {
                    options = options.header(name, value)?;
                }
                match authorization {
                    Some(token) => options = options.header("Authorization", token)?,
                    None => builder = self.backend.signed_in(builder),
                }
                builder.connect_http_with(url, options).await
            }
        }
    }

    /// Runs `exchange` on the backend's client (with `authorization`, on a connection of the
    /// call's own when the backend forwards callers' tokens); a lost connection is recorded
    /// (and reopened by the supervisor). The caller is told only that the backend is
    /// unavailable or failed: what went wrong (a URL with its credentials, a child's stderr, an
    /// HTTP error body) goes to the log.
    pub(crate) async fn using<T, F, Fut>(
        &self,
        authorization: Option<&str>,
        exchange: F,
    ) -> Result<T, Failure>
    where
        F: FnOnce(Client) -> Fut,
        Fut: std::future::Future<Output = Result<T, ClientError>>,
    {
        let http = matches!(self.backend.target, Target::Http { .. });
        if let Some(token) = authorization.filter(|_| http && self.backend.forward_authorization) {
            // The caller's own token, on a connection of this call's own, within the backend's
            // places; closed when the call ends, or is dropped (the caller left).
            let Ok(_place) = self.forwarded.clone().try_acquire_owned() else {
                tracing::warn!(backend = %self.backend.name, limit = MAX_FORWARDED, "too many calls with callers' tokens at once");
                return Err(Failure::Unavailable(format!(
                    "backend '{}' is busy; try again later",
                    self.backend.name
                )));
            };
            let client = self.connect(Some(token)).await.map_err(|error| {
                tracing::warn!(backend = %self.backend.name, %error, "a backend cannot be reached with the caller's token");
                self.unavailable()
            })?;
            let client = ClosedOnDrop(Some(client));
            let answer = exchange(client.as_ref().clone()).await;
            return answer.map_err(|e| self.failure(e, None));
        }
        let (client, opened) = self.client().map_err(|why| {
            tracing::debug!(backend = %self.backend.name, %why, "a call to a backend that is down");
            self.unavailable()
        })?;
        exchange(client)
            .await
            .map_err(|e| self.failure(e, Some(opened)))
    }

    fn unavailable(&self) -> Failure {
        Failure::Unavailable(format!("backend '{}' is unavailable", self.backend.name))
    }

    /// What the caller is told of `error`; a lost shared connection (`shared`: which one) is
    /// recorded.
    fn failure(&self, error: ClientError, shared: Option<u64>) -> Failure {
        let name = &self.backend.name;
        match error {
            ClientError::Rpc(error) => Failure::Rpc(error),
            ClientError::Closed(_) | ClientError::Transport(_) | ClientError::SessionExpired => {
                tracing::warn!(backend = %name, %error, "a backend is lost");
                if let Some(opened) = shared {
                    self.set_down_from(error.to_string(), opened);
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

/// A connection of one call's own, closed (in the background) when the call ends or is dropped.
struct ClosedOnDrop(Option<Client>);

impl ClosedOnDrop {
    fn as_ref(&self) -> &Client {
        self.0.as_ref().expect("taken only on drop")
    }
}

impl Drop for ClosedOnDrop {
    fn drop(&mut self) {
        if let Some(client) = self.0.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move { client.close().await });
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

    /// A client of an in-memory server.
    async fn memory_client() -> Client {
        let server = crate::McpServer::new("backend");
        Client::builder().connect_memory(server).await.unwrap()
    }

    #[tokio::test]
    async fn a_late_failure_of_an_old_connection_leaves_the_new_one_up() {
        let link = Link::new(Backend::stdio(
            "shop",
            crate::client::StdioServer::new("true"),
        ));
        link.set_up(memory_client().await);
        let (_, first) = link.client().unwrap();
        link.set_up(memory_client().await);
        let (_, second) = link.client().unwrap();
        link.set_down_from("lost".into(), first);
        assert!(
            link.is_up(),
            "a failure on the replaced connection took the new one down"
        );
        link.set_down_from("lost".into(), second);
        assert!(!link.is_up());
    }

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
            .using(None, |client| async move { client.list_tools().await })
            .await
        else {
            panic!("a down backend answered");
        };
        assert_eq!(message, "backend 'shop' is unavailable");
        // The caller's own connection (forwardAuthorization) fails the same way.
        let link = Link::new(backend.forward_authorization(true));
        let Err(Failure::Unavailable(message)) = link
            .using(Some("Bearer t"), |client| async move {
                client.list_tools().await
            })
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
