//! `dev [--http ADDR] [--inspector] -- SERVER_CMD [ARGS ...]`: runs a server and restarts it
//! when the sources change, showing its stderr and saying nothing more until something
//! happens.
//!
//! - Without `--http` the server talks over this process's stdin and stdout: `dev` can stand
//!   in for the server in a client's configuration.
//! - `--http ADDR` serves the stdio server as Streamable HTTP (see [`bridge`]), on a loopback
//!   address only unless `--allow-remote` is given (and then says that anyone who reaches it
//!   can use it).
//! - `--inspector` also starts the MCP Inspector web UI on the HTTP endpoint (on a free
//!   loopback port when `--http` is not given).

mod bridge;
mod child;
mod inspector;
mod watch;

use crate::cli::Dev;
use crate::exit::{Failure, UNREACHABLE};
use bridge::Bridge;
use child::ServerProcess;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::process::Stdio;
use watch::Changes;

/// Runs the dev loop until Ctrl-C (or, over stdio, until the server exits cleanly).
pub async fn run(dev: Dev) -> Result<(), Failure> {
    let cwd = std::env::current_dir().map_err(|e| Failure::usage(e.to_string()))?;
    let root = dev
        .watch
        .clone()
        .unwrap_or_else(|| watch::default_root(&cwd));
    let changes = Changes::watch(&root)
        .map_err(|e| Failure::usage(format!("cannot watch {}: {e}", root.display())))?;
    let http = match (&dev.http, dev.inspector) {
        (Some(addr), _) => Some(addr.clone()),
        (None, true) => Some("127.0.0.1:0".to_owned()),
        (None, false) => None,
    };
    match http {
        Some(addr) => serve_http(&dev, &addr, changes).await,
        None => serve_stdio(&dev.server, changes).await,
    }
}

async fn serve_stdio(command: &[String], mut changes: Changes) -> Result<(), Failure> {
    let terminal = std::io::stdin().is_terminal();
    if terminal {
        eprintln!(
            "dev: the server reads this terminal; --http ADDR serves it to HTTP clients instead"
        );
    }
    loop {
        let mut server =
            ServerProcess::start(command, Stdio::inherit(), Stdio::inherit(), !terminal).map_err(
                |e| Failure {
                    code: UNREACHABLE,
                    message: format!("cannot start {}: {e}", command[0]),
                },
            )?;
        tokio::select! {
            changed = changes.next() => {
                server.stop().await;
                let changed = changed.map(|p| p.display().to_string()).unwrap_or_default();
                eprintln!("dev: {changed} changed; restarting the server");
            }
            status = server.child().wait() => {
                match status {
                    Ok(status) if status.success() => return Ok(()),
                    Ok(status) => eprintln!("dev: the server exited ({status}); waiting for a change"),
                    Err(error) => eprintln!("dev: the server is gone ({error}); waiting for a change"),
                }
                let changed = changes.next().await.map(|p| p.display().to_string()).unwrap_or_default();
                eprintln!("dev: {changed} changed; restarting the server");
            }
            _ = crate::signals::stop_requested() => {
                server.stop().await;
                return Ok(());
            }
        }
    }
}

async fn serve_http(dev: &Dev, addr: &str, mut changes: Changes) -> Result<(), Failure> {
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| Failure::usage(format!("--http {addr}: {e}")))?
        .collect();
    if !dev.allow_remote
        && let Some(remote) = addresses.iter().find(|a| !a.ip().is_loopback())
    {
        return Err(Failure::usage(format!(
            "--http {addr}: {} is not a loopback address; the dev server has no authentication, \
             add --allow-remote to let other machines use it",
            remote.ip()
        )));
    }
    let listener = tokio::net::TcpListener::bind(addresses.as_slice())
        .await
        .map_err(|e| Failure::usage(format!("--http {addr}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::usage(e.to_string()))?;
    let url = format!("http://{bound}/mcp");
    if dev.allow_remote {
        eprintln!(
            "dev: --allow-remote: serving on {bound} to other machines too, with no authentication: anyone who reaches it can use the server"
        );
    }
    let bridge = Bridge::new(dev.server.clone(), dev.allow_remote);
    let serving = tokio::spawn(bridge.clone().serve(listener));
    eprintln!(
        "dev: serving `{}` as Streamable HTTP at {url}",
        dev.server.join(" ")
    );
    bridge.warm_up().await;
    let inspector = match dev.inspector {
        true => Some(
            inspector::start(&url)
                .map_err(|e| Failure::usage(format!("cannot start the MCP Inspector: {e}")))?,
        ),
        false => None,
    };
    loop {
        tokio::select! {
            changed = changes.next() => {
                let changed = changed.map(|p| p.display().to_string()).unwrap_or_default();
                eprintln!("dev: {changed} changed; restarting the server");
                bridge.restart().await;
            }
            _ = crate::signals::stop_requested() => break,
        }
    }
    serving.abort();
    if let Some(inspector) = inspector {
        inspector.stop().await;
    }
    bridge.stop().await;
    Ok(())
}
