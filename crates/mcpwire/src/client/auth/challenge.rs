//! The `Bearer` challenge of a `WWW-Authenticate` header (RFC 6750 §3, RFC 9728 §5.1).

/// What a `401` or `403` said about the token it wants.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::BearerChallenge;
///
/// let header = r#"Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#;
/// let challenge = BearerChallenge::parse(header).unwrap();
/// assert_eq!(challenge.error.as_deref(), Some("insufficient_scope"));
/// assert_eq!(challenge.scope.as_deref(), Some("files:read files:write"));
/// assert!(challenge.resource_metadata.unwrap().ends_with("/oauth-protected-resource/mcp"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BearerChallenge {
    /// Where the protected-resource metadata is (RFC 9728).
    pub resource_metadata: Option<String>,
    /// The scopes the request needs, space-separated.
    pub scope: Option<String>,
    /// `invalid_token`, `insufficient_scope`, `invalid_request`, …
    pub error: Option<String>,
    /// The server's explanation.
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// The `Bearer` challenge among the header's challenges (the scheme is matched without
    /// regard to case); `None` when there is none. Unknown parameters are ignored; a malformed
    /// header yields what could be read before the fault.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::BearerChallenge;
    ///
    /// let header = r#"DPoP algs="ES256", bearer realm="mcp", scope="a b""#;
    /// assert_eq!(BearerChallenge::parse(header).unwrap().scope.as_deref(), Some("a b"));
    /// assert_eq!(BearerChallenge::parse("Basic realm=\"x\""), None);
    /// ```
    pub fn parse(header: &str) -> Option<BearerChallenge> {
        let mut found = None;
        let mut in_bearer = false;
        for item in Items::new(header) {
            match item {
                Item::Scheme(scheme) => {
                    if in_bearer {
                        break;
                    }
                    in_bearer = scheme.eq_ignore_ascii_case("bearer");
                    if in_bearer {
                        found = Some(BearerChallenge::default());
                    }
                }
                Item::Param(name, value) if in_bearer => {
                    let challenge = found.as_mut()?;
                    let slot = match name.to_ascii_lowercase().as_str() {
                        "resource_metadata" => &mut challenge.resource_metadata,
                        "scope" => &mut challenge.scope,
                        "error" => &mut challenge.error,
                        "error_description" => &mut challenge.error_description,
                        _ => continue,
                    };
                    slot.get_or_insert(value);
                }
                Item::Param(..) => {}
            }
        }
        found
    }

    /// Whether the server asks for more scopes (`error="insufficient_scope"`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::BearerChallenge;
    ///
    /// let challenge = BearerChallenge::parse(r#"Bearer error="insufficient_scope""#).unwrap();
    /// assert!(challenge.insufficient_scope());
    /// ```
    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

enum Item {
    Scheme(String),
    Param(String, String),
}

/// Splits a header into schemes and `name=value` parameters.
struct Items<'a> {
    rest: &'a str,
}

impl<'a> Items<'a> {
    fn new(header: &'a str) -> Self {
        Items { rest: header }
    }
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

impl Iterator for Items<'_> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        self.rest = self.rest.trim_start_matches([' ', '\t', ',']);
        let end = self.rest.find(|c| !is_tchar(c)).unwrap_or(self.rest.len());
        if end == 0 {
            return None;
        }
        let token = self.rest[..end].to_owned();
        let after = self.rest[end..].trim_start_matches([' ', '\t']);
        let Some(value) = after.strip_prefix('=') else {
            self.rest = after;
            return Some(Item::Scheme(token));
        };
        let value = value.trim_start_matches([' ', '\t']);
        if let Some(quoted) = value.strip_prefix('"') {
            let mut text = String::new();
            let mut chars = quoted.char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => {
                        self.rest = &quoted[i + 1..];
                        return Some(Item::Param(token, text));
                    }
                    '\\' => text.extend(chars.next().map(|(_, c)| c)),
                    c => text.push(c),
                }
            }
            // An unterminated quoted string: nothing more can be trusted.
            self.rest = "";
            return None;
        }
        let end = value.find([',', ' ', '\t']).unwrap_or(value.len());
        self.rest = &value[end..];
        Some(Item::Param(token, value[..end].to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::BearerChallenge;

    #[test]
    fn reads_every_parameter_of_the_conformance_challenge() {
        let header = r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://localhost:1234/.well-known/oauth-protected-resource/mcp""#;
        let challenge = BearerChallenge::parse(header).unwrap();
        assert_eq!(challenge.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            challenge.error_description.as_deref(),
            Some("Missing Authorization header")
        );
        assert_eq!(
            challenge.resource_metadata.as_deref(),
            Some("http://localhost:1234/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(challenge.scope, None);
    }

    #[test]
    fn takes_the_bearer_challenge_among_others_and_stops_at_the_next() {
        let header = r#"Basic realm="a", Bearer scope="x", DPoP scope="y""#;
        assert_eq!(
            BearerChallenge::parse(header).unwrap().scope.as_deref(),
            Some("x")
        );
    }

    #[test]
    fn unquoted_values_escapes_and_case() {
        let header = r#"bearer Error=insufficient_scope, scope="a \"b\"""#;
        let challenge = BearerChallenge::parse(header).unwrap();
        assert!(challenge.insufficient_scope());
        assert_eq!(challenge.scope.as_deref(), Some(r#"a "b""#));
    }

    #[test]
    fn a_bare_scheme_and_garbage_do_not_panic() {
        assert_eq!(
            BearerChallenge::parse("Bearer"),
            Some(BearerChallenge::default())
        );
        assert_eq!(BearerChallenge::parse(""), None);
        let cut = BearerChallenge::parse(r#"Bearer scope="unterminated"#).unwrap();
        assert_eq!(cut.scope, None);
        for header in ["=", "Bearer ==,,", "Bearer \u{e9}=x", "\"", "Bearer a=\"\\"] {
            let _ = BearerChallenge::parse(header);
        }
    }
}
