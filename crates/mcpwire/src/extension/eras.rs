//! [`Eras`]: the protocol revisions an extension is offered on.

use crate::protocol::Era;

/// The protocol revisions an extension is offered on: where its capability entry is declared
/// and its methods are served. On any other revision its methods are unknown (`-32601`).
///
/// ```
/// use mcpwire::extension::Eras;
/// use mcpwire::protocol::Era;
///
/// assert!(Eras::BOTH.contains(Era::Legacy) && Eras::BOTH.contains(Era::Modern));
/// assert!(!Eras::MODERN.contains(Era::Legacy));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eras {
    legacy: bool,
    modern: bool,
}

impl Eras {
    /// Both revisions: 2025-11-25 sessions and 2026-07-28 requests.
    pub const BOTH: Eras = Eras {
        legacy: true,
        modern: true,
    };
    /// 2026-07-28 only (the tasks extension).
    pub const MODERN: Eras = Eras {
        legacy: false,
        modern: true,
    };
    /// 2025-11-25 only.
    pub const LEGACY: Eras = Eras {
        legacy: true,
        modern: false,
    };

    /// Whether `era` is one of them.
    pub const fn contains(self, era: Era) -> bool {
        match era {
            Era::Legacy => self.legacy,
            Era::Modern => self.modern,
        }
    }
}

impl Default for Eras {
    fn default() -> Self {
        Self::BOTH
    }
}
