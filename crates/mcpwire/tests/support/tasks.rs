//! A raw-HTTP client of the tasks extension (2026-07-28), for the tasks tests: requests that
//! declare the extension (or not), as a given principal (`x-user`, see `support::http`).
#![allow(dead_code)]

use super::http::{MODERN, modern_headers};
use http::HeaderValue;
use serde_json::{Value, json};
use std::time::Duration;

/// The extension's id.
pub const TASKS: &str = "io.modelcontextprotocol/tasks";

/// One caller of a server at `url`.
pub struct Caller {
    pub url: String,
    pub client: reqwest::Client,
    /// Sent as `x-user` (the tests' authentication) when set.
    pub user: Option<&'static str>,
    /// Sent as `x-scopes` (the scopes of the caller's grant, for servers that read it) when set.
    pub scopes: Option<&'static str>,
    /// Whether requests declare the tasks extension.
    pub negotiates: bool,
    next_id: std::sync::atomic::AtomicU64,
}

impl Caller {
    pub fn new(url: &str) -> Self {
        Self {
            url: url.to_owned(),
            client: reqwest::Client::new(),
            user: None,
            scopes: None,
            negotiates: true,
            next_id: 1.into(),
        }
    }

    pub fn signed_in_as(mut self, user: &'static str) -> Self {
        self.user = Some(user);
        self
    }

    pub fn granted(mut self, scopes: &'static str) -> Self {
        self.scopes = Some(scopes);
        self
    }

    pub fn without_tasks(mut self) -> Self {
        self.negotiates = false;
        self
    }

    /// Sends `method` with `params` (plus this caller's `_meta`); the whole JSON-RPC response.
    pub async fn send(&self, method: &str, params: Value) -> Value {
        let response = self.post(method, params).await;
        let text = response.text().await.unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text:?}"))
    }

    /// Sends `method` with `params` (plus this caller's `_meta`); the HTTP response, unread.
    pub async fn post(&self, method: &str, mut params: Value) -> reqwest::Response {
        let extensions = if self.negotiates {
            json!({ TASKS: {} })
        } else {
            json!({})
        };
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {
                "elicitation": {},
                "extensions": extensions,
            },
        });
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut headers = modern_headers(&body);
        if let Some(user) = self.user {
            headers.insert("x-user", HeaderValue::from_static(user));
        }
        if let Some(scopes) = self.scopes {
            headers.insert("x-scopes", HeaderValue::from_static(scopes));
        }
        self.client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .headers(headers)
            .body(body.to_string())
            .send()
            .await
            .expect("the server answered")
    }

    /// `tools/call`; the result (panics on an error).
    pub async fn call(&self, tool: &str, arguments: Value) -> Value {
        let response = self
            .send("tools/call", json!({"name": tool, "arguments": arguments}))
            .await;
        result(response)
    }

    /// `tools/call`, which must create a task; its id.
    pub async fn start_task(&self, tool: &str, arguments: Value) -> String {
        let created = self.call(tool, arguments).await;
        assert_eq!(created["resultType"], "task", "{created}");
        created["taskId"].as_str().expect("a task id").to_owned()
    }

    /// `tasks/get`: the whole response.
    pub async fn get(&self, task: &str) -> Value {
        self.send("tasks/get", json!({"taskId": task})).await
    }

    /// `tasks/update` with `answers`: the whole response.
    pub async fn update(&self, task: &str, answers: Value) -> Value {
        self.send(
            "tasks/update",
            json!({"taskId": task, "inputResponses": answers}),
        )
        .await
    }

    /// `tasks/cancel`: the whole response.
    pub async fn cancel(&self, task: &str) -> Value {
        self.send("tasks/cancel", json!({"taskId": task})).await
    }

    /// Polls `tasks/get` until the task's status is `status` (10 s at most); the task.
    pub async fn wait_for(&self, task: &str, status: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let got = result(self.get(task).await);
            if got["status"] == status {
                return got;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "task {task} never became {status}; last: {got}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The `result` of a response, which must not be an error.
pub fn result(response: Value) -> Value {
    assert!(response.get("error").is_none(), "an error: {response}");
    response["result"].clone()
}

/// The `error` of a response, which must be one.
pub fn error(response: Value) -> Value {
    assert!(response.get("result").is_none(), "not an error: {response}");
    response["error"].clone()
}

/// The first text of a `CallToolResult`.
pub fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}
