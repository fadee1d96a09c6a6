//! Header values of the 2026-07-28 HTTP transport (`Mcp-Name`, `Mcp-Param-*`): plain visible
//! ASCII as is, anything else as the Base64 sentinel `=?base64?{base64(utf8)}?=`. The server
//! decodes them; the client encodes them.

use base64::Engine;
use std::borrow::Cow;

const PREFIX: &str = "=?base64?";
const SUFFIX: &str = "?=";

/// A header value as sent: plain visible ASCII, or the Base64 sentinel form.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn decode(value: &str) -> Option<Cow<'_, str>> {
    let Some(encoded) = sentinel_content(value) else {
        return Some(value.into());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    String::from_utf8(bytes).ok().map(Into::into)
}

/// What is between the Base64 sentinel's ends, when `value` has them.
fn sentinel_content(value: &str) -> Option<&str> {
    value
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix(SUFFIX))
}

/// Whether `value` is in the Base64 sentinel form (`=?base64?…?=`): [`decode`] reads it as
/// Base64, not as itself.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn is_sentinel(value: &str) -> bool {
    sentinel_content(value).is_some()
}

/// `value` as a header value: itself when it is visible ASCII (inner spaces allowed) with no
/// leading or trailing whitespace and does not look like the sentinel, else the sentinel form.
/// The empty string stays empty.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn encode(value: &str) -> Cow<'_, str> {
    let visible = value.bytes().all(|b| (b' '..=b'~').contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let sentinel = value.starts_with(PREFIX) && value.ends_with(SUFFIX);
    if visible && !padded && !sentinel {
        return value.into();
    }
    let encoded = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
    format!("{PREFIX}{encoded}{SUFFIX}").into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_stay_plain_and_others_are_sentinels() {
        for plain in ["acme", "us west 1", "", "42", "true", "a:b"] {
            assert_eq!(encode(plain), plain);
        }
        for odd in [
            " lead",
            "trail ",
            "tab\there",
            "line\nbreak",
            "café",
            "=?base64?x?=",
        ] {
            let encoded = encode(odd);
            assert!(
                encoded.starts_with(PREFIX) && encoded.ends_with(SUFFIX),
                "{odd:?}"
            );
            assert_eq!(decode(&encoded).as_deref(), Some(odd));
        }
        assert_eq!(encode("café"), "=?base64?Y2Fmw6k=?=");
    }
}

#[cfg(test)]
mod proptests {
    use super::{decode, encode};
    use base64::Engine;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_header_values_never_panic(value in ".{0,120}") {
            let _ = decode(&value);
        }

        #[test]
        fn the_base64_sentinel_round_trips(text in ".{0,80}") {
            let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
            let header = format!("=?base64?{encoded}?=");
            let decoded = decode(&header);
            prop_assert_eq!(decoded.as_deref(), Some(text.as_str()));
        }

        #[test]
        fn plain_visible_ascii_reads_as_itself(text in "[ -~]{0,80}") {
            prop_assume!(!(text.starts_with("=?base64?") && text.ends_with("?=")));
            let decoded = decode(&text);
            prop_assert_eq!(decoded.as_deref(), Some(text.as_str()));
        }

        #[test]
        fn encoding_then_decoding_gives_the_value(text in ".{0,80}") {
            let encoded = encode(&text);
            let decoded = decode(&encoded);
            prop_assert_eq!(decoded.as_deref(), Some(text.as_str()));
        }
    }
}
