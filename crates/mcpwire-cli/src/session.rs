//! One command's conversation with the server: connect, show its log messages on stderr, run
//! the command, close politely. Ctrl-C during the command drops its request (the client then
//! sends `notifications/cancelled`) and exits after the cancellation went out.

use crate::answers::Questions;
use crate::cli::{LogLevel, Session};
use crate::connect::connect;
use crate::exit::{Failure, INTERRUPTED};
use crate::report::Reporter;
use mcpwire::client::Client;
use mcpwire::protocol::{Era, LoggingLevel};
use std::future::Future;
use std::time::Duration;

/// What a command needs while it runs.
pub struct Context {
    /// The connection.
    pub client: Client,
    /// stderr.
    pub reporter: Reporter,
    /// `--json`.
    pub json: bool,
}

/// Connects as `session` says, runs `command`, closes.
pub async fn run<F, Fut>(session: &Session, command: F) -> Result<(), Failure>
where
    F: FnOnce(Context) -> Fut,
    Fut: Future<Output = Result<(), Failure>>,
{
    let level: LoggingLevel = session.common.log_level.unwrap_or(LogLevel::Info).into();
    let reporter = Reporter::new(level);
    let questions = Questions::new(&session.answers, reporter.clone()).map_err(Failure::usage)?;
    let client = connect(&session.target, &session.common, &questions).await?;
    let mut notes = client.notifications();
    let log = reporter.clone();
    let logging = tokio::spawn(async move {
        while let Some(note) = notes.next().await {
            if note.method == "notifications/message" {
                log.log(&note.params);
            }
        }
    });
    if session.common.log_level.is_some()
        && (client.era() == Era::Modern || client.server().capabilities.logging.is_some())
    {
        client.set_logging_level(level).await?;
    }
    let context = Context {
        client: client.clone(),
        reporter: reporter.clone(),
        json: session.common.json,
    };
    let mut running = Box::pin(command(context));
    let finished = tokio::select! {
        outcome = &mut running => Some(outcome),
        _ = crate::signals::stop_requested() => None,
    };
    let outcome = match finished {
        Some(outcome) => outcome,
        None => {
            // Dropping the command drops its request: the client sends its cancellation.
            drop(running);
            tokio::time::sleep(Duration::from_millis(200)).await;
            Err(Failure {
                code: INTERRUPTED,
                message: "interrupted: the request was cancelled".into(),
            })
        }
    };
    reporter.finish();
    client.close().await;
    logging.abort();
    match questions.unanswerable() {
        Some(why) => Err(Failure::usage(why)),
        None => outcome,
    }
}
