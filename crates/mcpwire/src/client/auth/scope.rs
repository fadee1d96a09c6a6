//! Which scopes to ask for (the MCP specification's scope selection strategy).

/// The `scope` of an authorization request: the challenge's `scope`, else every scope of the
/// protected-resource metadata's `scopes_supported`, else none (the parameter is omitted). On a
/// step-up (`previous` holds what was asked for or granted before) the result is the union with
/// the earlier scopes. `offline_access` is added only when the authorization server lists it.
/// Order is kept, duplicates are dropped.
pub(crate) fn choose_scope(
    challenge: Option<&str>,
    resource_supported: Option<&[String]>,
    server_supported: Option<&[String]>,
    previous: Option<&str>,
) -> Option<String> {
    let challenged = challenge.filter(|s| !s.trim().is_empty());
    let base: Vec<&str> = match (challenged, resource_supported) {
        (Some(scope), _) => scope.split_ascii_whitespace().collect(),
        (None, Some(supported)) => supported.iter().map(String::as_str).collect(),
        (None, None) => Vec::new(),
    };
    let mut scopes: Vec<&str> = Vec::new();
    let earlier = previous.into_iter().flat_map(str::split_ascii_whitespace);
    for scope in earlier.chain(base) {
        if !scope.is_empty() && !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    let offline = "offline_access";
    if server_supported.is_some_and(|s| s.iter().any(|s| s == offline))
        && !scopes.contains(&offline)
    {
        scopes.push(offline);
    }
    (!scopes.is_empty()).then(|| scopes.join(" "))
}

#[cfg(test)]
mod tests {
    use super::choose_scope;

    fn strings(scopes: &[&str]) -> Vec<String> {
        scopes.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_challenge_wins_over_scopes_supported() {
        let decoy = strings(&["mcp:profile"]);
        assert_eq!(
            choose_scope(Some("mcp:basic"), Some(&decoy), None, None).as_deref(),
            Some("mcp:basic")
        );
    }

    #[test]
    fn an_empty_challenge_scope_counts_as_none() {
        let supported = strings(&["a"]);
        assert_eq!(
            choose_scope(Some("  "), Some(&supported), None, None).as_deref(),
            Some("a")
        );
        assert_eq!(choose_scope(Some(""), None, None, None), None);
    }

    #[test]
    fn offline_access_only_when_the_authorization_server_lists_it() {
        let with = strings(&["mcp:basic", "offline_access"]);
        let without = strings(&["mcp:basic"]);
        assert_eq!(
            choose_scope(Some("mcp:basic"), None, Some(&with), None).as_deref(),
            Some("mcp:basic offline_access")
        );
        assert_eq!(
            choose_scope(Some("mcp:basic"), None, Some(&without), None).as_deref(),
            Some("mcp:basic")
        );
        // Listed by the resource but not by the authorization server: not asked for.
        let resource = strings(&["mcp:basic", "offline_access"]);
        assert_eq!(
            choose_scope(Some("mcp:basic"), Some(&resource), Some(&without), None).as_deref(),
            Some("mcp:basic")
        );
        assert_eq!(
            choose_scope(None, None, Some(&with), Some("offline_access x")).as_deref(),
            Some("offline_access x")
        );
    }

    #[test]
    fn the_union_has_no_duplicates() {
        assert_eq!(
            choose_scope(Some("b a c"), None, None, Some("a b")).as_deref(),
            Some("a b c")
        );
    }

    #[test]
    fn the_documented_choices() {
        let supported = ["mcp:read".to_owned(), "mcp:write".to_owned()];
        assert_eq!(
            choose_scope(Some("mcp:basic"), Some(&supported), None, None).as_deref(),
            Some("mcp:basic")
        );
        assert_eq!(
            choose_scope(None, Some(&supported), None, None).as_deref(),
            Some("mcp:read mcp:write")
        );
        assert_eq!(choose_scope(None, None, None, None), None);
        // A step-up keeps what was granted before.
        assert_eq!(
            choose_scope(Some("mcp:write"), None, None, Some("mcp:basic")).as_deref(),
            Some("mcp:basic mcp:write"),
        );
    }
}
