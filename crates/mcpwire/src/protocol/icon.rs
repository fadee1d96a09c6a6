//! Icons: images a client may show next to a tool, prompt, resource or implementation (both
//! revisions; introduced in 2025-11-25 and unchanged in 2026-07-28).
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{Icon, Prompt};
//! use serde_json::json;
//!
//! let icon = Icon::new("https://example.com/greet.svg");
//! let prompt = Prompt { icons: Some(vec![icon]), ..Prompt::new("greet") };
//! assert_eq!(
//!     serde_json::to_value(&prompt).unwrap(),
//!     json!({"name": "greet", "icons": [{"src": "https://example.com/greet.svg"}]})
//! );
//! ```

use serde::{Deserialize, Serialize};

/// The background an icon is drawn for.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::IconTheme;
///
/// assert_eq!(serde_json::to_value(IconTheme::Dark).unwrap(), "dark");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IconTheme {
    /// Made for a light background.
    Light,
    /// Made for a dark background.
    Dark,
}

/// An optionally sized icon.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Icon;
/// use mcpwire::protocol::IconTheme;
/// use serde_json::json;
///
/// let icon = Icon {
///     sizes: Some(vec!["48x48".into()]),
///     theme: Some(IconTheme::Light),
///     ..Icon::new("https://example.com/icon.png")
/// };
/// assert_eq!(
///     serde_json::to_value(&icon).unwrap(),
///     json!({"src": "https://example.com/icon.png", "sizes": ["48x48"], "theme": "light"})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// An `http(s)://` URL or a `data:` URI with base64 image data.
    pub src: String,
    /// The MIME type, when the source's own is missing or generic (e.g. `image/png`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes it can be used at: `"48x48"`, …, or `"any"` for scalable formats. Absent: any size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// The theme it is made for. Absent: any theme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// An icon with only a source.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::Icon;
    /// use serde_json::json;
    ///
    /// let icon = Icon::new("https://example.com/icon.svg");
    /// assert_eq!(
    ///     serde_json::to_value(&icon).unwrap(),
    ///     json!({"src": "https://example.com/icon.svg"})
    /// );
    /// ```
    pub fn new(src: impl Into<String>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: None,
            theme: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::round_trip;

    #[test]
    fn round_trips_an_icon() {
        let icon: Icon = round_trip(
            r#"{"src":"https://srv.example/icon-dark.png","mimeType":"image/png",
                "sizes":["48x48","96x96"],"theme":"dark"}"#,
        );
        assert_eq!(icon.theme, Some(IconTheme::Dark));
        let bare: Icon = round_trip(r#"{"src":"data:image/svg+xml;base64,PHN2Zy8+"}"#);
        assert_eq!(bare, Icon::new("data:image/svg+xml;base64,PHN2Zy8+"));
    }
}
