//! The method table: one row per [`Method`] saying how the core treats it. The router
//! ([`router`](super::router)) runs the handler a method's arm names, and reads here whether it
//! decides scopes; the
//! HTTP transport reads whether it changes a session, and what its `Mcp-Name` mirrors. Adding
//! a method is its name in `protocol/methods.rs`, its file under `dispatch/methods/`, its arm
//! in the router, and its row here.

use crate::protocol::methods::Method;

/// What a request names, by the field of its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Nothing.
    None,
    /// `name`: a tool or a prompt.
    Name,
    /// `uri`: a resource.
    Uri,
    /// `taskId`: a task of the tasks extension.
    TaskId,
}

/// How the core treats one method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// Its handler may need scopes: a header mismatch is reported after its scope decision
    /// ([`authorize::admit`](super::authorize::admit)), not before anything runs.
    pub(crate) needs_scopes: bool,
    /// When it succeeds, it changes a 2025-11-25 session's state (log level, subscriptions),
    /// which the other replicas' copies must see.
    pub(crate) changes_session: bool,
    /// What it names.
    pub(crate) target: Target,
    /// `Mcp-Name` mirrors its target (2026-07-28; optional on a 2025-11-25 session).
    pub(crate) mirrored: bool,
}

/// A method that needs no scopes, changes no session and names nothing.
const PLAIN: Row = Row {
    needs_scopes: false,
    changes_session: false,
    target: Target::None,
    mirrored: false,
};

/// The handler methods: a handler looked up by what they name, with its scopes (and its own
/// layers).
const HANDLER: Row = Row {
    needs_scopes: true,
    target: Target::Name,
    mirrored: true,
    ..PLAIN
};

/// The tasks extension's methods: named by the task.
const TASK: Row = Row {
    target: Target::TaskId,
    mirrored: true,
    ..PLAIN
};

/// `method`'s row.
pub(crate) const fn row(method: Method) -> Row {
    match method {
        Method::Initialize
        | Method::Ping
        | Method::Discover
        | Method::ToolsList
        | Method::PromptsList
        | Method::ResourcesList
        | Method::ResourcesTemplatesList
        | Method::SubscriptionsListen => PLAIN,
        Method::ToolsCall | Method::PromptsGet => HANDLER,
        Method::ResourcesRead => Row {
            target: Target::Uri,
            ..HANDLER
        },
        Method::ResourcesSubscribe => Row {
            needs_scopes: true,
            changes_session: true,
            target: Target::Uri,
            ..PLAIN
        },
        Method::ResourcesUnsubscribe => Row {
            changes_session: true,
            target: Target::Uri,
            ..PLAIN
        },
        Method::CompletionComplete => Row {
            needs_scopes: true,
            ..PLAIN
        },
        Method::LoggingSetLevel => Row {
            changes_session: true,
            ..PLAIN
        },
        Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => TASK,
    }
}

/// The row of the method named `method`; [`PLAIN`] for a name the server does not know.
#[cfg(feature = "http")]
pub(crate) fn row_of(method: &str) -> Row {
    Method::of(method).map_or(PLAIN, row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_say_what_the_string_lists_said() {
        let names = |pick: fn(Row) -> bool| {
            let mut names: Vec<_> = (Method::ALL.iter())
                .filter(|method| pick(row(**method)))
                .map(|method| method.name())
                .collect();
            names.sort_unstable();
            names
        };
        assert_eq!(
            names(|row| row.needs_scopes),
            [
                "completion/complete",
                "prompts/get",
                "resources/read",
                "resources/subscribe",
                "tools/call"
            ]
        );
        assert_eq!(
            names(|row| row.changes_session),
            [
                "logging/setLevel",
                "resources/subscribe",
                "resources/unsubscribe"
            ]
        );
        assert_eq!(
            names(|row| row.mirrored),
            [
                "prompts/get",
                "resources/read",
                "tasks/cancel",
                "tasks/get",
                "tasks/update",
                "tools/call"
            ]
        );
        assert_eq!(Method::of("tools/call2").map(row), None);
    }
}
