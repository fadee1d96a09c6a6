//! How an entry served under a namespace is named, for a mounted server and for a gateway's
//! backends alike: a namespace is what hosts accept in tool names, and a resource keeps its
//! scheme with the namespace as its first segment (so `ui://` views stay `ui://`).

/// The longest namespace: with a separator and a name it still fits hosts' 64-character
/// patterns for short names.
pub(crate) const MAX_NAMESPACE: usize = 64;

/// Whether every character of `text` is one hosts accept in tool names (`A-Z a-z 0-9 _ -`).
pub(crate) fn fits_names(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// Whether `namespace` may name entries: at most [`MAX_NAMESPACE`] characters that
/// [`fits_names`] (empty: no namespace).
pub(crate) fn valid_namespace(namespace: &str) -> bool {
    namespace.len() <= MAX_NAMESPACE && fits_names(namespace)
}

/// `uri` under `namespace` (`scheme://{namespace}/rest`), when it has a scheme.
pub(crate) fn under_scheme(namespace: &str, uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once("://")?;
    Some(format!("{scheme}://{namespace}/{rest}"))
}
