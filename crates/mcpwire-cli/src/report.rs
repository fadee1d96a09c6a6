//! What goes to stderr while a command runs: progress (a bar on a terminal, plain lines
//! otherwise), the server's log messages at the chosen level, and the questions and their
//! answers. Anything printed while a bar is showing goes above it.

use indicatif::{ProgressBar, ProgressStyle};
use mcpwire::protocol::LoggingLevel;
use mcpwire::protocol::ProgressParams;
use serde_json::Value;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};

/// The stderr of one command; cheap to clone.
#[derive(Clone)]
pub struct Reporter {
    inner: Arc<Inner>,
}

struct Inner {
    terminal: bool,
    bar: Mutex<Option<ProgressBar>>,
    log_level: LoggingLevel,
}

impl Reporter {
    /// A reporter showing log messages at `log_level` and above.
    pub fn new(log_level: LoggingLevel) -> Self {
        let terminal = std::io::stderr().is_terminal();
        Reporter {
            inner: Arc::new(Inner {
                terminal,
                bar: Mutex::new(None),
                log_level,
            }),
        }
    }

    /// Prints one line on stderr (above the progress bar, if one shows).
    pub fn line(&self, text: &str) {
        match self.inner.bar.lock().expect("bar lock").as_ref() {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Runs `f` (e.g. an interactive prompt) with the progress bar hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        let bar = self.inner.bar.lock().expect("bar lock").clone();
        match bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Shows one progress notification.
    pub fn progress(&self, progress: &ProgressParams) {
        let message = progress.message.clone().unwrap_or_default();
        if !self.inner.terminal {
            let total = progress.total.map_or(String::new(), |t| format!("/{t}"));
            let sep = if message.is_empty() { "" } else { " " };
            eprintln!("progress {}{total}{sep}{message}", progress.progress);
            return;
        }
        let mut bar = self.inner.bar.lock().expect("bar lock");
        let bar = bar.get_or_insert_with(|| match progress.total {
            Some(_) => ProgressBar::new(0).with_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                    .expect("a valid template"),
            ),
            None => ProgressBar::new_spinner(),
        });
        if let Some(total) = progress.total {
            bar.set_length(total.max(0.0) as u64);
        }
        bar.set_position(progress.progress.max(0.0) as u64);
        bar.set_message(message);
    }

    /// Removes the progress bar, if any.
    pub fn finish(&self) {
        if let Some(bar) = self.inner.bar.lock().expect("bar lock").take() {
            bar.finish_and_clear();
        }
    }

    /// Shows a `notifications/message` at or above the chosen level.
    pub fn log(&self, params: &Value) {
        let level = params
            .get("level")
            .and_then(|l| serde_json::from_value::<LoggingLevel>(l.clone()).ok())
            .unwrap_or(LoggingLevel::Info);
        if level < self.inner.log_level {
            return;
        }
        let logger = params.get("logger").and_then(Value::as_str);
        let data = match params.get("data") {
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let level = serde_json::to_value(level).ok();
        let level = level.as_ref().and_then(Value::as_str).unwrap_or("info");
        match logger {
            Some(logger) => self.line(&format!("[{level}] {logger}: {data}")),
            None => self.line(&format!("[{level}] {data}")),
        }
    }
}
