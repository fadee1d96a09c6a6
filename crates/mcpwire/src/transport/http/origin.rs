//! DNS-rebinding and cross-site protection: the `Host` and `Origin` headers must name an allowed
//! host (`localhost`, `127.0.0.1` and `[::1]` by default, any port), else `403`.
//!
//! A request without `Origin` (any non-browser client) passes the `Origin` check; a request
//! without `Host` (not HTTP/1.1) passes the `Host` check.

use super::reply;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use axum::response::Response;
use http::header::{HOST, ORIGIN};
use http::{HeaderMap, HeaderValue, StatusCode};

/// Which hosts a request may name.
#[derive(Clone, Debug)]
pub(super) enum HostPolicy {
    /// Only these host names, on any port.
    Only(AllowedHosts),
    /// No check: the deployment checks hosts itself (a reverse proxy, an auth layer).
    Any,
}

/// The host names a request may name, as the check reads them: worked out once, when the
/// policy is made, not per request.
#[derive(Clone, Debug)]
pub(super) struct AllowedHosts {
    /// Every allowed name, lowercase (IPv6 in brackets).
    names: Vec<String>,
    /// The names a `Host` header may match byte for byte ([`is_plain`]).
    plain: Vec<String>,
}

impl Default for HostPolicy {
    fn default() -> Self {
        Self::only(["localhost", "127.0.0.1", "[::1]"])
    }
}

impl HostPolicy {
    /// Only the host `names` (any case; IPv6 in brackets), on any port.
    pub(super) fn only<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        let names: Vec<String> = names
            .into_iter()
            .map(|name| name.into().to_ascii_lowercase())
            .collect();
        let plain = names
            .iter()
            .filter(|name| is_plain(name))
            .cloned()
            .collect();
        Self::Only(AllowedHosts { names, plain })
    }

    /// `Ok` when both headers name allowed hosts; otherwise which header did not. Each is
    /// looked up by name: for a GET or a DELETE, whose headers are not read in one pass
    /// ([`McpHeaders`](super::headers::McpHeaders) reads a POST's, which
    /// [`check_found`](Self::check_found) decides).
    pub(super) fn check(&self, headers: &HeaderMap) -> Result<(), &'static str> {
        self.check_found(headers.get(HOST), headers.get(ORIGIN))
    }

    /// [`check`](Self::check), on the first `Host` and `Origin` values of a request's headers,
    /// already found.
    pub(super) fn check_found(
        &self,
        host: Option<&HeaderValue>,
        origin: Option<&HeaderValue>,
    ) -> Result<(), &'static str> {
        let Self::Only(AllowedHosts { names, plain }) = self else {
            return Ok(());
        };
        // The allowed names are lowercase, as hosts mostly are: equal bytes (one `memcmp`) before
        // a comparison that folds each byte's case.
        let allowed = |host: &str| {
            names
                .iter()
                .any(|a| a.as_bytes() == host.as_bytes() || a.eq_ignore_ascii_case(host))
        };
        if let Some(host) = host
            && !plainly_allowed(plain, host.as_bytes())
        {
            let host = host.to_str().map(host_of_authority).unwrap_or_default();
            if !allowed(host) {
                return Err("Host");
            }
        }
        if let Some(origin) = origin {
            let host = origin.to_str().ok().and_then(host_of_origin);
            if !host.is_some_and(allowed) {
                return Err("Origin");
            }
        }
        Ok(())
    }
}

/// The `403` for a request whose `Host` or `Origin` the endpoint refused (`verdict`, from
/// [`HostPolicy::check`] or [`HostPolicy::check_found`]: which header it refused); `None` when it
/// allowed them.
pub(super) fn refusal(verdict: Result<(), &'static str>) -> Option<Response> {
    let header = verdict.err()?;
    tracing::warn!(header, "request from a host that is not allowed; refused");
    let error = ErrorObject::new(
        code::INVALID_REQUEST,
        format!("Forbidden: {header} not allowed"),
    );
    Some(reply::error(StatusCode::FORBIDDEN, None, &error))
}

/// Whether `authority` (a `Host` header's bytes) is one of the `plain` allowed names as
/// written, alone or followed by `:` and a port: the way every request from an allowed host
/// names it, read without [`host_of_authority`]. When this says no, the full check decides
/// (which folds case, drops user info, and reads the text), and when it says yes, the full
/// check says yes too (the names are plain: visible ASCII, with no `@` and no `:` outside
/// brackets).
fn plainly_allowed(plain: &[String], authority: &[u8]) -> bool {
    plain.iter().any(|name| {
        authority
            .strip_prefix(name.as_bytes())
            .is_some_and(|rest| match rest {
                [] => true,
                [b':', port @ ..] => port.iter().all(u8::is_ascii_digit),
                _ => false,
            })
    })
}

/// Visible ASCII, with no `@`, and no `:` unless bracketed (`[::1]`: one `]`, the last byte);
/// a name that opens a bracket must be bracketed so (the full reading takes a host that starts
/// with `[` up to its first `]`).
fn is_plain(name: &str) -> bool {
    let opens = name.starts_with('[');
    let bracketed = opens && name.find(']') == Some(name.len() - 1);
    (bracketed || !opens)
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'@' && (b != b':' || bracketed))
}

/// `example.com:8080` → `example.com`; `[::1]:80` → `[::1]`.
///
/// Searched byte by byte: an authority is a few bytes long, shorter than what the SIMD searches
/// behind `str::find` pay to start (every request runs this).
fn host_of_authority(authority: &str) -> &str {
    let bytes = authority.as_bytes();
    let start = bytes
        .iter()
        .rposition(|&b| b == b'@')
        .map_or(0, |at| at + 1);
    let (authority, bytes) = (&authority[start..], &bytes[start..]);
    if bytes.first() == Some(&b'[') {
        return bytes
            .iter()
            .position(|&b| b == b']')
            .map_or(authority, |end| &authority[..=end]);
    }
    let end = bytes.iter().position(|&b| b == b':').unwrap_or(bytes.len());
    &authority[..end]
}

/// `https://example.com:8443` → `example.com`; `null` and other non-URLs → `None`.
fn host_of_origin(origin: &str) -> Option<&str> {
    let (scheme, rest) = origin.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let authority = rest.split('/').next().unwrap_or_default();
    Some(host_of_authority(authority)).filter(|host| !host.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: Option<&'static str>, origin: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(HOST, HeaderValue::from_static(host));
        }
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_static(origin));
        }
        headers
    }

    #[test]
    fn local_hosts_pass_on_any_port() {
        let policy = HostPolicy::default();
        assert_eq!(policy.check(&headers(Some("127.0.0.1:9000"), None)), Ok(()));
        assert_eq!(
            policy.check(&headers(Some("[::1]:80"), Some("http://localhost:6274"))),
            Ok(())
        );
        assert_eq!(policy.check(&headers(Some("LOCALHOST"), None)), Ok(()));
        assert_eq!(policy.check(&headers(None, None)), Ok(()));
    }

    #[test]
    fn the_first_of_repeated_headers_decides_among_others() {
        let policy = HostPolicy::default();
        let mut repeated = HeaderMap::new();
        repeated.insert(http::header::ACCEPT, HeaderValue::from_static("*/*"));
        repeated.append(HOST, HeaderValue::from_static("evil.example"));
        repeated.append(HOST, HeaderValue::from_static("localhost"));
        repeated.insert("x-other", HeaderValue::from_static("1"));
        assert_eq!(policy.check(&repeated), Err("Host"));
        let mut origins = headers(Some("localhost:1"), Some("http://localhost:2"));
        origins.append(ORIGIN, HeaderValue::from_static("https://evil.example"));
        assert_eq!(policy.check(&origins), Ok(()));
        origins.insert(ORIGIN, HeaderValue::from_static("https://evil.example"));
        assert_eq!(policy.check(&origins), Err("Origin"));
    }

    /// The names of `policy` that a `Host` may match byte for byte.
    fn plain_of(policy: &HostPolicy) -> &[String] {
        match policy {
            HostPolicy::Only(allowed) => &allowed.plain,
            HostPolicy::Any => &[],
        }
    }

    proptest::proptest! {
        /// The plain reading of `Host` decides only what the full reading decides the same way:
        /// any allowed names (cases, user info, brackets, colons, non-ASCII), any authority.
        #[test]
        fn the_plain_reading_of_a_host_agrees_with_the_full_one(
            names in proptest::collection::vec("[a-cA-C0-9.:@\\[\\]é]{0,6}", 0..4),
            random in "[a-cA-C0-9.:@\\[\\]é ]{0,12}",
            // Most authorities are one of the names with a port, as a client sends them.
            named in proptest::option::of((proptest::arbitrary::any::<proptest::sample::Index>(), "(:[0-9]{0,3})?")),
        ) {
            let authority = match named {
                Some((pick, port)) if !names.is_empty() => format!("{}{port}", pick.get(&names)),
                _ => random,
            };
            let Ok(value) = HeaderValue::from_str(&authority) else {
                return Ok(());
            };
            let full = |names: &[String]| {
                let host = value.to_str().map(host_of_authority).unwrap_or_default();
                names.iter().any(|name| name.eq_ignore_ascii_case(host))
            };
            let policy = HostPolicy::only(names.clone());
            if plainly_allowed(plain_of(&policy), value.as_bytes()) {
                proptest::prop_assert!(full(&names), "{names:?} {authority:?}");
            }
            let mut map = HeaderMap::new();
            map.insert(HOST, value.clone());
            let checked = policy.check(&map).is_ok();
            proptest::prop_assert_eq!(checked, full(&names), "{:?} {:?}", names, authority);
        }
    }

    #[test]
    fn plain_hosts_pass_by_their_bytes_and_the_rest_by_the_full_reading() {
        let policy = HostPolicy::default();
        let names = plain_of(&policy);
        for plain in [
            "localhost",
            "127.0.0.1:8080",
            "[::1]:80",
            "[::1]",
            "localhost:",
        ] {
            assert!(plainly_allowed(names, plain.as_bytes()), "{plain}");
        }
        for other in [
            "LOCALHOST",
            "u@localhost",
            "localhost:8a",
            "localhostx",
            "[::1]]",
        ] {
            assert!(!plainly_allowed(names, other.as_bytes()), "{other}");
        }
        let odd = HostPolicy::only(["a@b", "[a]:b]", "x:y", "["]);
        for authority in ["a@b", "[a]:b]", "x:y", "[:"] {
            assert!(
                !plainly_allowed(plain_of(&odd), authority.as_bytes()),
                "{authority}"
            );
        }
    }

    #[test]
    fn the_host_of_an_authority_drops_user_info_and_port() {
        for (authority, host) in [
            ("example.com:8080", "example.com"),
            ("example.com", "example.com"),
            ("[::1]:80", "[::1]"),
            ("[::1]", "[::1]"),
            ("[::1", "[::1"),
            ("user@localhost:1", "localhost"),
            ("a@b@evil.example", "evil.example"),
            ("evil.example@", ""),
            (":80", ""),
            ("", ""),
        ] {
            assert_eq!(host_of_authority(authority), host, "{authority}");
        }
    }

    #[test]
    fn foreign_hosts_and_origins_fail() {
        let policy = HostPolicy::default();
        assert_eq!(
            policy.check(&headers(Some("evil.example:80"), None)),
            Err("Host")
        );
        let evil = headers(Some("localhost"), Some("https://evil.example"));
        assert_eq!(policy.check(&evil), Err("Origin"));
        assert_eq!(policy.check(&headers(None, Some("null"))), Err("Origin"));
        assert_eq!(
            policy.check(&headers(None, Some("http://localhost.evil.example"))),
            Err("Origin")
        );
        assert_eq!(HostPolicy::Any.check(&evil), Ok(()));
    }
}
