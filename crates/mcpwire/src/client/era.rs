//! Which protocol revision the client speaks.

/// How the client picks the era.
///
/// # Examples
///
/// ```
/// use mcpwire::client::EraChoice;
///
/// assert_eq!(EraChoice::default(), EraChoice::Auto);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EraChoice {
    /// Probe with `server/discover` and use 2026-07-28 when the server speaks it, else
    /// `initialize`. Over HTTP and in memory the probe runs on the connection itself; over stdio
    /// on a short-lived sibling process, since some servers exit on any message before
    /// `initialize`.
    #[default]
    Auto,
    /// 2025-11-25: the `initialize` handshake and a session.
    Legacy,
    /// 2026-07-28: stateless requests with `_meta`; fails if the server does not speak it.
    Modern,
}
