//! `subscriptions/listen` (2026-07-28 only): a long-lived response stream carrying the change
//! notifications a client opted in to. It replaces the 2025-11-25 GET stream and
//! `resources/subscribe`.
//!
//! The server first sends `notifications/subscriptions/acknowledged` with the subset of the
//! filter it honors, then only notifications of those kinds. Every notification on the stream,
//! and the result that closes it gracefully, carries
//! `_meta["io.modelcontextprotocol/subscriptionId"]` = the id of the listen request: wrap the
//! params in [`Subscribed`], and close with [`ListenResult`].

use super::capabilities::ServerCapabilities;
use super::jsonrpc::RequestId;
use super::list_changed::ChangedList;
use super::tasks;
use serde::{Deserialize, Serialize};

/// Method: open a subscription.
pub const LISTEN: &str = "subscriptions/listen";
/// Method: the server's first notification on a subscription.
pub const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// The notification kinds a client opts in to. Every field is opt-in; the server must not send
/// a kind that was not asked for.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::SubscriptionFilter;
/// use serde_json::json;
///
/// let filter = SubscriptionFilter {
///     resource_subscriptions: Some(vec!["file:///log.txt".into()]),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(&filter).unwrap(),
///     json!({"resourceSubscriptions": ["file:///log.txt"]})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs (and their sub-resources).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
    /// `notifications/tasks` for these task ids (the `io.modelcontextprotocol/tasks` extension,
    /// not core).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<String>>,
}

impl SubscriptionFilter {
    /// True when the filter asks for nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::SubscriptionFilter;
    ///
    /// assert!(SubscriptionFilter::default().is_empty());
    /// let nothing: SubscriptionFilter =
    ///     serde_json::from_str(r#"{"toolsListChanged":false,"taskIds":[]}"#).unwrap();
    /// assert!(nothing.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        !self.wants(ChangedList::Tools)
            && !self.wants(ChangedList::Prompts)
            && !self.wants(ChangedList::Resources)
            && self
                .resource_subscriptions
                .as_ref()
                .is_none_or(Vec::is_empty)
            && self.task_ids.as_ref().is_none_or(Vec::is_empty)
    }

    /// Whether the filter asks for `list`'s `list_changed` notification.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ChangedList, SubscriptionFilter};
    ///
    /// let filter = SubscriptionFilter { tools_list_changed: Some(true), ..Default::default() };
    /// assert!(filter.wants(ChangedList::Tools));
    /// assert!(!filter.wants(ChangedList::Prompts));
    /// ```
    pub fn wants(&self, list: ChangedList) -> bool {
        let flag = match list {
            ChangedList::Tools => self.tools_list_changed,
            ChangedList::Prompts => self.prompts_list_changed,
            ChangedList::Resources => self.resources_list_changed,
        };
        flag == Some(true)
    }

    /// The part of this filter a server with `capabilities` can honor, for the acknowledgement:
    /// a list's changes need its `listChanged`, resource updates need `resources.subscribe`, and
    /// task notifications need the tasks extension. Kinds not asked for, or asked for with
    /// `false` or an empty list, are left out. The server may narrow `resourceSubscriptions` and
    /// `taskIds` further (unknown URIs, tasks the caller may not see).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ListChanged, ResourcesCapability};
    /// use mcpwire::protocol::{ServerCapabilities, SubscriptionFilter};
    ///
    /// let asked = SubscriptionFilter {
    ///     tools_list_changed: Some(true),
    ///     resource_subscriptions: Some(vec!["file:///log.txt".into()]),
    ///     ..Default::default()
    /// };
    /// let caps = ServerCapabilities {
    ///     tools: Some(ListChanged { list_changed: Some(true) }),
    ///     resources: Some(ResourcesCapability { subscribe: None, list_changed: None }),
    ///     ..Default::default()
    /// };
    /// let honored = asked.honored_by(&caps);
    /// let expected = SubscriptionFilter { tools_list_changed: Some(true), ..Default::default() };
    /// assert_eq!(honored, expected); // resource updates need `resources.subscribe`
    /// ```
    pub fn honored_by(&self, capabilities: &ServerCapabilities) -> SubscriptionFilter {
        let resources = capabilities.resources.as_ref();
        let changes =
            |list| (self.wants(list) && capabilities.announces_list_changed(list)).then_some(true);
        let kept = |ids: &Option<Vec<String>>, offered: bool| {
            ids.as_ref()
                .filter(|ids| offered && !ids.is_empty())
                .cloned()
        };
        let subscribe = resources.and_then(|c| c.subscribe) == Some(true);
        let tasks = capabilities
            .extensions
            .as_ref()
            .is_some_and(|e| e.contains_key(tasks::EXTENSION));
        SubscriptionFilter {
            tools_list_changed: changes(ChangedList::Tools),
            prompts_list_changed: changes(ChangedList::Prompts),
            resources_list_changed: changes(ChangedList::Resources),
            resource_subscriptions: kept(&self.resource_subscriptions, subscribe),
            task_ids: kept(&self.task_ids, tasks),
        }
    }
}

/// `subscriptions/listen` params (the request `_meta` is read separately).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ChangedList, ListenParams};
///
/// let params: ListenParams =
///     serde_json::from_str(r#"{"notifications":{"resourcesListChanged":true}}"#).unwrap();
/// assert!(params.notifications.wants(ChangedList::Resources));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListenParams {
    /// What the client opts in to.
    pub notifications: SubscriptionFilter,
}

/// `notifications/subscriptions/acknowledged` params; on the wire wrapped in [`Subscribed`].
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{AcknowledgedParams, SubscriptionFilter};
/// use serde_json::json;
///
/// let ack = AcknowledgedParams {
///     notifications: SubscriptionFilter {
///         prompts_list_changed: Some(true),
///         ..Default::default()
///     },
/// };
/// assert_eq!(
///     serde_json::to_value(&ack).unwrap(),
///     json!({"notifications": {"promptsListChanged": true}})
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcknowledgedParams {
    /// The subset of the requested kinds the server honors.
    pub notifications: SubscriptionFilter,
}

/// The `_meta` that ties a message to its subscription.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::RequestId;
/// use mcpwire::protocol::SubscriptionMeta;
/// use serde_json::json;
///
/// let meta = SubscriptionMeta { subscription_id: RequestId::Number(1) };
/// assert_eq!(
///     serde_json::to_value(&meta).unwrap(),
///     json!({"io.modelcontextprotocol/subscriptionId": 1})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SubscriptionMeta {
    /// The id of the `subscriptions/listen` request that opened the stream.
    #[serde(rename = "io.modelcontextprotocol/subscriptionId")]
    pub subscription_id: RequestId,
}

/// Notification params tagged with their subscription:
/// `{"_meta":{"io.modelcontextprotocol/subscriptionId":…}, …params}`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{RequestId, ResourceUpdatedParams, Subscribed};
/// use serde_json::json;
///
/// let params = ResourceUpdatedParams { uri: "file:///log.txt".into() };
/// let tagged = Subscribed::new(RequestId::String("listen-1".into()), params);
/// assert_eq!(
///     serde_json::to_value(&tagged).unwrap(),
///     json!({
///         "_meta": {"io.modelcontextprotocol/subscriptionId": "listen-1"},
///         "uri": "file:///log.txt"
///     })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Subscribed<P> {
    /// The subscription tag.
    #[serde(rename = "_meta")]
    pub meta: SubscriptionMeta,
    /// The notification's own params, flattened beside `_meta`.
    #[serde(flatten)]
    pub params: P,
}

impl<P> Subscribed<P> {
    /// Tags `params` with the listen request's id.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ListChangedParams, RequestId, Subscribed};
    ///
    /// let tagged = Subscribed::new(RequestId::Number(4), ListChangedParams {});
    /// assert_eq!(tagged.meta.subscription_id, RequestId::Number(4));
    /// ```
    pub fn new(subscription_id: RequestId, params: P) -> Self {
        Self {
            meta: SubscriptionMeta { subscription_id },
            params,
        }
    }

    /// The listen request's id.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ListChangedParams, RequestId, Subscribed};
    ///
    /// let tagged: Subscribed<ListChangedParams> = serde_json::from_str(
    ///     r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":"s-9"}}"#,
    /// )
    /// .unwrap();
    /// assert_eq!(tagged.subscription_id(), &RequestId::String("s-9".into()));
    /// ```
    pub fn subscription_id(&self) -> &RequestId {
        &self.meta.subscription_id
    }
}

/// The `subscriptions/listen` result, sent only when the server ends the subscription
/// gracefully: empty but for the subscription `_meta` (`resultType` is added by the envelope).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ListenResult, RequestId};
/// use serde_json::json;
///
/// assert_eq!(
///     serde_json::to_value(ListenResult::new(RequestId::Number(4))).unwrap(),
///     json!({"_meta": {"io.modelcontextprotocol/subscriptionId": 4}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListenResult {
    /// The subscription tag; equals the response's id.
    #[serde(rename = "_meta")]
    pub meta: SubscriptionMeta,
}

impl ListenResult {
    /// The closing result of the subscription opened by request `subscription_id`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ListenResult, RequestId};
    ///
    /// let closing = ListenResult::new(RequestId::Number(7));
    /// assert_eq!(closing.meta.subscription_id, RequestId::Number(7));
    /// ```
    pub fn new(subscription_id: RequestId) -> Self {
        Self {
            meta: SubscriptionMeta { subscription_id },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::capabilities::{ListChanged, ResourcesCapability};
    use crate::protocol::jsonrpc::notification_line;
    use crate::protocol::list_changed::{self, ListChangedParams};
    use crate::protocol::meta::SUBSCRIPTION_ID;
    use crate::protocol::resources::{self, ResourceUpdatedParams};
    use crate::protocol::round_trip;
    use serde_json::{Value, json};

    #[test]
    fn reads_the_listen_request_of_the_spec() {
        let params: ListenParams = serde_json::from_str(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},
                "notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["mem://notes/1"]}}"#,
        )
        .unwrap();
        assert!(params.notifications.wants(ChangedList::Prompts));
        assert!(!params.notifications.wants(ChangedList::Resources));
        let _: ListenParams = round_trip(
            r#"{"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["mem://notes/1"]}}"#,
        );
        let _: ListenParams = round_trip(r#"{"notifications":{"taskIds":["t-9"]}}"#);
    }

    #[test]
    fn round_trips_the_tagged_notifications_and_the_closing_result_of_the_spec() {
        let ack: Subscribed<AcknowledgedParams> = round_trip(
            r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub-1"},
                "notifications":{"toolsListChanged":true,"resourceSubscriptions":["mem://notes/1"]}}"#,
        );
        assert_eq!(ack.subscription_id(), &RequestId::String("sub-1".into()));

        let updated: Subscribed<ResourceUpdatedParams> = round_trip(
            r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub-1"},"uri":"mem://notes/1"}"#,
        );
        assert_eq!(updated.params.uri, "mem://notes/1");
        let line = notification_line(resources::UPDATED, &updated);
        assert_eq!(
            serde_json::from_str::<Value>(&line).unwrap(),
            json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{
                "_meta":{"io.modelcontextprotocol/subscriptionId":"sub-1"},"uri":"mem://notes/1"}})
        );

        let changed = Subscribed::new(RequestId::Number(4), ListChangedParams {});
        let line = notification_line(list_changed::TOOLS, &changed);
        assert_eq!(
            serde_json::from_str::<Value>(&line).unwrap(),
            json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{
                "_meta":{"io.modelcontextprotocol/subscriptionId":4}}})
        );
        let _: Subscribed<ListChangedParams> =
            round_trip(r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":4}}"#);

        // The spec's closing result, without the `resultType` the envelope adds.
        let closed: ListenResult =
            round_trip(r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub-1"}}"#);
        assert_eq!(closed, ListenResult::new(RequestId::String("sub-1".into())));
        assert_eq!(SUBSCRIPTION_ID, "io.modelcontextprotocol/subscriptionId");
    }

    #[test]
    fn acknowledges_only_what_the_capabilities_allow() {
        let requested = SubscriptionFilter {
            tools_list_changed: Some(true),
            prompts_list_changed: Some(true),
            resources_list_changed: Some(false),
            resource_subscriptions: Some(vec!["mem://notes/1".into()]),
            task_ids: Some(vec!["t-9".into()]),
        };
        // The spec's example server: tools with listChanged, resources with subscribe, no
        // prompts; promptsListChanged is dropped.
        let capabilities = ServerCapabilities {
            tools: Some(ListChanged {
                list_changed: Some(true),
            }),
            resources: Some(ResourcesCapability {
                subscribe: Some(true),
                list_changed: None,
            }),
            ..ServerCapabilities::default()
        };
        let honored = requested.honored_by(&capabilities);
        assert_eq!(
            serde_json::to_value(&honored).unwrap(),
            json!({"toolsListChanged":true,"resourceSubscriptions":["mem://notes/1"]})
        );
        assert!(!honored.is_empty());
        assert!(
            requested
                .honored_by(&ServerCapabilities::default())
                .is_empty()
        );

        let with_tasks = ServerCapabilities {
            extensions: Some(
                json!({"io.modelcontextprotocol/tasks":{}})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
            ..ServerCapabilities::default()
        };
        assert_eq!(
            requested.honored_by(&with_tasks).task_ids,
            Some(vec!["t-9".to_string()])
        );
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
    fn subscriptions() {
        let listen: ListenParams = serde_json::from_str(
            r#"{"notifications":{"toolsListChanged":true,"promptsListChanged":true}}"#,
        )
        .unwrap();
        let tools = Some(ListChanged {
            list_changed: Some(true),
        });
        let caps = ServerCapabilities {
            tools,
            ..Default::default()
        };
        let honored = AcknowledgedParams {
            notifications: listen.notifications.honored_by(&caps),
        };
        assert_eq!(
            notification_line(
                subscriptions::ACKNOWLEDGED,
                &Subscribed::new(RequestId::Number(1), honored)
            ),
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{"toolsListChanged":true}}}"#
        );
        assert_eq!(subscriptions::LISTEN, "subscriptions/listen");
    }
}
