//! The client handle and its typed calls.

use super::error::ClientError;
use super::notifications::Notifications;
use super::options::CallOptions;
use super::peer::Peer;
use super::requests::{self, CallTool, Empty, ListPage, SetLevel};
use super::rounds::{Round, one_round, request_with_input};
use super::server_details::ServerDetails;
use super::session::Session;
use crate::protocol::completion::{CompletionArgument, CompletionContext};
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::{
    COMPLETION_COMPLETE, LOGGING_SET_LEVEL, PING, PROMPTS_GET, PROMPTS_LIST, RESOURCES_LIST,
    RESOURCES_READ, RESOURCES_SUBSCRIBE, RESOURCES_TEMPLATES_LIST, RESOURCES_UNSUBSCRIBE,
    ROOTS_LIST_CHANGED, TOOLS_CALL, TOOLS_LIST,
};
use crate::protocol::resources::{SubscribeParams, UnsubscribeParams};
use crate::protocol::{
    CallToolResult, CompleteParams, CompleteResult, CompletionReference, Era, GetPromptParams,
    GetPromptResult, LoggingLevel, Prompt, ReadResourceParams, ReadResourceResult, Resource,
    ResourceTemplate, Tool,
};
use crate::wire::header_params::header_params;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A connection to one MCP server, on either protocol revision. Cheap to clone; every clone
/// shares the connection, and every clone runs the full `input_required` loop.
///
/// Build one with [`Client::builder`].
///
/// # Examples
///
/// ```no_run
/// use mcpwire::client::{Client, StdioServer};
///
/// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
/// let client = Client::builder().connect_stdio(StdioServer::new("my-mcp-server")).await?;
/// for tool in client.list_tools().await? {
///     println!("{}", tool.name);
/// }
/// let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await?;
/// println!("{:?}", result.structured_content);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    session: Arc<Session>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = self.peer().mode();
        f.debug_struct("Client")
            .field("era", &mode.era)
            .field("protocol_version", &mode.version)
            .finish_non_exhaustive()
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    #[serde(flatten)]
    items: Map<String, Value>,
    next_cursor: Option<String>,
}

impl Client {
    /// The client of an open conversation.
    pub(crate) fn new(session: Session) -> Self {
        Self {
            session: Arc::new(session),
        }
    }

    /// The conversation.
    pub(crate) fn session(&self) -> &Arc<Session> {
        &self.session
    }

    fn peer(&self) -> &Arc<Peer> {
        self.session.peer()
    }

    /// The era in use: [`Era::Legacy`] (2025-11-25) or [`Era::Modern`] (2026-07-28).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) {
    /// if client.era() == mcpwire::protocol::Era::Modern {
    ///     println!("stateless requests");
    /// }
    /// # }
    /// ```
    pub fn era(&self) -> Era {
        self.peer().mode().era
    }

    /// What the server said about itself (revision, capabilities, info, instructions).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) {
    /// println!("{:?}", client.server().instructions);
    /// # }
    /// ```
    pub fn server(&self) -> ServerDetails {
        self.session.details()
    }

    /// The server's notifications from now on (list changes, resource updates, log messages).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) {
    /// let mut notes = client.notifications();
    /// if let Some(note) = notes.next().await {
    ///     println!("{}", note.method);
    /// }
    /// # }
    /// ```
    pub fn notifications(&self) -> Notifications {
        Notifications(self.peer().subscribe())
    }

    /// Sends any request and returns its raw result (after any `input_required` rounds).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let raw = client.request("tools/list", serde_json::json!({})).await?;
    /// println!("{raw}");
    /// # Ok(()) }
    /// ```
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let raw = self
            .raw(method, requests::object(params)?, &CallOptions::new())
            .await?;
        Ok(serde_json::from_str(raw.get())?)
    }

    /// [`request`](Client::request) with options: a timeout, and a progress callback (the
    /// request carries a progress token, and progress extends the wait). The raw result is what
    /// a tool such as a command line prints as it came.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::CallOptions;
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let options = CallOptions::new().on_progress(|p| eprintln!("{}/{:?}", p.progress, p.total));
    /// let params = serde_json::json!({"name": "slow", "arguments": {}});
    /// let raw = client.request_with("tools/call", params, options).await?;
    /// println!("{raw}");
    /// # Ok(()) }
    /// ```
    pub async fn request_with(
        &self,
        method: &str,
        params: Value,
        options: CallOptions,
    ) -> Result<Value, ClientError> {
        let raw = self
            .raw(method, requests::object(params)?, &options)
            .await?;
        Ok(serde_json::from_str(raw.get())?)
    }

    /// Sends one round of a request and returns what it came back with, without answering
    /// its questions: on 2026-07-28 an `input_required` result is handed back as
    /// [`Round::InputRequired`]; send the next round with the answers in `inputResponses` and
    /// its `requestState` as `request_state`. On 2025-11-25 the result is always complete (the
    /// server's questions are answered while the request runs, by the call's
    /// [`on_question`](CallOptions::on_question) or the client's handlers). What a gateway
    /// uses to pass a backend's rounds on to its own caller.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::{CallOptions, Round};
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let params = serde_json::json!({"name": "order_book", "arguments": {"title": "Dune"}});
    /// match client.request_round("tools/call", params, None, CallOptions::new()).await? {
    ///     Round::Complete(result) => println!("{result}"),
    ///     Round::InputRequired { input_requests, .. } => println!("asks {input_requests:?}"),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn request_round(
        &self,
        method: &str,
        params: Value,
        request_state: Option<&RawValue>,
        options: CallOptions,
    ) -> Result<Round, ClientError> {
        let params = requests::object(params)?;
        one_round(&self.session, method, params, request_state, &options).await
    }

    /// [`request_with`](Client::request_with), its result left as the server sent it: the
    /// bytes of its JSON, never read into a `Value`, its revision's fields (`resultType`,
    /// `_meta`) included. For what passes a result on (a proxy, a bridge) or prints it as it
    /// came.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::CallOptions;
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let params = serde_json::json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    /// let raw = client.request_raw("tools/call", params, CallOptions::new()).await?;
    /// println!("{}", raw.get());
    /// # Ok(()) }
    /// ```
    pub async fn request_raw(
        &self,
        method: &str,
        params: Value,
        options: CallOptions,
    ) -> Result<Box<RawValue>, ClientError> {
        self.raw(method, requests::object(params)?, &options).await
    }

    /// [`request_round`](Client::request_round), its final result left as the server sent it
    /// (as [`request_raw`](Client::request_raw) leaves it); the questions of an
    /// `input_required` round are read, to be answered.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::{CallOptions, Round};
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let params = serde_json::json!({"name": "order_book", "arguments": {"title": "Dune"}});
    /// match client.request_round_raw("tools/call", params, None, CallOptions::new()).await? {
    ///     Round::Complete(raw) => println!("{}", raw.get()),
    ///     Round::InputRequired { input_requests, .. } => println!("asks {input_requests:?}"),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn request_round_raw(
        &self,
        method: &str,
        params: Value,
        request_state: Option<&RawValue>,
        options: CallOptions,
    ) -> Result<Round<Box<RawValue>>, ClientError> {
        let params = requests::object(params)?;
        self.raw_round(method, params, request_state, &options)
            .await
    }

    /// [`request_raw`](Client::request_raw) on `params` already an object, its options
    /// borrowed: what the other requests and the gateway send through.
    pub(crate) async fn raw(
        &self,
        method: &str,
        params: Map<String, Value>,
        options: &CallOptions,
    ) -> Result<Box<RawValue>, ClientError> {
        request_with_input(&self.session, method, params, options).await
    }

    /// [`request_round_raw`](Client::request_round_raw) on `params` already an object, its
    /// options borrowed.
    pub(crate) async fn raw_round(
        &self,
        method: &str,
        params: Map<String, Value>,
        request_state: Option<&RawValue>,
        options: &CallOptions,
    ) -> Result<Round<Box<RawValue>>, ClientError> {
        super::rounds::one_raw_round(&self.session, method, params, request_state, options).await
    }

    async fn request_as<T: DeserializeOwned>(
        &self,
        method: &str,
        params: Map<String, Value>,
        options: &CallOptions,
    ) -> Result<T, ClientError> {
        let raw = self.raw(method, params, options).await?;
        Ok(serde_json::from_str(raw.get())?)
    }

    /// Every item of a paginated listing (`key` in each page), following `nextCursor` up to the
    /// page cap. An empty cursor is a cursor, not the end.
    pub(super) async fn list_all(
        &self,
        method: &str,
        key: &str,
    ) -> Result<Vec<Value>, ClientError> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let max_pages = self.peer().settings.max_pages;
        for _ in 0..max_pages {
            let params = requests::fields(&ListPage {
                cursor: cursor.take(),
            })?;
            let mut page: Page = self.request_as(method, params, &CallOptions::new()).await?;
            match page.items.remove(key) {
                Some(Value::Array(page_items)) => items.extend(page_items),
                _ => {
                    return Err(ClientError::Protocol(format!(
                        "{method} result has no {key}"
                    )));
                }
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(items),
            }
        }
        Err(ClientError::TooManyPages(max_pages))
    }

    /// Every tool, all pages (up to the page cap). Tools whose `x-mcp-header` annotations break
    /// the spec's rules are left out; input schemas are kept as sent.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let tools = client.list_tools().await?;
    /// println!("{} tools", tools.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        let mut tools = Vec::new();
        let mut mirrored = crate::wire::fast_map::FastMap::default();
        for item in self.list_all(TOOLS_LIST, "tools").await? {
            let Ok(tool) = serde_json::from_value::<Tool>(item) else {
                continue;
            };
            match header_params(&tool.name, &tool.input_schema) {
                Ok(params) => {
                    mirrored.insert(tool.name.clone(), params);
                    tools.push(tool);
                }
                Err(_) => continue,
            }
        }
        *self.peer().tool_headers.lock().expect("tool headers lock") = mirrored;
        Ok(tools)
    }

    /// Calls a tool. A tool's own failure is a result with `is_error: Some(true)`, not an `Err`.
    ///
    /// On 2026-07-28 the arguments the tool's schema marks with `x-mcp-header` are mirrored in
    /// `Mcp-Param-*` headers, as learnt from the last [`list_tools`](Client::list_tools); when
    /// the server reports a header mismatch (`-32020`) the tools are listed again and the call
    /// retried once.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let result = client.call_tool("order_book", serde_json::json!({"title": "Dune"})).await?;
    /// assert_ne!(result.is_error, Some(true));
    /// # Ok(()) }
    /// ```
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<CallToolResult, ClientError> {
        self.call_tool_with(name, arguments, CallOptions::new())
            .await
    }

    /// Calls a tool with options (timeout, progress callback).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::CallOptions;
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let options = CallOptions::new().on_progress(|p| eprintln!("{}", p.progress));
    /// let result = client.call_tool_with("slow", serde_json::json!({}), options).await?;
    /// # drop(result); Ok(()) }
    /// ```
    pub async fn call_tool_with(
        &self,
        name: &str,
        arguments: impl Serialize,
        options: CallOptions,
    ) -> Result<CallToolResult, ClientError> {
        let params = requests::fields(&CallTool { name, arguments })?;
        match self.request_as(TOOLS_CALL, params.clone(), &options).await {
            // The server checks Mcp-Param-* headers the client did not know about (the tool
            // was never listed, or changed): list the tools again and retry once, as the spec
            // suggests.
            Err(ClientError::Rpc(error))
                if error.code == code::HEADER_MISMATCH && self.era() == Era::Modern =>
            {
                self.list_tools().await?;
                self.request_as(TOOLS_CALL, params, &options).await
            }
            outcome => outcome,
        }
    }

    /// Calls a tool and deserializes its `structuredContent` into `T`. A result with `isError`
    /// is [`ClientError::Tool`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// #[derive(serde::Deserialize)]
    /// struct Stock { title: String, copies: u32 }
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let stock: Stock = client.call_tool_as("book_info", serde_json::json!({"title": "Dune"})).await?;
    /// println!("{}: {}", stock.title, stock.copies);
    /// # Ok(()) }
    /// ```
    pub async fn call_tool_as<T: DeserializeOwned>(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<T, ClientError> {
        let result = self.call_tool(name, arguments).await?;
        if result.is_error == Some(true) {
            return Err(ClientError::Tool(Box::new(result)));
        }
        let structured = result
            .structured_content
            .ok_or_else(|| ClientError::Protocol("the result has no structuredContent".into()))?;
        Ok(serde_json::from_value(structured)?)
    }

    /// Every resource, all pages.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// for resource in client.list_resources().await? { println!("{}", resource.uri); }
    /// # Ok(()) }
    /// ```
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ClientError> {
        typed(self.list_all(RESOURCES_LIST, "resources").await?)
    }

    /// Every resource template, all pages.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// for template in client.list_resource_templates().await? { println!("{}", template.uri_template); }
    /// # Ok(()) }
    /// ```
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ClientError> {
        typed(
            self.list_all(RESOURCES_TEMPLATES_LIST, "resourceTemplates")
                .await?,
        )
    }

    /// Reads a resource.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let read = client.read_resource("books://Dune/blurb").await?;
    /// println!("{} parts", read.contents.len());
    /// # Ok(()) }
    /// ```
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        let params = requests::fields(&ReadResourceParams {
            uri: uri.into(),
            input_responses: None,
            request_state: None,
        })?;
        self.request_as(RESOURCES_READ, params, &CallOptions::new())
            .await
    }

    /// Subscribes to a resource's updates (2025-11-25; they arrive as
    /// `notifications/resources/updated` in [`Client::notifications`]).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// client.subscribe_resource("books://Dune/blurb").await?;
    /// # Ok(()) }
    /// ```
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        self.legacy_only(RESOURCES_SUBSCRIBE)?;
        let params = requests::fields(&SubscribeParams { uri: uri.into() })?;
        self.request_as::<Value>(RESOURCES_SUBSCRIBE, params, &CallOptions::new())
            .await
            .map(drop)
    }

    /// Ends a subscription (2025-11-25).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// client.unsubscribe_resource("books://Dune/blurb").await?;
    /// # Ok(()) }
    /// ```
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        self.legacy_only(RESOURCES_UNSUBSCRIBE)?;
        let params = requests::fields(&UnsubscribeParams { uri: uri.into() })?;
        self.request_as::<Value>(RESOURCES_UNSUBSCRIBE, params, &CallOptions::new())
            .await
            .map(drop)
    }

    /// Every prompt, all pages.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// for prompt in client.list_prompts().await? { println!("{}", prompt.name); }
    /// # Ok(()) }
    /// ```
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ClientError> {
        typed(self.list_all(PROMPTS_LIST, "prompts").await?)
    }

    /// Gets a prompt with its arguments.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let prompt = client.get_prompt("review", [("code", "fn main() {}")]).await?;
    /// println!("{} messages", prompt.messages.len());
    /// # Ok(()) }
    /// ```
    pub async fn get_prompt<K: Into<String>, V: Into<String>>(
        &self,
        name: &str,
        arguments: impl IntoIterator<Item = (K, V)>,
    ) -> Result<GetPromptResult, ClientError> {
        let arguments: BTreeMap<String, String> = arguments
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        let params = requests::fields(&GetPromptParams {
            name: name.into(),
            arguments: Some(arguments),
            input_responses: None,
            request_state: None,
        })?;
        self.request_as(PROMPTS_GET, params, &CallOptions::new())
            .await
    }

    /// Asks the server to complete an argument of a prompt or resource template.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::protocol::CompletionReference;
    ///
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// let reference = CompletionReference::Prompt { name: "review".into(), title: None };
    /// let done = client.complete(reference, "language", "Ru").await?;
    /// println!("{:?}", done.completion.values);
    /// # Ok(()) }
    /// ```
    pub async fn complete(
        &self,
        reference: CompletionReference,
        argument: &str,
        value: &str,
    ) -> Result<CompleteResult, ClientError> {
        self.complete_params(reference, argument, value, None).await
    }

    /// [`complete`](Client::complete) with the values already chosen for the reference's other
    /// arguments (the request's `context.arguments`), for suggestions that depend on them.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::{Client, EraChoice};
    /// use mcpwire::prelude::*;
    /// use mcpwire::protocol::{Completion, CompletionReference};
    ///
    /// /// A repository.
    /// #[resource(uri = "repo://{owner}/{name}")]
    /// async fn repository(owner: String, name: String) -> String { format!("{owner}/{name}") }
    ///
    /// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = McpServer::new("repos").resource(repository)?.completion(|request, _ctx| async move {
    ///     let owner = request.context.and_then(|c| c.arguments).and_then(|a| a.get("owner").cloned());
    ///     Completion::from_values([format!("{}/{}", owner.unwrap_or_default(), request.argument.value)])
    /// });
    /// let client = Client::builder().era(EraChoice::Modern).connect_memory(server).await?;
    /// let template = CompletionReference::Resource { uri: "repo://{owner}/{name}".into() };
    /// let done = client.complete_in_context(template, "name", "mc", [("owner", "acme")]).await?;
    /// assert_eq!(done.completion.values, ["acme/mc"]);
    /// # Ok(()) }
    /// ```
    pub async fn complete_in_context<K: Into<String>, V: Into<String>>(
        &self,
        reference: CompletionReference,
        argument: &str,
        value: &str,
        chosen: impl IntoIterator<Item = (K, V)>,
    ) -> Result<CompleteResult, ClientError> {
        let arguments: BTreeMap<String, String> = chosen
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        let context = CompletionContext {
            arguments: Some(arguments),
        };
        self.complete_params(reference, argument, value, Some(context))
            .await
    }

    async fn complete_params(
        &self,
        reference: CompletionReference,
        argument: &str,
        value: &str,
        context: Option<CompletionContext>,
    ) -> Result<CompleteResult, ClientError> {
        let params = requests::fields(&CompleteParams {
            reference,
            argument: CompletionArgument {
                name: argument.into(),
                value: value.into(),
            },
            context,
        })?;
        self.request_as(COMPLETION_COMPLETE, params, &CallOptions::new())
            .await
    }

    /// Sets the lowest level of log messages the server sends. On 2025-11-25 this is
    /// `logging/setLevel`; on 2026-07-28 the level goes in every later request's `_meta`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// client.set_logging_level(mcpwire::protocol::LoggingLevel::Warning).await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_logging_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        match self.era() {
            Era::Legacy => {
                let _changing = self.peer().level_change.lock().await;
                self.send_set_level(level).await
            }
            Era::Modern => {
                *self.peer().log_level.lock().expect("log level lock") = Some(level);
                Ok(())
            }
        }
    }

    /// Makes sure the server sends log messages at `level` and above, never asking for fewer
    /// than before: on 2025-11-25, `logging/setLevel` is sent only when no level was set on this
    /// session yet or a higher one was, and only to a server that declares `logging`. On
    /// 2026-07-28 it does nothing, as every request names its own level
    /// ([`CallOptions::log_level`]).
    ///
    /// What a client shared by several callers uses (a gateway's connection to a backend): the
    /// session then carries what the most talkative of them asked for, and each caller's own
    /// level is applied to the messages on their way to it.
    ///
    /// A level is asked once: a server that refuses it, or does not answer within the client's
    /// timeout, is not asked again for it or a higher one (so that a server that will not take
    /// it does not hold up every later caller).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// use mcpwire::protocol::LoggingLevel;
    ///
    /// client.lower_logging_level(LoggingLevel::Warning).await?; // sends `warning`
    /// client.lower_logging_level(LoggingLevel::Error).await?; // sends nothing: warning is lower
    /// # Ok(()) }
    /// ```
    pub async fn lower_logging_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        let is_low_enough = || {
            let set = *self.peer().log_level.lock().expect("log level lock");
            set.is_some_and(|set| set <= level)
        };
        if self.era() == Era::Modern || is_low_enough() || !self.session.declares_logging() {
            return Ok(());
        }
        let _changing = self.peer().level_change.lock().await;
        if is_low_enough() {
            return Ok(());
        }
        *self.peer().log_level.lock().expect("log level lock") = Some(level);
        self.request_set_level(level).await
    }

    /// Sends `logging/setLevel` (2025-11-25) and records the level once the server accepts it.
    async fn send_set_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        self.request_set_level(level).await?;
        *self.peer().log_level.lock().expect("log level lock") = Some(level);
        Ok(())
    }

    /// Sends `logging/setLevel` (2025-11-25) and waits for the answer.
    async fn request_set_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        let params = requests::fields(&SetLevel { level })?;
        self.request_as::<Value>(LOGGING_SET_LEVEL, params, &CallOptions::new())
            .await
            .map(drop)
    }

    /// Checks that the server answers (2025-11-25; 2026-07-28 has no `ping`).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// client.ping().await?;
    /// # Ok(()) }
    /// ```
    pub async fn ping(&self) -> Result<(), ClientError> {
        self.legacy_only(PING)?;
        let params = requests::fields(&Empty {})?;
        self.request_as::<Value>(PING, params, &CallOptions::new())
            .await
            .map(drop)
    }

    /// Tells the server the client's roots changed (2025-11-25
    /// `notifications/roots/list_changed`; 2026-07-28 servers ask for the roots with each
    /// request instead, so there this is [`ClientError::Unsupported`]).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) -> Result<(), mcpwire::client::ClientError> {
    /// client.notify_roots_changed().await?;
    /// # Ok(()) }
    /// ```
    pub async fn notify_roots_changed(&self) -> Result<(), ClientError> {
        self.legacy_only(ROOTS_LIST_CHANGED)?;
        self.peer().notify(ROOTS_LIST_CHANGED, &Empty {}).await
    }

    /// Ends the connection politely: a stdio child gets its stdin closed and a moment to exit
    /// before it is killed; a 2025-11-25 HTTP session is deleted. (Dropping the last clone
    /// of the client kills a stdio child at once.) Calls after this fail.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn demo(client: mcpwire::client::Client) {
    /// client.close().await;
    /// # }
    /// ```
    pub async fn close(&self) {
        self.peer().transport().close().await;
    }

    fn legacy_only(&self, method: &'static str) -> Result<(), ClientError> {
        match self.era() {
            Era::Legacy => Ok(()),
            Era::Modern => Err(ClientError::Unsupported(method)),
        }
    }
}

fn typed<T: DeserializeOwned>(items: Vec<Value>) -> Result<Vec<T>, ClientError> {
    items
        .into_iter()
        .map(|item| serde_json::from_value(item).map_err(ClientError::from))
        .collect()
}
