//! `mcpwire-cli`: try any MCP server from a terminal. See the crate's README for the commands.

mod answers;
mod auth;
mod cli;
mod commands;
mod connect;
mod dev;
mod exit;
#[cfg(feature = "gateway")]
mod gateway;
mod output;
mod report;
mod session;
mod signals;
mod values;

use clap::Parser;
use cli::{Cli, Command};
use commands::{call, info, prompts, resources, skills, tools};
use exit::Failure;
use std::process::ExitCode;

/// mimalloc, not the system's malloc: the gateway allocates and frees a few dozen blocks a call,
/// many of them past glibc's per-thread cache (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => return report(Failure::usage(format!("cannot start: {error}"))),
    };
    let outcome = runtime.block_on(run(cli.command));
    // Whatever the server side left running (a child, a stream) ends with the runtime.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => report(failure),
    }
}

/// The commands print through `output::line`, which ends them quietly when stdout is closed
/// (`| head -1`). A `println!` elsewhere, or an `eprintln!` when stderr goes to the same closed
/// pipe (`2>&1 | head -1`), would panic there instead: this hook ends the process quietly with
/// 0 in that one case, and leaves every other panic to the default hook.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        let printing = message.starts_with("failed printing to stdout")
            || message.starts_with("failed printing to stderr");
        if printing && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn report(failure: Failure) -> ExitCode {
    if !failure.message.is_empty() {
        eprintln!("mcpwire-cli: {}", failure.message);
    }
    failure.exit_code()
}

async fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Info(session) => session::run(&session, info::run).await,
        Command::Tools(session) => session::run(&session, tools::run).await,
        Command::Call(call) => {
            let (tool, pairs, args) = (&call.tool, &call.arguments, call.args.as_deref());
            session::run(&call.session, |context| {
                call::run(context, tool, pairs, args)
            })
            .await
        }
        Command::Resources(session) => session::run(&session, resources::list_all).await,
        Command::Read(read) => {
            session::run(&read.session, |context| resources::read(context, &read.uri)).await
        }
        Command::Skills(session) => session::run(&session, skills::list_all).await,
        Command::Prompts(session) => session::run(&session, prompts::list_all).await,
        Command::Prompt(prompt) => {
            let (name, pairs) = (&prompt.name, &prompt.arguments);
            session::run(&prompt.session, |context| {
                prompts::get(context, name, pairs)
            })
            .await
        }
        Command::Dev(dev) => dev::run(dev).await,
        #[cfg(feature = "gateway")]
        Command::Gateway(gateway) => gateway::run(gateway).await,
        Command::Auth(auth) => auth::run(auth).await,
    }
}
