//! The client that the official MCP conformance suite's client mode runs
//! (`scripts/conformance`, legs `client-2025-11-25` and `client-2026-07-28`).
//!
//! ```text
//! MCP_CONFORMANCE_SCENARIO=tools_call MCP_CONFORMANCE_PROTOCOL_VERSION=2025-11-25 \
//!     conformance_client http://localhost:3000/mcp
//! ```
//!
//! The suite appends the mock server's URL as the last argument and names the scenario, the
//! revision and (for some scenarios) a JSON context in the environment. Each scenario is one
//! function in `scenarios`; an unknown scenario gets the generic run (connect, list the tools,
//! call each); the auth/* scenarios log in first (`auth`). Exits 1 on an error; logs go to
//! stderr.

mod auth;
mod scenarios;

use mcpwire::client::{Client, ClientBuilder, EraChoice};
use mcpwire::protocol::{CreateMessageResult, ElicitAction, ElicitResult, ListRootsResult, Role};
use std::process::ExitCode;
use std::time::Duration;

/// What the suite tells the client about the run.
pub struct Run {
    pub scenario: String,
    pub url: String,
    pub era: EraChoice,
    pub context: serde_json::Value,
}

impl Run {
    fn from_env() -> Result<Run, String> {
        let url = std::env::args()
            .skip(1)
            .last()
            .ok_or("no server URL given")?;
        let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
        let era = match std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").as_deref() {
            Ok(version) if version >= "2026-07-28" => EraChoice::Modern,
            Ok(_) => EraChoice::Legacy,
            Err(_) => EraChoice::Auto,
        };
        let context = match std::env::var("MCP_CONFORMANCE_CONTEXT") {
            Ok(json) => serde_json::from_str(&json).map_err(|e| format!("bad context: {e}"))?,
            Err(_) => serde_json::Value::Null,
        };
        Ok(Run {
            scenario,
            url,
            era,
            context,
        })
    }

    /// Connects with every capability declared (stub answers) and the run's era, or `era`.
    pub async fn connect(&self, era: EraChoice) -> Result<Client, mcpwire::client::ClientError> {
        let mut builder = builder().era(era);
        if let Some(oauth) = auth::oauth_for(self).await {
            builder = builder.oauth(oauth);
        }
        builder.connect_http(&self.url).await
    }
}

/// A client declaring elicitation (accepted, with the schema's defaults), sampling and roots.
fn builder() -> ClientBuilder {
    Client::builder()
        .info("mcpwire-conformance-client", env!("CARGO_PKG_VERSION"))
        .timeout(Duration::from_secs(20))
        .on_form_elicitation(|question| async move {
            // The schema's defaults (SEP-1034), and a value of its type for every other field.
            let mut content = question.defaults();
            let properties = question.requested_schema.get("properties");
            for (name, property) in properties.and_then(|p| p.as_object()).into_iter().flatten() {
                content
                    .entry(name.clone())
                    .or_insert_with(|| scenarios::value_for(property));
            }
            ElicitResult {
                action: ElicitAction::Accept,
                content: Some(content),
            }
        })
        .on_sampling(|_request| async {
            let content = serde_json::from_value(serde_json::json!({"type": "text", "text": "ok"}))
                .expect("a text block");
            Ok(CreateMessageResult {
                role: Role::Assistant,
                content,
                model: "conformance".into(),
                stop_reason: None,
            })
        })
        .on_roots(|| async { ListRootsResult::default() })
}

#[tokio::main]
async fn main() -> ExitCode {
    let run = match Run::from_env() {
        Ok(run) => run,
        Err(error) => {
            eprintln!("conformance_client: {error}");
            return ExitCode::from(2);
        }
    };
    eprintln!("conformance_client: {} at {}", run.scenario, run.url);
    // Finish before the suite's own timeout would kill the run.
    match tokio::time::timeout(Duration::from_secs(50), scenarios::run(&run)).await {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(error)) => {
            eprintln!("conformance_client: {}: {error}", run.scenario);
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("conformance_client: {}: timed out", run.scenario);
            ExitCode::FAILURE
        }
    }
}
