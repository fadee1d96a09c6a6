//! The examples' command line: stdio by default, Streamable HTTP with `--http ADDR`, protected
//! with `--auth-issuer ISS --auth-audience URL --auth-jwks PATH_OR_URL`, behind the proxies
//! `MCP_TRUSTED_PROXIES` lists (comma-separated addresses or networks; the client named in
//! `X-Forwarded-For`, or in `Forwarded` with `MCP_FORWARDING_HEADER=forwarded`), as one replica of a fleet
//! when `MCP_REDIS_URL` is set (the library's `RedisBackend::from_env` reads it and
//! `MCP_REPLICA_ID`: sessions, streams, questions, changes, tasks and the `#[tool(once)]` record
//! shared in Redis under `mcp:{server name}:`), so each example's `main` stays one line. Every
//! example includes this module (`mod support;`).

use mcpwire::McpServer;
use mcpwire::{Error, Result};

/// What an example says first when it serves HTTP, before how to try it.
#[derive(Default)]
pub struct Welcome {
    /// A line about the example itself (e.g. where its data lives).
    pub about: Option<String>,
    /// Tool calls worth trying, as `mcpwire-cli call` takes them: `TOOL [ARG=VALUE ...]`
    /// (without any, `mcpwire-cli tools` is suggested).
    pub try_calls: &'static [&'static str],
}

/// `serve_from_args` on [`McpServer`], for the examples.
#[allow(async_fn_in_trait)]
pub trait ServeFromArgs {
    /// Serves as the command line says (see [`McpServer`]'s impl below).
    #[allow(
        dead_code,
        reason = "the bookshop reads an option of its own, and calls serve_from"
    )]
    async fn serve_from_args(self) -> Result<()>;

    /// Serves as `args` (the command line without the program's name) say, greeting with
    /// `welcome` on HTTP.
    async fn serve_from(self, args: Vec<String>, welcome: Welcome) -> Result<()>;
}

impl ServeFromArgs for McpServer {
    /// Serves as the command line says: over stdio by default, or over Streamable HTTP with
    /// `--http 127.0.0.1:PORT` (port `0` picks a free one). On HTTP it prints how to try it
    /// (`mcpwire-cli` first, then the MCP Inspector) and the endpoint's URL (last, on a line
    /// `MCP server listening on URL`) to stderr, and stops gracefully on Ctrl-C.
    ///
    /// # Errors
    ///
    /// On an unknown argument or a missing address, and as [`McpServer::serve_stdio`] or
    /// [`McpServer::serve_http`] fail.
    async fn serve_from_args(self) -> Result<()> {
        let args = std::env::args().skip(1).collect();
        self.serve_from(args, Welcome::default()).await
    }

    async fn serve_from(self, args: Vec<String>, welcome: Welcome) -> Result<()> {
        // OpenTelemetry: traces and metrics over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set
        // (docs/observability.md; MCP_OTEL_REMOTE_PARENT=true behind a gateway of yours); the
        // export stops (flushing) when serving ends.
        let (this, _telemetry) = mcpwire::otel::instrument_from_env(self)
            .map_err(|error| Error::Startup(error.to_string()))?;
        let args = Args::parse(args.into_iter())?;
        let Some(addr) = args.http else {
            if args.auth.is_some() {
                return Err(usage("--auth-* options need --http".into()));
            }
            return this.serve_stdio().await;
        };
        serve_http_at(this, addr, args.auth, welcome).await
    }
}

/// Serves `server` over Streamable HTTP at `addr`, behind `auth` when given, after `welcome`.
async fn serve_http_at(
    server: McpServer,
    addr: String,
    auth: Option<AuthArgs>,
    welcome: Welcome,
) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    if let Some(about) = &welcome.about {
        eprintln!("{about}");
    }
    eprintln!(
        "Try it from another terminal with mcpwire-cli (cargo install --path crates/mcpwire-cli, \
         or `cargo run -q -p mcpwire-cli --` in its place):"
    );
    for call in welcome.try_calls {
        eprintln!("  mcpwire-cli call --url {url} {call}");
    }
    if welcome.try_calls.is_empty() {
        eprintln!("  mcpwire-cli tools --url {url}");
    }
    eprintln!(
        "or with the MCP Inspector: npx @modelcontextprotocol/inspector (transport \
         \"Streamable HTTP\", URL {url})\n  \
         npx @modelcontextprotocol/inspector --cli {url} --transport http --method tools/list"
    );
    eprintln!("MCP server listening on {url}");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let backend = join_fleet(server.name()).await?;
    let mut http = server.http();
    if let Some(backend) = &backend {
        http = http.fleet(backend);
    }
    // Behind a load balancer: `MCP_TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8`, and
    // `MCP_FORWARDING_HEADER=forwarded` if it writes `Forwarded` (see `HttpServer::trusted_proxies`).
    let http = http.proxies_from_env()?;
    // How long a connection may idle or take to send a request head (default 30 s), in ms: what
    // tests/http_peers.rs shortens to see the SDKs' clients come back after an idle close.
    let http = match std::env::var("MCP_HEADER_READ_TIMEOUT_MS") {
        Ok(ms) => {
            let ms: u64 = ms.trim().parse().map_err(|_| {
                mcpwire::Error::Startup("MCP_HEADER_READ_TIMEOUT_MS is not a number of ms".into())
            })?;
            http.header_read_timeout(std::time::Duration::from_millis(ms))
        }
        Err(_) => http,
    };
    let http = match auth {
        Some(auth) => auth.protect(http),
        None => http,
    };
    http.serve_listener(listener, ctrl_c).await
}

/// The fleet's backend when `MCP_REDIS_URL` is set (see `RedisBackend::from_env`), and says so.
async fn join_fleet(name: &str) -> Result<Option<mcpwire::transport::http::RedisBackend>> {
    let Some(backend) = mcpwire::transport::http::RedisBackend::from_env(name).await? else {
        return Ok(None);
    };
    // What every replica must agree on: the key ring (its ids, never the keys) and the
    // audience (the server's name).
    let keys = match mcpwire::request_state::KeyRing::from_env() {
        Ok(Some(keys)) => keys.ids().join(","),
        _ => "none (MCP_REQUEST_STATE_KEYS is unset: rounds only finish on this replica)".into(),
    };
    eprintln!(
        "replica {} sharing sessions in Redis at {} under {}; requestState keys {keys}, audience {name}",
        backend.replica(),
        backend.target(),
        backend.prefix()
    );
    Ok(Some(backend))
}

/// `--auth-issuer ISS --auth-audience URL --auth-jwks PATH_OR_URL`: all three, or none.
struct AuthArgs {
    issuer: String,
    audience: String,
    jwks: String,
}

impl AuthArgs {
    /// `http` requiring tokens of the issuer, for the audience, signed by a key of the JWKS.
    fn protect(self, http: mcpwire::transport::HttpServer) -> mcpwire::transport::HttpServer {
        let authorization =
            mcpwire::auth::Authorization::jwt(&self.issuer, &self.audience, &self.jwks);
        http.authorization(authorization)
    }
}

/// What the command line asked for.
struct Args {
    http: Option<String>,
    auth: Option<AuthArgs>,
}

impl Args {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Self> {
        let (mut http, mut issuer, mut audience, mut jwks) = (None, None, None, None);
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => {
                    (flag.to_owned(), Some(value.to_owned()))
                }
                _ => (arg, None),
            };
            let slot = match flag.as_str() {
                "--http" => &mut http,
                "--auth-issuer" => &mut issuer,
                "--auth-audience" => &mut audience,
                "--auth-jwks" => &mut jwks,
                _ => return Err(usage(format!("unknown argument {flag:?}"))),
            };
            let value = match inline {
                Some(value) => value,
                None => args
                    .next()
                    .ok_or_else(|| usage(format!("{flag} needs a value")))?,
            };
            *slot = Some(value);
        }
        let auth = match (issuer, audience, jwks) {
            (None, None, None) => None,
            (Some(issuer), Some(audience), Some(jwks)) => Some(AuthArgs {
                issuer,
                audience,
                jwks,
            }),
            _ => {
                return Err(usage(
                    "--auth-issuer, --auth-audience and --auth-jwks go together".into(),
                ));
            }
        };
        Ok(Self { http, auth })
    }
}

fn usage(why: String) -> Error {
    Error::Io(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "{why}; usage: [--http 127.0.0.1:PORT [--auth-issuer ISS --auth-audience URL \
             --auth-jwks PATH_OR_URL]] (stdio without --http)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::Args;

    fn parse(args: &[&str]) -> mcpwire::Result<Args> {
        Args::parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn reads_the_http_address() {
        assert_eq!(parse(&[]).unwrap().http, None);
        let http = |args: &[&str]| parse(args).unwrap().http;
        assert_eq!(
            http(&["--http", "127.0.0.1:0"]).as_deref(),
            Some("127.0.0.1:0")
        );
        assert_eq!(
            http(&["--http=127.0.0.1:9"]).as_deref(),
            Some("127.0.0.1:9")
        );
        assert!(parse(&["--http"]).is_err());
        assert!(parse(&["--stdio"]).is_err());
    }

    #[test]
    fn reads_the_three_auth_options_together_or_none() {
        let all = parse(&[
            "--http",
            "127.0.0.1:0",
            "--auth-issuer",
            "https://a",
            "--auth-audience",
            "http://127.0.0.1:8000/mcp",
            "--auth-jwks=jwks.json",
        ])
        .unwrap();
        let auth = all.auth.expect("auth options");
        assert_eq!(
            (
                auth.issuer.as_str(),
                auth.audience.as_str(),
                auth.jwks.as_str()
            ),
            ("https://a", "http://127.0.0.1:8000/mcp", "jwks.json")
        );
        assert!(parse(&["--http", "x", "--auth-issuer", "https://a"]).is_err());
        assert!(parse(&["--http", "x"]).unwrap().auth.is_none());
    }
}
