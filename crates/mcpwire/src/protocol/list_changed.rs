//! `notifications/{tools,prompts,resources}/list_changed`: the server's lists changed and should
//! be fetched again.
//!
//! 2025-11-25: sent at any time once the matching capability declared `listChanged`.
//! 2026-07-28: sent only on a `subscriptions/listen` stream whose filter asked for it, and then
//! tagged with the subscription's id (see `subscriptions::Subscribed`).

use serde::{Deserialize, Serialize};

/// Method: the tool list changed.
pub const TOOLS: &str = "notifications/tools/list_changed";
/// Method: the prompt list changed.
pub const PROMPTS: &str = "notifications/prompts/list_changed";
/// Method: the resource list (or template list) changed.
pub const RESOURCES: &str = "notifications/resources/list_changed";

/// A list of the server's that can change.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ChangedList;
///
/// let changed = [ChangedList::Tools, ChangedList::Resources];
/// let methods: Vec<&str> = changed.iter().map(|list| list.method()).collect();
/// assert_eq!(
///     methods,
///     ["notifications/tools/list_changed", "notifications/resources/list_changed"]
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangedList {
    /// `tools/list`.
    Tools,
    /// `prompts/list`.
    Prompts,
    /// `resources/list` and `resources/templates/list`.
    Resources,
}

impl ChangedList {
    /// The notification's method.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ChangedList;
    ///
    /// assert_eq!(ChangedList::Prompts.method(), "notifications/prompts/list_changed");
    /// ```
    pub fn method(self) -> &'static str {
        match self {
            ChangedList::Tools => TOOLS,
            ChangedList::Prompts => PROMPTS,
            ChangedList::Resources => RESOURCES,
        }
    }
}

/// The params of every `list_changed` notification: nothing but, on a 2026-07-28 listen
/// stream, the subscription `_meta`. Serializes as `{}`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ListChangedParams;
///
/// assert_eq!(serde_json::to_string(&ListChangedParams {}).unwrap(), "{}");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListChangedParams {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::jsonrpc::notification_line;
    use crate::protocol::round_trip;
    use serde_json::{Value, json};

    #[test]
    fn writes_the_notifications() {
        let _: ListChangedParams = round_trip("{}");
        let line = notification_line(ChangedList::Tools.method(), &ListChangedParams {});
        assert_eq!(
            serde_json::from_str::<Value>(&line).unwrap(),
            json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}})
        );
        assert_eq!(
            ChangedList::Prompts.method(),
            "notifications/prompts/list_changed"
        );
        assert_eq!(
            ChangedList::Resources.method(),
            "notifications/resources/list_changed"
        );
        // A 2025-11-25 client's notification may carry `_meta`, which is ignored.
        let _: ListChangedParams = serde_json::from_str(r#"{"_meta":{"k":1}}"#).unwrap();
    }
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn list_changed() {
        assert_eq!(ChangedList::Tools.method(), list_changed::TOOLS);
        assert_eq!(
            list_changed::RESOURCES,
            "notifications/resources/list_changed"
        );
        assert_eq!(
            notification_line(list_changed::PROMPTS, &ListChangedParams {}),
            r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{}}"#
        );
    }
}
