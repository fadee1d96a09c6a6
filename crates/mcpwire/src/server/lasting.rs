//! Text kept for the life of the process: registry keys are `'static`, and an entry defined at
//! run time (a mounted server's under its namespace, a gateway's proxied one) has its name made
//! then.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// `text`, kept for as long as the process runs (registry keys are `'static`); the same text
/// is kept once, however often it is registered again.
pub(crate) fn lasting(text: &str) -> &'static str {
    static KEPT: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut kept = (KEPT.get_or_init(Mutex::default).lock()).unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = kept.get(text) {
        return known;
    }
    let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
    kept.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::lasting;

    #[test]
    fn the_same_text_is_kept_once() {
        let text = String::from("lasting_test");
        assert!(std::ptr::eq(lasting(&text), lasting("lasting_test")));
    }
}
