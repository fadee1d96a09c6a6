//! The command surface (issue #12): people script against it, so it stays exactly as written.

use clap::{Args, Parser, Subcommand, ValueEnum};
use mcpwire::client::EraChoice;
use mcpwire::protocol::LoggingLevel;
use std::path::PathBuf;

/// Try any MCP server from a terminal: list and call its tools, read its resources, get its
/// prompts, answer its questions, on either protocol revision.
#[derive(Debug, Parser)]
#[command(name = "mcpwire-cli", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Server info, capabilities, negotiated era.
    Info(Session),
    /// Tools with descriptions and their arguments.
    Tools(Session),
    /// Calls a tool: `call TARGET TOOL [ARG=VALUE ...] [--args JSON]`.
    Call(Call),
    /// Lists the resources and resource templates.
    Resources(Session),
    /// Reads a resource: `read TARGET URI`.
    Read(Read),
    /// Lists the skills a server publishes (the Skills extension) and their files; read one
    /// with `read TARGET URI`.
    Skills(Session),
    /// Lists the prompts.
    Prompts(Session),
    /// Gets a prompt: `prompt TARGET NAME [ARG=VALUE ...]`.
    Prompt(GetPrompt),
    /// Logs in to a protected server, shows the login, or forgets it:
    /// `auth login|status|logout TARGET`.
    Auth(AuthCommand),
    /// Runs a server, restarting it when the sources change: `dev [--http ADDR [--allow-remote]] [--inspector] -- SERVER_CMD [ARGS ...]`.
    Dev(Dev),
    /// Serves many servers as one: `gateway --config FILE [--http ADDR [--auth-*]]` (stdio
    /// without --http). FILE is a host's `{"mcpServers": {...}}` JSON; each server's tools, prompts and
    /// resources are shown under its key as namespace.
    #[cfg(feature = "gateway")]
    Gateway(Gateway),
}

/// `gateway`.
#[cfg(feature = "gateway")]
#[derive(Debug, Args)]
pub struct Gateway {
    /// The configuration: `{"mcpServers": {NAME: {"command"|"url", ...}}}`; the extra keys are
    /// namespace, separator, allowTools, denyTools, timeoutMs, forwardAuthorization, oauth.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Serve Streamable HTTP at ADDR (e.g. 127.0.0.1:8000): /mcp. Without it, stdio. Behind a
    /// balancer: MCP_TRUSTED_PROXIES, MCP_FORWARDING_HEADER; replicas share sessions with
    /// MCP_REDIS_URL (and MCP_REPLICA_ID), and sealed requestState with MCP_REQUEST_STATE_KEYS.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// A host name the Host and Origin headers may name (repeatable; replaces the default,
    /// localhost, 127.0.0.1 and `[::1]`): the public name clients reach it by behind a balancer,
    /// e.g. mcp.example.com. Other names are refused with 403 (DNS rebinding).
    #[arg(long, value_name = "HOST", requires = "http")]
    pub allowed_host: Vec<String>,
    /// The gateway's server name: what clients see, the prefix its replicas share in Redis
    /// (`mcp:NAME:`), the audience of its sealed requestState, and its OpenTelemetry service
    /// name (traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set).
    #[arg(long, value_name = "NAME", default_value = "mcpwire-gateway")]
    pub name: String,
    /// Accept only OAuth access tokens (JWTs) issued by ISS (with --auth-audience and
    /// --auth-jwks; needs --http). The backends never see them unless an entry sets
    /// forwardAuthorization.
    #[arg(long, value_name = "ISS", requires_all = ["auth_audience", "auth_jwks", "http"])]
    pub auth_issuer: Option<String>,
    /// The gateway's own URL, the tokens' audience (e.g. `https://mcp.example.com/mcp`).
    #[arg(long, value_name = "URL", requires_all = ["auth_issuer", "auth_jwks", "http"])]
    pub auth_audience: Option<String>,
    /// The issuer's keys: a JWKS file or an http(s):// URL.
    #[arg(long, value_name = "PATH_OR_URL", requires_all = ["auth_issuer", "auth_audience", "http"])]
    pub auth_jwks: Option<String>,
    /// The built-in layers in front of every backend.
    #[command(flatten)]
    pub limits: Limits,
}

/// `gateway`'s built-in layers (`mcpwire::layer`), each off unless asked for.
#[cfg(feature = "gateway")]
#[derive(Debug, Args)]
pub struct Limits {
    /// At most N requests per PERIOD for each caller (e.g. 600/min, 10/s): the token's subject
    /// and issuer with --auth-*, else every caller together. Replicas sharing MCP_REDIS_URL
    /// share the limit. More are refused with the JSON-RPC error -32000 and data.retryAfterMs.
    #[arg(long, value_name = "N/PERIOD")]
    pub rate_limit: Option<crate::gateway::limits::Rate>,
    /// The most requests a caller may make at once after a pause (default: N of --rate-limit).
    #[arg(long, value_name = "N", requires = "rate_limit")]
    pub rate_burst: Option<u32>,
    /// At most N requests handled at once, for all callers together; more are refused at once
    /// with the JSON-RPC error -32000 ("Server busy").
    #[arg(long, value_name = "N")]
    pub max_in_flight: Option<usize>,
    /// Stops a request that runs longer (e.g. 30s, 2m): its backend call is cancelled and the
    /// caller gets the JSON-RPC error -32001.
    #[arg(long, value_name = "DURATION")]
    pub request_timeout: Option<humantime::Duration>,
    /// Logs one line per request on stderr (method, target, caller, duration, outcome; never
    /// arguments or results).
    #[arg(long)]
    pub log_requests: bool,
}

/// `auth`.
#[derive(Debug, Args)]
pub struct AuthCommand {
    /// What to do.
    #[command(subcommand)]
    pub action: AuthAction,
}

/// `auth login|status|logout TARGET`.
#[derive(Debug, Subcommand)]
pub enum AuthAction {
    /// Logs in (OAuth 2.1: the URL is printed, or a browser opened with `$BROWSER`; the
    /// redirect comes back to a loopback listener); every command then uses the login.
    Login(Target),
    /// Shows whether a login is stored for the server, its scopes and expiry (exit 3 if not).
    Status(Target),
    /// Forgets the stored login for the server.
    Logout(Target),
}

/// The server to talk to, and how.
#[derive(Debug, Args)]
#[group(required = true, multiple = false, id = "target")]
pub struct Target {
    /// A Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp.
    #[arg(long, value_name = "URL", group = "target")]
    pub url: Option<String>,
    /// A server to start over stdio: "SERVER_CMD ARGS", split like a shell would, run with no shell.
    #[arg(long, value_name = "SERVER_CMD ARGS", group = "target")]
    pub stdio: Option<String>,
}

/// The flags every command that talks to a server takes.
#[derive(Debug, Args)]
pub struct Common {
    /// Which protocol revision: auto (probe), legacy (2025-11-25) or modern (2026-07-28).
    #[arg(long, value_enum, default_value_t = Era::Auto)]
    pub era: Era,
    /// Print only the raw JSON result on stdout, for scripts.
    #[arg(long)]
    pub json: bool,
    /// An extra HTTP header, "K: V" (repeatable).
    #[arg(long, value_name = "K: V")]
    pub header: Vec<String>,
    /// How long to wait for an answer, in seconds (progress restarts the wait).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// The lowest level of the server's log messages to show on stderr (asked of the server
    /// too; default: info, and the server's own choice).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub log_level: Option<LogLevel>,
}

/// How to answer the server's questions.
#[derive(Debug, Args, Default)]
pub struct Answers {
    /// Fills a form field by name in any elicitation (repeatable; VALUE as for arguments).
    #[arg(long, value_name = "FIELD=VALUE")]
    pub answer: Vec<String>,
    /// Declines every elicitation.
    #[arg(long, conflicts_with_all = ["cancel", "answer"])]
    pub decline: bool,
    /// Cancels every elicitation.
    #[arg(long, conflicts_with = "answer")]
    pub cancel: bool,
    /// Answers sampling requests with this text.
    #[arg(long, value_name = "TEXT")]
    pub sample: Option<String>,
    /// Declares a root directory (repeatable).
    #[arg(long, value_name = "PATH")]
    pub root: Vec<PathBuf>,
}

/// A command that only needs a connection.
#[derive(Debug, Args)]
pub struct Session {
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub answers: Answers,
}

/// `call`.
#[derive(Debug, Args)]
pub struct Call {
    #[command(flatten)]
    pub session: Session,
    /// The tool's name.
    pub tool: String,
    /// Arguments, converted by the tool's input schema.
    #[arg(value_name = "ARG=VALUE")]
    pub arguments: Vec<String>,
    /// The arguments as one JSON object (ARG=VALUE wins over it).
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
}

/// `read`.
#[derive(Debug, Args)]
pub struct Read {
    #[command(flatten)]
    pub session: Session,
    /// The resource's URI.
    pub uri: String,
}

/// `prompt`.
#[derive(Debug, Args)]
pub struct GetPrompt {
    #[command(flatten)]
    pub session: Session,
    /// The prompt's name.
    pub name: String,
    /// The prompt's arguments.
    #[arg(value_name = "ARG=VALUE")]
    pub arguments: Vec<String>,
}

/// `dev`.
#[derive(Debug, Args)]
pub struct Dev {
    /// Also serve the stdio server as Streamable HTTP at ADDR (e.g. 127.0.0.1:8000): /mcp.
    /// A loopback address only, unless --allow-remote.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Lets --http bind an address other machines can reach (the server gets no
    /// authentication: anyone who reaches it can use it).
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// Also start the MCP Inspector web UI, connected to the server.
    #[arg(long)]
    pub inspector: bool,
    /// The directory to watch (default: the Cargo workspace around the current directory).
    #[arg(long, value_name = "DIR", hide = true)]
    pub watch: Option<PathBuf>,
    /// The server: SERVER_CMD [ARGS ...], after `--`.
    #[arg(last = true, required = true, value_name = "SERVER_CMD")]
    pub server: Vec<String>,
}

/// `--era`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Era {
    /// Probe, and prefer 2026-07-28.
    Auto,
    /// 2025-11-25.
    Legacy,
    /// 2026-07-28.
    Modern,
}

impl From<Era> for EraChoice {
    fn from(era: Era) -> Self {
        match era {
            Era::Auto => EraChoice::Auto,
            Era::Legacy => EraChoice::Legacy,
            Era::Modern => EraChoice::Modern,
        }
    }
}

/// `--log-level`: the MCP logging levels.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl From<LogLevel> for LoggingLevel {
    fn from(level: LogLevel) -> Self {
        match level {
            LogLevel::Debug => LoggingLevel::Debug,
            LogLevel::Info => LoggingLevel::Info,
            LogLevel::Notice => LoggingLevel::Notice,
            LogLevel::Warning => LoggingLevel::Warning,
            LogLevel::Error => LoggingLevel::Error,
            LogLevel::Critical => LoggingLevel::Critical,
            LogLevel::Alert => LoggingLevel::Alert,
            LogLevel::Emergency => LoggingLevel::Emergency,
        }
    }
}
