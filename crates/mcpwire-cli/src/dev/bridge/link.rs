//! One stdio server behind the bridge: the requests it is answering (their ids renumbered, so
//! that several HTTP callers cannot collide), and where each message it writes goes: a
//! response to its request's stream, a progress notification to the request holding its token,
//! anything else (its own requests to the client, log messages) to the latest open request.

use super::super::child::ServerProcess;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// What the server wrote for one request: its notifications and questions, then the response
/// (with the caller's own id), after which the channel closes.
pub type Events = mpsc::Receiver<Value>;

/// How many messages may wait for a slow caller: beyond, its notifications are dropped, and
/// the server's questions and responses wait (the caller reads, or goes away and is cancelled).
const BACKLOG: usize = 64;

struct Pending {
    /// The caller's id.
    original: Value,
    /// The caller's progress token, if it asked for progress.
    token: Option<Value>,
    events: mpsc::Sender<Value>,
}

/// Where one message of the server goes.
struct Delivery {
    to: mpsc::Sender<Value>,
    message: Value,
    /// A response or a question: never dropped.
    must: bool,
}

/// A stdio server process and its open requests.
pub struct Link {
    stdin: mpsc::UnboundedSender<String>,
    pending: Mutex<BTreeMap<i64, Pending>>,
    next_id: AtomicI64,
    alive: AtomicBool,
    process: Mutex<Option<ServerProcess>>,
}

impl Link {
    /// Starts `command` and its reader and writer.
    pub fn start(command: &[String]) -> std::io::Result<Arc<Link>> {
        let mut process = ServerProcess::start(command, Stdio::piped(), Stdio::piped(), true)?;
        let mut stdin = process.child().stdin.take().expect("piped stdin");
        let stdout = process.child().stdout.take().expect("piped stdout");
        let (writer, mut lines) = mpsc::unbounded_channel::<String>();
        let link = Arc::new(Link {
            stdin: writer,
            pending: Mutex::default(),
            next_id: AtomicI64::new(1),
            alive: AtomicBool::new(true),
            process: Mutex::new(Some(process)),
        });
        tokio::spawn(async move {
            while let Some(line) = lines.recv().await {
                let written = async {
                    stdin.write_all(line.as_bytes()).await?;
                    stdin.write_all(b"\n").await?;
                    stdin.flush().await
                };
                if written.await.is_err() {
                    break;
                }
            }
        });
        let reader = link.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let Ok(Value::Object(message)) = serde_json::from_str(&line) else {
                    continue;
                };
                let Some(delivery) = reader.route(message) else {
                    continue;
                };
                if delivery.must {
                    let _ = delivery.to.send(delivery.message).await;
                } else {
                    let _ = delivery.to.try_send(delivery.message);
                }
            }
            reader.ended();
        });
        Ok(link)
    }

    /// Whether the server is still running.
    pub fn alive(&self) -> bool {
        self.alive.load(Ordering::Acquire)
    }

    /// Sends a request from a caller; its events come back on the returned channel.
    pub fn request(&self, mut message: Map<String, Value>) -> (i64, Events) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let original = message
            .insert("id".into(), json!(id))
            .unwrap_or(Value::Null);
        let token = message
            .get("params")
            .and_then(|p| p.pointer("/_meta/progressToken"))
            .cloned();
        let (events, receiver) = mpsc::channel(BACKLOG);
        if !self.alive() {
            let _ = events.try_send(gone(original));
            return (id, receiver);
        }
        self.pending.lock().expect("pending lock").insert(
            id,
            Pending {
                original,
                token,
                events,
            },
        );
        let _ = self.stdin.send(Value::Object(message).to_string());
        (id, receiver)
    }

    /// Passes a caller's notification or response on (a cancellation names the request by the
    /// id the server knows).
    pub fn send(&self, mut message: Map<String, Value>) {
        let cancelled =
            message.get("method").and_then(Value::as_str) == Some("notifications/cancelled");
        if let Some(params) = message.get_mut("params").filter(|_| cancelled) {
            let asked = params.get("requestId").cloned();
            let pending = self.pending.lock().expect("pending lock");
            let ours = pending
                .iter()
                .rev()
                .find(|(_, p)| Some(&p.original) == asked.as_ref());
            if let Some((id, _)) = ours {
                params["requestId"] = json!(id);
            }
        }
        let _ = self.stdin.send(Value::Object(message).to_string());
    }

    /// The caller went away before the answer: tell the server.
    pub fn cancel(&self, id: i64) {
        if self
            .pending
            .lock()
            .expect("pending lock")
            .remove(&id)
            .is_some()
        {
            let note = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": id, "reason": "the HTTP client went away"}});
            let _ = self.stdin.send(note.to_string());
        }
    }

    /// Stops the server.
    pub async fn stop(&self) {
        let process = self.process.lock().expect("process lock").take();
        if let Some(process) = process {
            process.stop().await;
        }
    }

    fn route(&self, mut message: Map<String, Value>) -> Option<Delivery> {
        let mut pending = self.pending.lock().expect("pending lock");
        if !message.contains_key("method") {
            let id = message.get("id").and_then(Value::as_i64);
            let request = id.and_then(|id| pending.remove(&id))?;
            message.insert("id".into(), request.original);
            let message = Value::Object(message);
            return Some(Delivery {
                to: request.events,
                message,
                must: true,
            });
        }
        let question = message.contains_key("id");
        let token = message.get("params").and_then(|p| p.get("progressToken"));
        let by_token =
            token.and_then(|token| pending.values().find(|p| p.token.as_ref() == Some(token)));
        match by_token.or_else(|| pending.values().next_back()) {
            Some(request) => {
                let to = request.events.clone();
                Some(Delivery {
                    to,
                    message: Value::Object(message),
                    must: question,
                })
            }
            None => {
                if question {
                    // A question with no caller to ask: answer it, so the server does not wait.
                    let error = json!({"jsonrpc": "2.0", "id": message["id"],
                        "error": {"code": -32603, "message": "no client is connected to answer"}});
                    let _ = self.stdin.send(error.to_string());
                }
                None
            }
        }
    }

    fn ended(&self) {
        self.alive.store(false, Ordering::Release);
        let pending = std::mem::take(&mut *self.pending.lock().expect("pending lock"));
        for (_, request) in pending {
            let _ = request.events.try_send(gone(request.original));
        }
    }
}

/// The response a caller gets when the server exited before answering.
fn gone(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "the server exited"}})
}
