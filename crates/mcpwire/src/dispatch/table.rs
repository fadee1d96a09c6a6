//! The method table: one row per [`Method`] saying how the core treats it. The router
//! ([`router`](super::router)) serves a method with what its row names, where and when the row
//! says, and reads here whether it decides scopes; the HTTP transport reads whether it changes
//! a session, and what its `Mcp-Name` mirrors. Adding a method is its name in
//! `protocol/methods.rs`, its file under `dispatch/methods/` (or its extension's module, on the
//! extension seam), and its row here: the router names no method.

use super::admitted::ServeFn;
use super::methods::handlers::HandlerMethod;
use super::methods::lists::Listed;
use super::methods::{completion, lifecycle, listen, logging, subscriptions};
use crate::extension::Eras;
use crate::protocol::methods::Method;
use crate::server::core::ServerCore;

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

/// What serves a method.
#[derive(Clone, Copy)]
pub(crate) enum Serve {
    /// `initialize`, answered before routing.
    Handshake,
    /// A handler method: a handler looked up by what the request names.
    Handler(HandlerMethod),
    /// A `*/list` method.
    List(Listed),
    /// The serving function of the method's own file.
    Method(ServeFn),
    /// An installed extension binds it on the extension seam (the tasks extension's methods).
    Extension,
}

/// What the server must offer for the core to serve a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Offered {
    /// Nothing: every server serves it.
    Always,
    /// Tools.
    Tools,
    /// Prompts.
    Prompts,
    /// Resources.
    Resources,
    /// Completions (a completer).
    Completions,
}

impl Offered {
    /// Whether `core` offers it.
    pub(crate) fn by(self, core: &ServerCore) -> bool {
        match self {
            Offered::Always => true,
            Offered::Tools => core.offers_tools(),
            Offered::Prompts => core.offers_prompts(),
            Offered::Resources => core.offers_resources(),
            Offered::Completions => core.completer.is_some(),
        }
    }
}

/// How the core treats one method.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    /// Its handler may need scopes: a header mismatch is reported after its scope decision
    /// ([`authorize::admit`](super::authorize::admit)), not before anything runs.
    pub(crate) needs_scopes: bool,
    /// When it succeeds, it changes a 2025-11-25 session's state (log level, subscriptions),
    /// which the other replicas' copies must see.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "read by the HTTP transport")
    )]
    pub(crate) changes_session: bool,
    /// What it names.
    pub(crate) target: Target,
    /// `Mcp-Name` mirrors its target (2026-07-28; optional on a 2025-11-25 session).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "read by the HTTP transport")
    )]
    pub(crate) mirrored: bool,
    /// The revisions the core serves it on; on the others it is an unknown method (`-32601`).
    pub(crate) eras: Eras,
    /// What the server must offer for it to be served; else it is an unknown method.
    pub(crate) offered: Offered,
    /// What serves it.
    pub(crate) serve: Serve,
}

impl Row {
    /// What serves the method in a request served under `era` by `core`; `None` where the core
    /// does not serve it (the wrong revision, or nothing offered it needs).
    pub(crate) fn served(self, era: crate::protocol::Era, core: &ServerCore) -> Option<Serve> {
        (self.eras.contains(era) && self.offered.by(core)).then_some(self.serve)
    }
}

/// A method served on both revisions by every server, by `serve`: it needs no scopes, changes
/// no session and names nothing.
const fn plain(serve: Serve) -> Row {
    Row {
        needs_scopes: false,
        changes_session: false,
        target: Target::None,
        mirrored: false,
        eras: Eras::BOTH,
        offered: Offered::Always,
        serve,
    }
}

/// A handler method: a handler looked up by the name it is registered under, with its scopes
/// (and its own layers), on a server that offers `offered`.
const fn handler(method: HandlerMethod, offered: Offered) -> Row {
    Row {
        needs_scopes: true,
        target: Target::Name,
        mirrored: true,
        offered,
        ..plain(Serve::Handler(method))
    }
}

/// A `*/list` method, on a server that offers `offered`.
const fn list(listed: Listed, offered: Offered) -> Row {
    Row {
        offered,
        ..plain(Serve::List(listed))
    }
}

/// A method of a 2025-11-25 session that changes the session's state when it succeeds.
const fn session_change(serve: ServeFn) -> Row {
    Row {
        changes_session: true,
        eras: Eras::LEGACY,
        ..plain(Serve::Method(serve))
    }
}

/// The tasks extension's methods: named by the task, bound on the extension seam.
const TASK: Row = Row {
    target: Target::TaskId,
    mirrored: true,
    ..plain(Serve::Extension)
};

/// `method`'s row.
pub(crate) const fn row(method: Method) -> Row {
    use HandlerMethod as H;
    use Offered as O;
    match method {
        Method::Initialize => Row {
            eras: Eras::LEGACY,
            ..plain(Serve::Handshake)
        },
        Method::Ping => Row {
            eras: Eras::LEGACY,
            ..plain(Serve::Method(lifecycle::serve_ping))
        },
        Method::Discover => Row {
            eras: Eras::MODERN,
            ..plain(Serve::Method(lifecycle::serve_discover))
        },
        Method::ToolsList => list(Listed::Tools, O::Tools),
        Method::PromptsList => list(Listed::Prompts, O::Prompts),
        Method::ResourcesList => list(Listed::Resources, O::Resources),
        Method::ResourcesTemplatesList => list(Listed::ResourceTemplates, O::Resources),
        Method::SubscriptionsListen => Row {
            eras: Eras::MODERN,
            ..plain(Serve::Method(listen::serve))
        },
        Method::ToolsCall => handler(H::Tool, O::Tools),
        Method::PromptsGet => handler(H::Prompt, O::Prompts),
        Method::ResourcesRead => Row {
            target: Target::Uri,
            ..handler(H::Resource, O::Resources)
        },
        Method::ResourcesSubscribe => Row {
            needs_scopes: true,
            target: Target::Uri,
            offered: O::Resources,
            ..session_change(subscriptions::serve_subscribe)
        },
        Method::ResourcesUnsubscribe => Row {
            target: Target::Uri,
            offered: O::Resources,
            ..session_change(subscriptions::serve_unsubscribe)
        },
        Method::CompletionComplete => Row {
            needs_scopes: true,
            offered: O::Completions,
            ..plain(Serve::Method(completion::serve))
        },
        Method::LoggingSetLevel => session_change(logging::serve),
        Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => TASK,
    }
}

/// The row of the method named `method`; for a name the server does not know, a row that
/// needs no scopes, changes no session and names nothing.
#[cfg(feature = "http")]
pub(crate) fn row_of(method: &str) -> Row {
    Method::of(method).map_or(plain(Serve::Extension), row)
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
        assert!(Method::of("tools/call2").is_none());
    }
}
