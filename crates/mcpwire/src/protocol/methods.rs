//! The request methods an MCP server answers, on either revision: what telemetry and middleware
//! name a request by. Any other method name is the client's own text.

/// Every request method a server answers.
pub(crate) const SERVER_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
];

/// `method` as one of [`SERVER_METHODS`], when it is one.
pub(crate) fn known(method: &str) -> Option<&'static str> {
    SERVER_METHODS
        .iter()
        .copied()
        .find(|known| *known == method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_methods_are_found_and_others_are_not() {
        assert_eq!(known("tools/call"), Some("tools/call"));
        assert_eq!(known("tools/call2"), None);
        assert_eq!(known(""), None);
    }
}
