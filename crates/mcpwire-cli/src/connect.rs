//! Opening the connection a command talks over: `--url` (Streamable HTTP, with `--header`s) or
//! `--stdio` (a child process, its command line split like a shell would and run without one),
//! with the era, the timeout and the answers to the server's questions.

use crate::answers::Questions;
use crate::cli::{Common, Target};
use crate::exit::Failure;
use mcpwire::client::{Client, HttpOptions, StdioServer};
use std::time::Duration;

/// Connects to the target.
pub async fn connect(
    target: &Target,
    common: &Common,
    questions: &Questions,
) -> Result<Client, Failure> {
    let mut builder = Client::builder()
        .info("mcpwire-cli", env!("CARGO_PKG_VERSION"))
        .era(common.era.into());
    if let Some(seconds) = common.timeout {
        let timeout = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|t| !t.is_zero())
            .ok_or_else(|| {
                Failure::usage(format!(
                    "--timeout {seconds}: not a positive number of seconds"
                ))
            })?;
        builder = builder.timeout(timeout);
    }
    let builder = questions.install(builder);
    match (&target.url, &target.stdio) {
        (Some(url), _) => {
            let mut options = HttpOptions::new();
            for header in &common.header {
                let (name, value) = header.split_once(':').ok_or_else(|| {
                    Failure::usage(format!("--header {header:?}: expected \"K: V\""))
                })?;
                options = options.header(name.trim(), value.trim())?;
            }
            // An `Authorization` header of the user's own means they authorize themselves.
            let own_authorization = common.header.iter().any(|header| {
                header
                    .split_once(':')
                    .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("authorization"))
            });
            let builder = if own_authorization {
                builder
            } else {
                builder.oauth(crate::auth::for_commands()?)
            };
            Ok(builder.connect_http_with(url, options).await?)
        }
        (None, Some(command)) => {
            if !common.header.is_empty() {
                return Err(Failure::usage("--header is for --url targets"));
            }
            let words = shell_words::split(command)
                .map_err(|e| Failure::usage(format!("--stdio {command:?}: {e}")))?;
            let (program, args) = words
                .split_first()
                .ok_or_else(|| Failure::usage("--stdio needs a command"))?;
            let server = StdioServer::new(program).args(args);
            Ok(builder.connect_stdio(server).await?)
        }
        (None, None) => Err(Failure::usage(
            "give --url URL or --stdio \"SERVER_CMD ARGS\"",
        )),
    }
}
