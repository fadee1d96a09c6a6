//! The gateway's configuration file: the `mcpServers` object desktop hosts write, so a host's
//! configuration works unchanged, with a few optional keys of the gateway's own.
//!
//! ```json
//! {
//!   "mcpServers": {
//!     "everything": {"command": "npx", "args": ["@modelcontextprotocol/server-everything"]},
//!     "shop": {
//!       "url": "http://127.0.0.1:8000/mcp",
//!       "headers": {"Authorization": "Bearer ${SHOP_TOKEN}"},
//!       "namespace": "books",
//!       "separator": "__",
//!       "denyTools": ["delete_order"],
//!       "timeoutMs": 30000
//!     }
//!   }
//! }
//! ```
//!
//! Each entry is a backend named by its key and namespaced by it. The keys of an entry:
//!
//! | key | meaning |
//! |---|---|
//! | `command`, `args`, `env`, `cwd` | a stdio backend: the program, its arguments, extra environment, working directory |
//! | `url`, `headers` | a Streamable HTTP backend and the headers sent to it |
//! | `type` | `stdio`, `http` or `streamable-http` (optional; told by `command` or `url`) |
//! | `disabled` | `true` leaves the entry out |
//! | `namespace` | the prefix (the key unless set); `""` mounts without one |
//! | `separator` | what joins namespace and name (`_`) |
//! | `allowTools`, `denyTools` | the tools shown (all unless `allowTools`), the tools hidden |
//! | `timeoutMs` | how long a request to the backend may take |
//! | `forwardAuthorization` | `true` sends the caller's `Authorization` on (HTTP only; off unless set) |
//! | `oauth` | `{"clientId", "clientSecret", "issuer"}`: the gateway signs in to the backend with OAuth client credentials of its own, sent only to that issuer (HTTP only; the `auth` feature) |
//!
//! `${NAME}` in `args`, `env`, `url`, `headers` and `oauth` values is replaced by the environment
//! variable `NAME` (credentials stay out of the file). Any other key of an entry, a key of the
//! other kind of entry (`headers` on a stdio entry, `args` on an HTTP one), a value of the wrong
//! type, a URL that is not `http://` or `https://` (https needs a TLS feature of `reqwest` in the
//! application, as `mcpwire-cli` has), a header that is not a valid HTTP header, a `timeoutMs`
//! above an hour, or an unset variable is refused at start-up, naming the key (never the value:
//! it may hold a credential). Keys beside `mcpServers` at the top (a host's other settings) are
//! ignored.

use super::backend::Backend;
use super::error::GatewayError;
use crate::client::StdioServer;
use serde_json::{Map, Value};
use std::time::Duration;

const KEYS: &[&str] = &[
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "type",
    "disabled",
    "namespace",
    "separator",
    "allowTools",
    "denyTools",
    "timeoutMs",
    "forwardAuthorization",
    "oauth",
];

/// Keys only a stdio entry (`command`) has.
const STDIO_KEYS: &[&str] = &["args", "env", "cwd"];
/// Keys only an HTTP entry (`url`) has.
const HTTP_KEYS: &[&str] = &["headers", "forwardAuthorization", "oauth"];

/// The keys of an entry's `oauth` object.
#[cfg(feature = "auth")]
const OAUTH_KEYS: &[&str] = &["clientId", "clientSecret", "issuer"];

/// The longest `timeoutMs`: one hour. A request to a backend holds a place in the gateway
/// until it ends, so how long it may wait is bounded.
const MAX_TIMEOUT_MS: u64 = 60 * 60 * 1000;

/// The backends the configuration `text` describes, in the order of their keys; `lookup` reads environment
/// variables (`std::env::var` in a gateway).
///
/// # Errors
///
/// A [`GatewayError`] naming the key at fault.
///
/// # Examples
///
/// ```
/// use mcpwire::gateway::backends_from_config;
///
/// let text = r#"{"mcpServers": {"shop": {"url": "http://127.0.0.1:8000/mcp", "namespace": ""}}}"#;
/// let backends = backends_from_config(text, |_| None)?;
/// assert_eq!(backends[0].name(), "shop");
/// assert_eq!(backends[0].front_name("search"), "search");
///
/// let bad = r#"{"mcpServers": {"shop": {"url": "http://x/mcp", "timeout": 5}}}"#;
/// let error = backends_from_config(bad, |_| None).unwrap_err();
/// assert!(error.to_string().contains("mcpServers.shop.timeout"));
/// # Ok::<(), mcpwire::gateway::GatewayError>(())
/// ```
pub fn backends_from_config(
    text: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Vec<Backend>, GatewayError> {
    let config: Value = serde_json::from_str(text)
        .map_err(|e| GatewayError(format!("the configuration is not JSON: {e}")))?;
    let servers = config
        .get("mcpServers")
        .and_then(Value::as_object)
        .ok_or_else(|| GatewayError("the configuration has no \"mcpServers\" object".into()))?;
    let mut backends = Vec::new();
    for (name, entry) in servers {
        let entry = Entry {
            path: format!("mcpServers.{name}"),
            fields: entry
                .as_object()
                .ok_or_else(|| GatewayError(format!("mcpServers.{name}: expected an object")))?,
            lookup: &lookup,
        };
        if let Some(backend) = entry.backend(name)? {
            if let Some(twin) = backends
                .iter()
                .find(|b: &&Backend| b.namespace == backend.namespace)
            {
                return Err(entry.refuse(
                    "namespace",
                    &format!(
                        "'{}' is the namespace of mcpServers.{} too; give one of them another",
                        backend.namespace, twin.name
                    ),
                ));
            }
            backends.push(backend);
        }
    }
    Ok(backends)
}

struct Entry<'a, F> {
    path: String,
    fields: &'a Map<String, Value>,
    lookup: &'a F,
}

impl<F: Fn(&str) -> Option<String>> Entry<'_, F> {
    fn backend(&self, name: &str) -> Result<Option<Backend>, GatewayError> {
        if let Some(unknown) = self.fields.keys().find(|key| !KEYS.contains(&key.as_str())) {
            return Err(self.refuse(unknown, "is not a known key"));
        }
        if self.boolean("disabled")? == Some(true) {
            return Ok(None);
        }
        let kind = self.string("type")?;
        let command = self.string("command")?;
        let url = self.string("url")?;
        let mut backend = match (kind.as_deref(), command, url) {
            (Some("sse"), _, _) => {
                return Err(self.refuse("type", "\"sse\" (the 2024 transport) is not supported"));
            }
            (Some(other), _, _) if !matches!(other, "stdio" | "http" | "streamable-http") => {
                return Err(
                    self.refuse("type", "must be \"stdio\", \"http\" or \"streamable-http\"")
                );
            }
            (_, Some(_), Some(_)) => {
                return Err(self.refuse("url", "an entry has either \"command\" or \"url\""));
            }
            (None | Some("stdio"), Some(command), None) => {
                self.refuse_keys(HTTP_KEYS, "is for an HTTP entry (\"url\"), not a stdio one")?;
                let mut server = StdioServer::new(command);
                for arg in self.strings("args")?.unwrap_or_default() {
                    server = server.arg(self.expand("args", &arg)?);
                }
                for (key, value) in self.map("env")? {
                    server = server.env(key, self.expand("env", &value)?);
                }
                if let Some(cwd) = self.string("cwd")? {
                    server = server.current_dir(cwd);
                }
                Backend::stdio(name, server)
            }
            (None | Some("http" | "streamable-http"), None, Some(url)) => {
                self.refuse_keys(
                    STDIO_KEYS,
                    "is for a stdio entry (\"command\"), not an HTTP one",
                )?;
                let url = self.expand("url", &url)?;
                let authority = url
                    .strip_prefix("http://")
                    .or_else(|| url.strip_prefix("https://"))
                    .map(|rest| rest.split(['/', '?', '#']).next().unwrap_or_default());
                if authority.is_none_or(str::is_empty) {
                    return Err(
                        self.refuse("url", "must be an http:// or https:// URL with a host")
                    );
                }
                let mut backend = Backend::http(name, url);
                for (key, value) in self.map("headers")? {
                    let value = self.expand("headers", &value)?;
                    if crate::client::HttpOptions::new()
                        .header(&key, &value)
                        .is_err()
                    {
                        return Err(self.refuse(
                            "headers",
                            &format!("'{key}' is not a valid HTTP header name, or its value is not a valid header value"),
                        ));
                    }
                    backend = backend.header(key, value);
                }
                backend
            }
            _ => {
                return Err(GatewayError(format!(
                    "{}: needs \"command\" or \"url\"",
                    self.path
                )));
            }
        };
        if let Some(namespace) = self.string("namespace")? {
            backend = backend.namespace(namespace);
        }
        if let Some(separator) = self.string("separator")? {
            backend = backend.separator(separator);
        }
        if let Some(allow) = self.strings("allowTools")? {
            backend = backend.allow_tools(allow);
        }
        if let Some(deny) = self.strings("denyTools")? {
            backend = backend.deny_tools(deny);
        }
        if let Some(timeout) = self.fields.get("timeoutMs") {
            let ms = (timeout
                .as_u64()
                .filter(|ms| (1..=MAX_TIMEOUT_MS).contains(ms)))
            .ok_or_else(|| {
                self.refuse(
                    "timeoutMs",
                    &format!("must be a whole number from 1 to {MAX_TIMEOUT_MS} (an hour)"),
                )
            })?;
            backend = backend.timeout(Duration::from_millis(ms));
        }
        if let Some(forward) = self.boolean("forwardAuthorization")? {
            backend = backend.forward_authorization(forward);
        }
        if let Some(oauth) = self.fields.get("oauth") {
            backend = self.oauth(backend, oauth)?;
        }
        if let Some(why) = super::names::check(&backend.namespace, &backend.separator) {
            let key = if why.starts_with("separator") {
                "separator"
            } else {
                "namespace"
            };
            return Err(self.refuse(key, &why));
        }
        Ok(Some(backend))
    }

    /// `backend` signing in with the client credentials of its `oauth` object: `clientId`,
    /// `clientSecret` and `issuer` (the authorization server the secret is for), each a string
    /// in which `${NAME}` is expanded.
    #[cfg(feature = "auth")]
    fn oauth(&self, backend: Backend, oauth: &Value) -> Result<Backend, GatewayError> {
        use crate::client::auth::{ClientRegistration, OAuth};
        let fields = oauth.as_object().ok_or_else(|| {
            self.refuse(
                "oauth",
                "must be an object of clientId, clientSecret and issuer",
            )
        })?;
        if let Some(unknown) = fields
            .keys()
            .find(|key| !OAUTH_KEYS.contains(&key.as_str()))
        {
            return Err(self.refuse(&format!("oauth.{unknown}"), "is not a known key"));
        }
        let mut values = Vec::with_capacity(OAUTH_KEYS.len());
        for key in OAUTH_KEYS {
            let path = format!("oauth.{key}");
            let value = match fields.get(*key) {
                Some(Value::String(text)) => self.expand(&path, text)?,
                Some(_) => return Err(self.refuse(&path, "must be a string")),
                None => return Err(self.refuse(&path, "is missing")),
            };
            values.push(value);
        }
        let [id, secret, issuer] = <[String; 3]>::try_from(values).expect("three keys");
        if !(issuer.starts_with("https://") || issuer.starts_with("http://")) {
            return Err(self.refuse("oauth.issuer", "must be the authorization server's URL"));
        }
        let credentials = ClientRegistration::new(id).secret(secret).issuer(issuer);
        Ok(backend.oauth(OAuth::client_credentials(credentials)))
    }

    /// Without the `auth` feature, an `oauth` object is refused.
    #[cfg(not(feature = "auth"))]
    fn oauth(&self, _: Backend, _: &Value) -> Result<Backend, GatewayError> {
        Err(self.refuse("oauth", "needs mcpwire's `auth` feature"))
    }

    fn refuse(&self, key: &str, why: &str) -> GatewayError {
        GatewayError(format!("{}.{key}: {why}", self.path))
    }

    /// Refuses the first of `keys` the entry has.
    fn refuse_keys(&self, keys: &[&str], why: &str) -> Result<(), GatewayError> {
        match keys.iter().find(|key| self.fields.contains_key(**key)) {
            Some(key) => Err(self.refuse(key, why)),
            None => Ok(()),
        }
    }

    fn string(&self, key: &str) -> Result<Option<String>, GatewayError> {
        match self.fields.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(_) => Err(self.refuse(key, "must be a string")),
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, GatewayError> {
        match self.fields.get(key) {
            None => Ok(None),
            Some(Value::Bool(value)) => Ok(Some(*value)),
            Some(_) => Err(self.refuse(key, "must be true or false")),
        }
    }

    fn strings(&self, key: &str) -> Result<Option<Vec<String>>, GatewayError> {
        let Some(value) = self.fields.get(key) else {
            return Ok(None);
        };
        let items = value.as_array().and_then(|items| {
            items
                .iter()
                .map(|item| item.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        });
        items
            .map(Some)
            .ok_or_else(|| self.refuse(key, "must be an array of strings"))
    }

    fn map(&self, key: &str) -> Result<Vec<(String, String)>, GatewayError> {
        let Some(value) = self.fields.get(key) else {
            return Ok(Vec::new());
        };
        let pairs = value.as_object().and_then(|object| {
            object
                .iter()
                .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                .collect::<Option<Vec<_>>>()
        });
        pairs.ok_or_else(|| self.refuse(key, "must be an object of strings"))
    }

    /// `text` with each `${NAME}` replaced by the variable's value.
    fn expand(&self, key: &str, text: &str) -> Result<String, GatewayError> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let end = after
                .find('}')
                .ok_or_else(|| self.refuse(key, "has a \"${\" without its \"}\""))?;
            let name = &after[..end];
            let value = (self.lookup)(name).ok_or_else(|| {
                self.refuse(
                    key,
                    &format!("names the environment variable {name}, which is not set"),
                )
            })?;
            out.push_str(&value);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        backends_from_config(text, |name| (name == "TOKEN").then(|| "t0k".to_owned()))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_entries_are_refused_naming_the_key() {
        let wrong_type = r#"{"mcpServers": {"a": {"url": "http://x/mcp", "timeoutMs": "5"}}}"#;
        assert!(refused(wrong_type).starts_with("mcpServers.a.timeoutMs:"));
        let bad_ns = r#"{"mcpServers": {"a": {"url": "http://x/mcp", "namespace": "a:b"}}}"#;
        assert!(refused(bad_ns).starts_with("mcpServers.a.namespace:"));
        let unset =
            r#"{"mcpServers": {"a": {"url": "http://x/mcp", "headers": {"X": "${NOPE}"}}}}"#;
        assert!(
            refused(unset).contains("mcpServers.a.headers: names the environment variable NOPE")
        );
        let twins = r#"{"mcpServers": {"a": {"url": "http://x/mcp", "namespace": ""},
                                        "b": {"command": "x", "namespace": ""}}}"#;
        let twins = refused(twins);
        assert!(
            twins.starts_with("mcpServers.b.namespace:") && twins.contains("mcpServers.a "),
            "{twins}"
        );
        let both = r#"{"mcpServers": {"a": {"url": "http://x/mcp", "command": "x"}}}"#;
        assert!(refused(both).starts_with("mcpServers.a.url:"));
    }

    #[test]
    fn keys_of_the_other_kind_of_entry_are_refused() {
        let headers_on_stdio = r#"{"mcpServers": {"a": {"command": "x", "headers": {"K": "v"}}}}"#;
        assert!(
            refused(headers_on_stdio).starts_with("mcpServers.a.headers: is for an HTTP entry")
        );
        let forward_on_stdio =
            r#"{"mcpServers": {"a": {"command": "x", "forwardAuthorization": true}}}"#;
        assert!(refused(forward_on_stdio).starts_with("mcpServers.a.forwardAuthorization:"));
        for key in ["args", "env", "cwd"] {
            let value = match key {
                "args" => r#"["-v"]"#,
                "env" => r#"{"K": "v"}"#,
                _ => r#""/tmp""#,
            };
            let text = format!(
                r#"{{"mcpServers": {{"a": {{"url": "http://x/mcp", "{key}": {value}}}}}}}"#
            );
            let error = refused(&text);
            assert!(
                error.starts_with(&format!("mcpServers.a.{key}: is for a stdio entry")),
                "{error}"
            );
        }
    }

    #[test]
    fn urls_headers_and_timeouts_are_checked_without_showing_values() {
        for url in [
            "ftp://x/mcp",
            "https://",
            "https:///mcp",
            "x/mcp",
            "http:///mcp",
            "http://",
        ] {
            let text = format!(r#"{{"mcpServers": {{"a": {{"url": "{url}"}}}}}}"#);
            assert!(
                refused(&text).starts_with("mcpServers.a.url: must be an http:// or https:// URL"),
                "{url}"
            );
        }
        let secure = r#"{"mcpServers": {"a": {"url": "https://mcp.example.com/mcp"}}}"#;
        assert!(backends_from_config(secure, |_| None).is_ok());
        // A variable's value is checked once expanded, and never shown.
        let secret_url = r#"{"mcpServers": {"a": {"url": "${TOKEN}"}}}"#;
        let error = refused(secret_url);
        assert!(
            error.starts_with("mcpServers.a.url:") && !error.contains("t0k"),
            "{error}"
        );
        let bad_value =
            r#"{"mcpServers": {"a": {"url": "http://x/mcp", "headers": {"X-Key": "${TOKEN}\n"}}}}"#;
        let error = refused(bad_value);
        assert!(
            error.starts_with("mcpServers.a.headers: 'X-Key'"),
            "{error}"
        );
        assert!(!error.contains("t0k"), "{error}");
        let bad_name =
            r#"{"mcpServers": {"a": {"url": "http://x/mcp", "headers": {"X Key": "v"}}}}"#;
        assert!(refused(bad_name).starts_with("mcpServers.a.headers: 'X Key'"));
        let too_long = format!(
            r#"{{"mcpServers": {{"a": {{"url": "http://x/mcp", "timeoutMs": {}}}}}}}"#,
            MAX_TIMEOUT_MS + 1
        );
        assert!(
            refused(&too_long).starts_with("mcpServers.a.timeoutMs: must be a whole number from 1")
        );
        let zero = r#"{"mcpServers": {"a": {"url": "http://x/mcp", "timeoutMs": 0}}}"#;
        assert!(refused(zero).starts_with("mcpServers.a.timeoutMs:"));
        let hour = format!(
            r#"{{"mcpServers": {{"a": {{"url": "http://127.0.0.1:8000/mcp?x=1", "timeoutMs": {MAX_TIMEOUT_MS}}}}}}}"#
        );
        assert_eq!(backends_from_config(&hour, |_| None).unwrap().len(), 1);
    }

    #[test]
    fn a_host_configuration_reads_as_backends() {
        let text = r#"{"globalShortcut": "x", "mcpServers": {
            "files": {"command": "fs", "args": ["--root", "/tmp"], "env": {"K": "${TOKEN}"}},
            "shop": {"type": "http", "url": "http://x/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"},
                     "separator": "__", "denyTools": ["drop"], "forwardAuthorization": true},
            "off": {"command": "x", "disabled": true}
        }}"#;
        let backends = backends_from_config(text, |_| Some("t0k".into())).unwrap();
        assert_eq!(backends.len(), 2);
        assert_eq!(backends[0].front_name("read"), "files_read");
        assert_eq!(backends[1].front_name("read"), "shop__read");
        assert!(!backends[1].shows_tool("drop") && backends[1].shows_tool("read"));
        assert!(backends[1].forward_authorization);
    }

    #[cfg(feature = "auth")]
    #[test]
    fn oauth_client_credentials_are_read_and_checked_without_showing_values() {
        let entry = |oauth: &str| {
            format!(r#"{{"mcpServers": {{"a": {{"url": "http://x/mcp", "oauth": {oauth}}}}}}}"#)
        };
        let good = entry(
            r#"{"clientId": "gw", "clientSecret": "${TOKEN}", "issuer": "https://auth.example"}"#,
        );
        let backends =
            backends_from_config(&good, |name| (name == "TOKEN").then(|| "t0k".into())).unwrap();
        let oauth = format!("{:?}", backends[0].oauth);
        assert!(oauth.contains("client_credentials"), "{oauth}");
        assert!(!oauth.contains("t0k"), "the secret is shown: {oauth}");

        for (oauth, refusal) in [
            (r#""gw:secret""#, "mcpServers.a.oauth: must be an object"),
            (
                r#"{"clientId": "gw", "clientSecret": "s", "issuer": "https://i", "scope": "x"}"#,
                "mcpServers.a.oauth.scope: is not a known key",
            ),
            (
                r#"{"clientId": "gw", "issuer": "https://i"}"#,
                "mcpServers.a.oauth.clientSecret: is missing",
            ),
            (
                r#"{"clientId": "gw", "clientSecret": "${NOPE}", "issuer": "https://i"}"#,
                "mcpServers.a.oauth.clientSecret: names the environment variable NOPE",
            ),
            (
                r#"{"clientId": 7, "clientSecret": "s", "issuer": "https://i"}"#,
                "mcpServers.a.oauth.clientId: must be a string",
            ),
            (
                r#"{"clientId": "gw", "clientSecret": "s3cr3t", "issuer": "auth.example"}"#,
                "mcpServers.a.oauth.issuer: must be the authorization server's URL",
            ),
        ] {
            let message = refused(&entry(oauth));
            assert!(message.starts_with(refusal), "{message}");
            assert!(!message.contains("s3cr3t"), "{message}");
        }
        let on_stdio = r#"{"mcpServers": {"a": {"command": "x", "oauth": {}}}}"#;
        assert!(refused(on_stdio).starts_with("mcpServers.a.oauth: is for an HTTP entry"));
    }
}
