//! Values a 2026-07-28 client sends again, the same, with every request (its capabilities, who
//! it is), read once per distinct text and shared: a request whose `_meta` carries the text a
//! recent one did takes that request's value, where it would otherwise build its maps and
//! strings anew.
//!
//! Each worker thread keeps its own few values ([`SLOTS`] of each kind, each read from at most
//! [`MAX_TEXT`] bytes), so that no lock is taken and what is kept is bounded, whatever callers
//! send: a text not seen recently is read as it always was, and takes the oldest slot.

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::sync::Arc;
use std::thread::LocalKey;

/// How many distinct texts of one kind a thread keeps.
const SLOTS: usize = 8;

/// The longest text kept; a longer one is read each time.
const MAX_TEXT: usize = 1024;

/// The values of one kind a thread read lately, by their text.
pub(crate) struct Interned<T> {
    slots: [Option<(Box<str>, Arc<T>)>; SLOTS],
    /// The slot the next new text takes (the oldest).
    next: usize,
}

impl<T> Default for Interned<T> {
    fn default() -> Self {
        Self {
            slots: Default::default(),
            next: 0,
        }
    }
}

impl<T> Interned<T> {
    /// The value read from `text` lately, when there is one.
    fn find(&self, text: &str) -> Option<&Arc<T>> {
        self.slots
            .iter()
            .flatten()
            .find_map(|(kept, value)| (**kept == *text).then_some(value))
    }

    /// Keeps `value`, read from `text`, in the oldest slot.
    fn keep(&mut self, text: &str, value: &Arc<T>) {
        self.slots[self.next] = Some((text.into(), Arc::clone(value)));
        self.next = (self.next + 1) % SLOTS;
    }
}

/// The value `raw` reads as, shared with the requests that sent the same text lately (on this
/// thread); an error when it does not read as a `T`.
pub(crate) fn read<T: DeserializeOwned>(
    table: &'static LocalKey<RefCell<Interned<T>>>,
    raw: &RawValue,
) -> Result<Arc<T>, serde_json::Error> {
    let text = raw.get();
    if text.len() > MAX_TEXT {
        return serde_json::from_str(text).map(Arc::new);
    }
    // Borrowed only to look and to keep: reading the value happens outside the borrow. A thread
    // whose table is gone (it is ending) reads the text as it is.
    let found = table.try_with(|kept| kept.borrow().find(text).cloned());
    if let Ok(Some(found)) = found {
        return Ok(found);
    }
    let value = Arc::new(serde_json::from_str::<T>(text)?);
    let _ = table.try_with(|kept| kept.borrow_mut().keep(text, &value));
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::capabilities::ClientCapabilities;

    thread_local! {
        static TABLE: RefCell<Interned<ClientCapabilities>> = RefCell::default();
    }

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn the_same_text_is_read_once_and_shared() {
        let text = r#"{"elicitation":{"form":{}},"roots":{"listChanged":true}}"#;
        let first = read(&TABLE, &raw(text)).unwrap();
        let again = read(&TABLE, &raw(text)).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(
            *first,
            serde_json::from_str::<ClientCapabilities>(text).unwrap()
        );
        // Another text, even one that reads as an equal value, is read on its own.
        let spaced = read(&TABLE, &raw(&text.replace(':', ": "))).unwrap();
        assert!(!Arc::ptr_eq(&first, &spaced));
        assert_eq!(*first, *spaced);
    }

    #[test]
    fn what_does_not_read_is_an_error_and_is_not_kept() {
        assert!(read(&TABLE, &raw("5")).is_err());
        assert!(read(&TABLE, &raw(r#"{"roots":3,"roots":4}"#)).is_err());
        TABLE.with_borrow(|kept| assert!(kept.find("5").is_none()));
    }

    #[test]
    fn a_thread_keeps_a_bounded_number_of_texts_of_bounded_length() {
        let texts: Vec<String> = (0..SLOTS + 3)
            .map(|n| format!(r#"{{"experimental":{{"n{n}":{{}}}}}}"#))
            .collect();
        let first: Vec<Arc<ClientCapabilities>> = texts
            .iter()
            .map(|text| read(&TABLE, &raw(text)).unwrap())
            .collect();
        TABLE.with_borrow(|kept| {
            assert_eq!(kept.slots.iter().flatten().count(), SLOTS);
            // The oldest went first; the latest are kept.
            assert!(kept.find(&texts[2]).is_none());
            assert!(kept.find(&texts[3]).is_some());
        });
        let latest = read(&TABLE, &raw(&texts[SLOTS + 2])).unwrap();
        assert!(Arc::ptr_eq(&latest, &first[SLOTS + 2]));
        let long = format!(r#"{{"experimental":{{"x":"{}"}}}}"#, "a".repeat(MAX_TEXT));
        let (one, two) = (
            read(&TABLE, &raw(&long)).unwrap(),
            read(&TABLE, &raw(&long)).unwrap(),
        );
        assert!(!Arc::ptr_eq(&one, &two), "a long text is not kept");
        TABLE.with_borrow(|kept| assert!(kept.find(&long).is_none()));
    }
}
