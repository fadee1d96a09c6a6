//! Where tokens and client registrations are kept: a [`TokenStore`], in memory or in a file.

use super::error::AuthError;
use super::registration::ClientRegistration;
use super::tokens::Tokens;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Everything the client keeps between runs: client registrations by issuer, tokens by server
/// URL.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{ClientRegistration, Credentials};
///
/// let mut credentials = Credentials::default();
/// credentials.clients.insert("https://auth.example.com".into(), ClientRegistration::new("id"));
/// assert!(credentials.tokens.get("https://mcp.example.com/mcp").is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Credentials {
    /// Client registrations, by authorization-server issuer (never used at another issuer).
    #[serde(default)]
    pub clients: BTreeMap<String, ClientRegistration>,
    /// Tokens, by the MCP server's URL.
    #[serde(default)]
    pub tokens: BTreeMap<String, Tokens>,
}

/// Keeps [`Credentials`]. Calls are short and synchronous (a file, a keyring); the client calls
/// `load` before it needs a token and `save` after it got one.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{AuthError, Credentials, TokenStore};
/// use std::sync::Mutex;
///
/// /// Keeps nothing between runs.
/// #[derive(Default)]
/// struct Forgetful(Mutex<Credentials>);
///
/// impl TokenStore for Forgetful {
///     fn load(&self) -> Result<Credentials, AuthError> {
///         Ok(self.0.lock().unwrap().clone())
///     }
///     fn save(&self, credentials: &Credentials) -> Result<(), AuthError> {
///         *self.0.lock().unwrap() = credentials.clone();
///         Ok(())
///     }
/// }
/// # let _ = mcpwire::client::auth::OAuth::new(mcpwire::client::auth::HeadlessAuthorizer::new("http://localhost/cb")).store(Forgetful::default());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a TokenStore",
    note = "implement `load` and `save`, or use `MemoryStore` or `FileStore`"
)]
pub trait TokenStore: Send + Sync + 'static {
    /// What is stored (empty when nothing is).
    ///
    /// # Errors
    ///
    /// When the storage cannot be read.
    fn load(&self) -> Result<Credentials, AuthError>;

    /// Replaces what is stored.
    ///
    /// # Errors
    ///
    /// When the storage cannot be written.
    fn save(&self, credentials: &Credentials) -> Result<(), AuthError>;
}

/// Credentials kept in memory only (the default).
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{Credentials, MemoryStore, TokenStore};
///
/// let store = MemoryStore::default();
/// store.save(&Credentials::default())?;
/// assert!(store.load()?.tokens.is_empty());
/// # Ok::<(), mcpwire::client::auth::AuthError>(())
/// ```
#[derive(Debug, Default)]
pub struct MemoryStore(Mutex<Credentials>);

impl TokenStore for MemoryStore {
    fn load(&self) -> Result<Credentials, AuthError> {
        Ok(self.0.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }

    fn save(&self, credentials: &Credentials) -> Result<(), AuthError> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = credentials.clone();
        Ok(())
    }
}

/// Credentials in a JSON file, readable by its owner only (mode 0600 on Unix), replaced
/// atomically (written to a temporary file next to it, then renamed).
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{Credentials, FileStore, TokenStore};
///
/// let path = std::env::temp_dir().join(format!("mcpwire-doc-{}.json", std::process::id()));
/// let store = FileStore::new(&path);
/// assert!(store.load()?.clients.is_empty()); // no file yet
/// store.save(&Credentials::default())?;
/// assert!(path.exists());
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), mcpwire::client::auth::AuthError>(())
/// ```
#[derive(Debug)]
pub struct FileStore {
    path: PathBuf,
}

/// The largest credentials file read.
const MAX_FILE: u64 = 1024 * 1024;

impl FileStore {
    /// A store in the file at `path` (created, with its directory, on the first save).
    ///
    /// # Examples
    ///
    /// ```
    /// let store = mcpwire::client::auth::FileStore::new("/tmp/mcpwire-credentials.json");
    /// # drop(store);
    /// ```
    pub fn new(path: impl AsRef<Path>) -> Self {
        FileStore {
            path: path.as_ref().to_owned(),
        }
    }

    fn error(&self, doing: &str, error: impl std::fmt::Display) -> AuthError {
        AuthError::Storage(format!("{doing} {}: {error}", self.path.display()))
    }
}

impl TokenStore for FileStore {
    fn load(&self) -> Result<Credentials, AuthError> {
        use std::io::Read;
        let file = match std::fs::File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Credentials::default());
            }
            Err(e) => return Err(self.error("cannot open", e)),
        };
        let mut text = String::new();
        file.take(MAX_FILE + 1)
            .read_to_string(&mut text)
            .map_err(|e| self.error("cannot read", e))?;
        if text.len() as u64 > MAX_FILE {
            return Err(self.error("too large:", format!("over {MAX_FILE} bytes")));
        }
        serde_json::from_str(&text).map_err(|e| self.error("cannot parse", e))
    }

    fn save(&self, credentials: &Credentials) -> Result<(), AuthError> {
        use std::io::Write;
        let directory = match self.path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&directory)
            .map_err(|e| self.error("cannot create the directory of", e))?;
        let name = self
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("credentials");
        let suffix =
            super::pkce::random_token().map_err(|e| self.error("cannot name a file for", e))?;
        let temporary = directory.join(format!(".{name}.{}.tmp", &suffix[..12]));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = (|| {
            let mut file = options.open(&temporary)?;
            file.write_all(&serde_json::to_vec_pretty(credentials)?)?;
            file.sync_all()?;
            std::fs::rename(&temporary, &self.path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(self.error("cannot write", e));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let suffix = super::super::pkce::random_token().unwrap();
        std::env::temp_dir()
            .join(format!("mcpwire-store-{}", &suffix[..10]))
            .join(name)
    }

    #[test]
    fn a_file_store_round_trips_and_is_private() {
        let path = scratch("credentials.json");
        let store = FileStore::new(&path);
        let mut credentials = Credentials::default();
        credentials.clients.insert(
            "https://as".into(),
            ClientRegistration::new("id").secret("s"),
        );
        store.save(&credentials).unwrap();
        store.save(&credentials).unwrap();
        assert_eq!(store.load().unwrap(), credentials);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Nothing but the file is left in the directory.
        let entries = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(entries, 1);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_an_error_not_a_panic() {
        let path = scratch("broken.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{not json").unwrap();
        let error = FileStore::new(&path).load().unwrap_err();
        assert!(matches!(error, AuthError::Storage(_)), "{error}");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
