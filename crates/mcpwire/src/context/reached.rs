//! What a request reached once its method admitted it (a tool's or a prompt's name, a
//! resource's URI): known when the context is made, or recorded once after.

use std::borrow::Cow;
use std::sync::OnceLock;

/// What a request reached: given when its context is made (a tool's or a prompt's name, which
/// the method looked up first), or recorded once later (a resource's URI, or a context the
/// outer tier made before the method ran).
///
/// Known at the start, it is a plain field: a `OnceLock` set as it is made still goes through
/// its `Once`, on every call.
#[derive(Debug, Default)]
pub(crate) struct Reached {
    /// A tool's or a prompt's name, given as the context is made.
    known: Option<&'static str>,
    /// A target recorded after the context was made (a resource's URI, or the target of a
    /// context the outer tier made before the method ran).
    later: OnceLock<Cow<'static, str>>,
}

impl Reached {
    /// `target`, known as the context is made.
    pub(crate) fn known(target: &'static str) -> Self {
        Reached {
            known: Some(target),
            later: OnceLock::new(),
        }
    }

    /// Records `target`, unless a target is known or recorded already (the first one stays).
    pub(crate) fn set(&self, target: Cow<'static, str>) {
        if self.known.is_none() {
            let _ = self.later.set(target);
        }
    }

    /// The target, once known.
    pub(crate) fn get(&self) -> Option<&str> {
        self.known.or_else(|| self.later.get().map(|t| &**t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_target_stays() {
        let known = Reached::known("add");
        known.set(Cow::Borrowed("other"));
        assert_eq!(known.get(), Some("add"));

        let later = Reached::default();
        assert_eq!(later.get(), None);
        later.set(Cow::Owned("file:///a".into()));
        later.set(Cow::Borrowed("file:///b"));
        assert_eq!(later.get(), Some("file:///a"));
    }
}
