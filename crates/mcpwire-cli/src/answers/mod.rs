//! Answering the server's questions (elicitation, sampling, roots) from the flags, or by asking
//! the person at the terminal. One set of handlers, for both protocol revisions. Questions and
//! answers are reported on stderr.

mod field;
mod form;
mod formats;
mod scripted;

use crate::cli::Answers;
use crate::report::Reporter;
use mcpwire::client::{ClientBuilder, FormElicitation, UrlElicitation};
use mcpwire::protocol::SamplingContent;
use mcpwire::protocol::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitResult, ErrorObject,
    ListRootsResult, Role, Root,
};
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};

/// How elicitations are answered.
#[derive(Clone, Debug)]
enum Policy {
    Decline,
    Cancel,
    Scripted(Vec<String>),
    Interactive,
    /// Off a terminal with no answer given: cancel, with a note.
    Unanswered,
}

/// The answers to give, and what went wrong giving them.
#[derive(Clone)]
pub struct Questions {
    policy: Policy,
    sample: Option<String>,
    interactive: bool,
    roots: Vec<Root>,
    reporter: Reporter,
    unanswerable: Arc<Mutex<Option<String>>>,
}

impl Questions {
    /// The answers the flags give; interactive when stdin and stderr are a terminal.
    pub fn new(answers: &Answers, reporter: Reporter) -> Result<Self, String> {
        let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        let policy = if answers.decline {
            Policy::Decline
        } else if answers.cancel {
            Policy::Cancel
        } else if !answers.answer.is_empty() {
            Policy::Scripted(answers.answer.clone())
        } else if interactive {
            Policy::Interactive
        } else {
            Policy::Unanswered
        };
        let roots = answers
            .root
            .iter()
            .map(|path| root(path))
            .collect::<Result<_, _>>()?;
        Ok(Questions {
            policy,
            sample: answers.sample.clone(),
            interactive,
            roots,
            reporter,
            unanswerable: Arc::default(),
        })
    }

    /// The first question the flags could not answer (a required field missing), if any.
    pub fn unanswerable(&self) -> Option<String> {
        self.unanswerable.lock().expect("unanswerable lock").clone()
    }

    /// Sets the handlers on `builder`: forms and URLs always; sampling with `--sample` or on a
    /// terminal; roots with `--root`.
    pub fn install(&self, mut builder: ClientBuilder) -> ClientBuilder {
        let me = self.clone();
        builder = builder.on_form_elicitation(move |question| {
            let me = me.clone();
            async move { me.form(question).await }
        });
        let me = self.clone();
        builder = builder.on_url_elicitation(move |question| {
            let me = me.clone();
            async move { me.url(question).await }
        });
        if self.sample.is_some() || self.interactive {
            let me = self.clone();
            builder = builder.on_sampling(move |request| {
                let me = me.clone();
                async move { me.sampling(request).await }
            });
        }
        if !self.roots.is_empty() {
            let roots = ListRootsResult {
                roots: self.roots.clone(),
            };
            let reporter = self.reporter.clone();
            builder = builder.on_roots(move || {
                let (roots, reporter) = (roots.clone(), reporter.clone());
                async move {
                    let uris: Vec<&str> = roots.roots.iter().map(|r| r.uri.as_str()).collect();
                    reporter.line(&format!(
                        "? the server asks for the roots\n  -> {}",
                        uris.join(" ")
                    ));
                    roots
                }
            });
        }
        builder
    }

    async fn form(&self, question: FormElicitation) -> ElicitResult {
        let answer = match &self.policy {
            Policy::Decline => refuse(ElicitAction::Decline),
            Policy::Cancel => refuse(ElicitAction::Cancel),
            Policy::Scripted(answers) => {
                match scripted::fill(&question.requested_schema, answers) {
                    Ok(content) => ElicitResult {
                        action: ElicitAction::Accept,
                        content: Some(content),
                    },
                    Err(unfilled) => {
                        let why = unfilled.to_string();
                        self.unanswerable
                            .lock()
                            .expect("unanswerable lock")
                            .get_or_insert(why);
                        refuse(ElicitAction::Cancel)
                    }
                }
            }
            Policy::Interactive => {
                let reporter = self.reporter.clone();
                let asked = tokio::task::spawn_blocking(move || {
                    reporter.suspend(|| form::ask_form(&question))
                });
                return match asked.await {
                    Ok(Ok(answer)) => {
                        self.reporter.line(&format!("  -> {}", summary(&answer)));
                        answer
                    }
                    _ => refuse(ElicitAction::Cancel),
                };
            }
            Policy::Unanswered => {
                self.reporter.line(&format!("? {}", question.message));
                self.reporter.line(
                    "  -> cancel (not a terminal, and no --answer, --decline or --cancel given)",
                );
                return refuse(ElicitAction::Cancel);
            }
        };
        self.reporter.line(&format!(
            "? {}\n  -> {}",
            question.message,
            summary(&answer)
        ));
        answer
    }

    async fn url(&self, question: UrlElicitation) -> ElicitResult {
        let answer = match &self.policy {
            Policy::Decline => refuse(ElicitAction::Decline),
            Policy::Cancel => refuse(ElicitAction::Cancel),
            Policy::Interactive => {
                let reporter = self.reporter.clone();
                let asked = tokio::task::spawn_blocking(move || {
                    reporter.suspend(|| form::ask_url(&question))
                });
                return match asked.await {
                    Ok(Ok(answer)) => answer,
                    _ => refuse(ElicitAction::Cancel),
                };
            }
            Policy::Scripted(_) | Policy::Unanswered => {
                self.reporter
                    .line(&format!("? {}\n  open: {}", question.message, question.url));
                self.reporter
                    .line("  -> cancel (a URL needs a person at a terminal)");
                return refuse(ElicitAction::Cancel);
            }
        };
        self.reporter.line(&format!(
            "? {}\n  open: {}\n  -> {}",
            question.message,
            question.url,
            summary(&answer)
        ));
        answer
    }

    async fn sampling(
        &self,
        request: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        let messages: Vec<String> = request
            .messages
            .iter()
            .map(|message| {
                let content = serde_json::to_value(&message.content).unwrap_or(Value::Null);
                match content.get("text").and_then(Value::as_str) {
                    Some(text) => text.to_owned(),
                    None => content.to_string(),
                }
            })
            .collect();
        let text = match &self.sample {
            Some(text) => {
                self.reporter.line(&format!(
                    "? the server asks the model: {}\n  -> {text}",
                    messages.join(" | ")
                ));
                text.clone()
            }
            None => {
                let reporter = self.reporter.clone();
                let asked = tokio::task::spawn_blocking(move || {
                    reporter.suspend(|| form::ask_sample(&messages))
                });
                match asked.await {
                    Ok(Ok(text)) => text,
                    _ => return Err(ErrorObject::new(-1, "the user did not answer")),
                }
            }
        };
        let content: SamplingContent =
            serde_json::from_value(json!({"type": "text", "text": text}))
                .map_err(|_| ErrorObject::internal())?;
        Ok(CreateMessageResult {
            role: Role::Assistant,
            content,
            model: "mcpwire-cli".into(),
            stop_reason: Some("endTurn".into()),
        })
    }
}

fn refuse(action: ElicitAction) -> ElicitResult {
    ElicitResult {
        action,
        content: None,
    }
}

fn summary(answer: &ElicitResult) -> String {
    let action = serde_json::to_value(answer.action).unwrap_or(Value::Null);
    let action = action.as_str().unwrap_or("?").to_owned();
    match &answer.content {
        Some(content) => format!("{action} {}", Value::Object(content.clone())),
        None => action,
    }
}

fn root(path: &std::path::Path) -> Result<Root, String> {
    let absolute =
        std::path::absolute(path).map_err(|e| format!("--root {}: {e}", path.display()))?;
    let uri = url::Url::from_file_path(&absolute)
        .map_err(|()| format!("--root {}: not a file path", path.display()))?;
    let name = absolute
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    Ok(Root {
        uri: uri.to_string(),
        name,
    })
}
