//! Which of the four macros is expanding: what the shared code says in messages and docs, and
//! what it allows (constraints only on a tool's arguments).

/// The macro at work.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Tool,
    Resolver,
    Prompt,
    Resource,
}

impl Kind {
    /// The noun in messages and generated docs: `tool`, `resolver`, `prompt`, `resource`.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Resolver => "resolver",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
        }
    }
}
