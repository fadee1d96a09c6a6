//! The method names of MCP, on either revision: the one place they are written as strings.
//! A request method a server answers is a [`Method`]; what telemetry and middleware name a
//! request by is its [`Method::name`]. Any other method name is the client's own text.

#[cfg(feature = "server")]
use super::{subscriptions, tasks};

/// Request (2025-11-25): the handshake that opens a session.
pub const INITIALIZE: &str = "initialize";
/// Request (2025-11-25, both directions): is the other side alive?
pub const PING: &str = "ping";
/// Request (2026-07-28): the server's versions, capabilities and information.
pub const DISCOVER: &str = "server/discover";
/// Request: the server's tools.
pub const TOOLS_LIST: &str = "tools/list";
/// Request: call one tool.
pub const TOOLS_CALL: &str = "tools/call";
/// Request: the server's prompts.
pub const PROMPTS_LIST: &str = "prompts/list";
/// Request: one prompt, rendered.
pub const PROMPTS_GET: &str = "prompts/get";
/// Request: the server's resources.
pub const RESOURCES_LIST: &str = "resources/list";
/// Request: the server's resource templates.
pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
/// Request: one resource's contents.
pub const RESOURCES_READ: &str = "resources/read";
/// Request (2025-11-25): tell me when this resource changes.
pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
/// Request (2025-11-25): stop telling me.
pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";
/// Request: completions for a prompt's or a template's argument.
pub const COMPLETION_COMPLETE: &str = "completion/complete";
/// Request (2025-11-25): the least severe log level the client wants.
pub const LOGGING_SET_LEVEL: &str = "logging/setLevel";

/// Request (server to client): ask the user.
pub const ELICITATION_CREATE: &str = "elicitation/create";
/// Request (server to client): ask the client's model.
pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
/// Request (server to client): the client's roots.
pub const ROOTS_LIST: &str = "roots/list";

/// Notification (2025-11-25, client): the handshake is done.
pub const INITIALIZED: &str = "notifications/initialized";
/// Notification (both directions): a request was cancelled.
pub const CANCELLED: &str = "notifications/cancelled";
/// Notification (both directions): progress of a request.
pub const PROGRESS: &str = "notifications/progress";
/// Notification (server): a log message.
pub const MESSAGE: &str = "notifications/message";
/// Notification (2025-11-25, client): its roots changed.
pub const ROOTS_LIST_CHANGED: &str = "notifications/roots/list_changed";

/// A request method a server answers, on either revision.
#[cfg(feature = "server")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Method {
    /// `initialize`.
    Initialize,
    /// `ping`.
    Ping,
    /// `server/discover`.
    Discover,
    /// `tools/list`.
    ToolsList,
    /// `tools/call`.
    ToolsCall,
    /// `prompts/list`.
    PromptsList,
    /// `prompts/get`.
    PromptsGet,
    /// `resources/list`.
    ResourcesList,
    /// `resources/templates/list`.
    ResourcesTemplatesList,
    /// `resources/read`.
    ResourcesRead,
    /// `resources/subscribe`.
    ResourcesSubscribe,
    /// `resources/unsubscribe`.
    ResourcesUnsubscribe,
    /// `completion/complete`.
    CompletionComplete,
    /// `logging/setLevel`.
    LoggingSetLevel,
    /// `subscriptions/listen`.
    SubscriptionsListen,
    /// `tasks/get`.
    TasksGet,
    /// `tasks/update`.
    TasksUpdate,
    /// `tasks/cancel`.
    TasksCancel,
}

#[cfg(feature = "server")]
impl Method {
    /// Every request method a server answers.
    #[cfg(test)]
    pub(crate) const ALL: [Method; 18] = [
        Method::Initialize,
        Method::Ping,
        Method::Discover,
        Method::ToolsList,
        Method::ToolsCall,
        Method::PromptsList,
        Method::PromptsGet,
        Method::ResourcesList,
        Method::ResourcesTemplatesList,
        Method::ResourcesRead,
        Method::ResourcesSubscribe,
        Method::ResourcesUnsubscribe,
        Method::CompletionComplete,
        Method::LoggingSetLevel,
        Method::SubscriptionsListen,
        Method::TasksGet,
        Method::TasksUpdate,
        Method::TasksCancel,
    ];

    /// The method named `name`, when the server answers one of that name.
    pub(crate) fn of(name: &str) -> Option<Method> {
        Some(match name {
            INITIALIZE => Method::Initialize,
            PING => Method::Ping,
            DISCOVER => Method::Discover,
            TOOLS_LIST => Method::ToolsList,
            TOOLS_CALL => Method::ToolsCall,
            PROMPTS_LIST => Method::PromptsList,
            PROMPTS_GET => Method::PromptsGet,
            RESOURCES_LIST => Method::ResourcesList,
            RESOURCES_TEMPLATES_LIST => Method::ResourcesTemplatesList,
            RESOURCES_READ => Method::ResourcesRead,
            RESOURCES_SUBSCRIBE => Method::ResourcesSubscribe,
            RESOURCES_UNSUBSCRIBE => Method::ResourcesUnsubscribe,
            COMPLETION_COMPLETE => Method::CompletionComplete,
            LOGGING_SET_LEVEL => Method::LoggingSetLevel,
            subscriptions::LISTEN => Method::SubscriptionsListen,
            tasks::GET => Method::TasksGet,
            tasks::UPDATE => Method::TasksUpdate,
            tasks::CANCEL => Method::TasksCancel,
            _ => return None,
        })
    }

    /// The method's name on the wire.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Method::Initialize => INITIALIZE,
            Method::Ping => PING,
            Method::Discover => DISCOVER,
            Method::ToolsList => TOOLS_LIST,
            Method::ToolsCall => TOOLS_CALL,
            Method::PromptsList => PROMPTS_LIST,
            Method::PromptsGet => PROMPTS_GET,
            Method::ResourcesList => RESOURCES_LIST,
            Method::ResourcesTemplatesList => RESOURCES_TEMPLATES_LIST,
            Method::ResourcesRead => RESOURCES_READ,
            Method::ResourcesSubscribe => RESOURCES_SUBSCRIBE,
            Method::ResourcesUnsubscribe => RESOURCES_UNSUBSCRIBE,
            Method::CompletionComplete => COMPLETION_COMPLETE,
            Method::LoggingSetLevel => LOGGING_SET_LEVEL,
            Method::SubscriptionsListen => subscriptions::LISTEN,
            Method::TasksGet => tasks::GET,
            Method::TasksUpdate => tasks::UPDATE,
            Method::TasksCancel => tasks::CANCEL,
        }
    }

    /// Whether an extension serves the method (the tasks extension's `tasks/*`), rather than
    /// the core: the protocol knows its name, what it names and what `Mcp-Name` mirrors, and
    /// the extension installed on the server binds its code.
    pub(crate) const fn is_extension_method(self) -> bool {
        matches!(
            self,
            Method::TasksGet | Method::TasksUpdate | Method::TasksCancel
        )
    }
}

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::*;

    #[test]
    fn known_methods_are_found_and_others_are_not() {
        assert_eq!(
            Method::of("tools/call").map(Method::name),
            Some("tools/call")
        );
        assert_eq!(Method::of("tools/call2"), None);
        assert_eq!(Method::of(""), None);
    }

    #[test]
    fn every_method_is_found_by_its_name() {
        for method in Method::ALL {
            assert_eq!(Method::of(method.name()), Some(method));
        }
    }
}
