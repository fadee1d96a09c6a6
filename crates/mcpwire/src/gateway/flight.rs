//! A backend call under way for one caller: the future of the call (polled by the handler,
//! or on a task of its own while it is held between rounds), the questions it asks and the
//! progress and log messages it reports, passed on to the caller by whoever waits on it.

use super::link::Failure;
use crate::client::{Round, ServerQuestion};
use crate::context::Context;
use crate::protocol::progress::ProgressParams;
use crate::protocol::{ErrorObject, LoggingMessageParams};
use serde_json::Value;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use tokio::sync::{mpsc, oneshot};

/// A backend's round: its final result as the backend wrote it, or its questions.
pub(crate) type Answered = Round<Box<RawValue>>;
/// An answer to a question: its result's JSON, or the error the backend is told.
pub(crate) type Answer = Result<Value, ErrorObject>;
/// The backend call, as a future.
pub(crate) type Backend = Pin<Box<dyn Future<Output = Result<Answered, Failure>> + Send>>;

/// What a backend call reports while it runs, passed on to the caller in the order it came.
pub(crate) enum Note {
    Progress(ProgressParams),
    Log(LoggingMessageParams),
}

impl Note {
    /// Passes the note on to the caller of `context`, as the front server reports its own
    /// tools' (a log message only at or above the level the caller asked for).
    async fn pass_on(self, context: &Context) {
        match self {
            Note::Progress(ProgressParams {
                progress,
                total,
                message,
                ..
            }) => context.report_progress(progress, total, message).await,
            Note::Log(LoggingMessageParams {
                level,
                logger,
                data,
            }) => context.log(level, logger.as_deref(), data).await,
        }
    }
}

/// A question of a held call, waiting for the caller's answer.
pub(crate) struct Asked {
    pub(crate) question: ServerQuestion,
    pub(crate) answer: oneshot::Sender<Answer>,
}

/// A backend call under way: where it runs, and what it sends the caller meanwhile.
pub(crate) struct InFlight {
    /// The backend's name, for the caller's error when the call is lost.
    backend: String,
    running: Running,
    questions: mpsc::Receiver<Asked>,
    notes: mpsc::Receiver<Note>,
    /// The questions passed on to the caller, by the key they were asked under.
    pub(crate) waiting: Vec<(String, oneshot::Sender<Answer>)>,
    /// How many questions were passed on so far (their keys are `q1`, `q2`, …).
    pub(crate) asked: u64,
}

enum Running {
    /// Polled by the handler itself.
    Here(Backend),
    /// On a task of its own (the call is held between rounds); aborted when dropped.
    Spawned {
        finished: oneshot::Receiver<Result<Answered, Failure>>,
        _task: AbortOnDrop,
    },
    Done,
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What a backend call came to next.
pub(crate) enum Event {
    Done(Result<Answered, Failure>),
    Asked(Vec<Asked>),
}

impl InFlight {
    pub(crate) fn new(
        backend: String,
        running: Backend,
        questions: mpsc::Receiver<Asked>,
        notes: mpsc::Receiver<Note>,
    ) -> Self {
        Self {
            backend,
            running: Running::Here(running),
            questions,
            notes,
            waiting: Vec::new(),
            asked: 0,
        }
    }

    /// A call already over (tests of the table).
    #[cfg(test)]
    pub(crate) fn finished() -> Self {
        let (_, questions) = mpsc::channel(1);
        let (_, notes) = mpsc::channel(1);
        let done = Box::pin(async {
            Ok(Round::Complete(
                RawValue::from_string("{}".into()).expect("JSON"),
            ))
        });
        let mut call = Self::new("b".into(), done, questions, notes);
        call.running = Running::Done;
        call
    }

    /// Waits for the call's end or its next questions, passing its progress and log messages
    /// on to `context`.
    pub(crate) async fn next(&mut self, context: &Context) -> Event {
        loop {
            tokio::select! {
                done = finish(&mut self.running, &self.backend) => {
                    // What the backend reported before its answer came is passed on first.
                    while let Ok(note) = self.notes.try_recv() {
                        note.pass_on(context).await;
                    }
                    return Event::Done(done);
                }
                Some(asked) = self.questions.recv() => {
                    let mut all = vec![asked];
                    while let Ok(more) = self.questions.try_recv() {
                        all.push(more);
                    }
                    return Event::Asked(all);
                }
                Some(note) = self.notes.recv() => note.pass_on(context).await,
            }
        }
    }

    /// Moves the call onto a task of its own, to wait between rounds.
    pub(crate) fn detach(&mut self) {
        if let Running::Here(_) = self.running {
            let Running::Here(backend) = std::mem::replace(&mut self.running, Running::Done) else {
                unreachable!("matched above");
            };
            let (done, finished) = oneshot::channel();
            let task = tokio::spawn(async move {
                let _ = done.send(backend.await);
            });
            self.running = Running::Spawned {
                finished,
                _task: AbortOnDrop(task),
            };
        }
    }
}

async fn finish(running: &mut Running, name: &str) -> Result<Answered, Failure> {
    let outcome = match running {
        Running::Here(backend) => backend.await,
        Running::Spawned { finished, .. } => (finished.await)
            .unwrap_or_else(|_| Err(Failure::Unavailable(format!("backend '{name}' failed")))),
        Running::Done => std::future::pending().await,
    };
    *running = Running::Done;
    outcome
}
