//! `auth login|status|logout TARGET`, and the stored logins every command uses.
//!
//! Logins live in one file (`$MCPWIRE_CLI_CREDENTIALS`, else
//! `$XDG_CONFIG_HOME/mcpwire-cli/credentials.json`, else `~/.config/mcpwire-cli/…`), written
//! with owner-only permissions by the client's [`FileStore`]. Every `--url` command sends the
//! stored token and refreshes it when the server says it expired (with the client registered
//! at login); a command never starts a login itself: without a usable login it exits 3 and
//! says to run `auth login`, before any discovery, registration or write of the file.

mod loopback;
mod refuse;
mod store_path;

use crate::cli::{AuthAction, AuthCommand};
use crate::exit::Failure;
use loopback::LoopbackAuthorizer;
use mcpwire::client::auth::{FileStore, OAuth};
use std::time::{SystemTime, UNIX_EPOCH};

/// The OAuth every `--url` command connects with: stored logins, refreshed as needed, and no
/// new login.
pub fn for_commands() -> Result<OAuth, Failure> {
    Ok(OAuth::new(refuse::RefuseToLogIn)
        .client_name("mcpwire-cli")
        .refresh_only()
        .store(FileStore::new(store_path::credentials()?)))
}

/// Runs `auth login|status|logout`.
pub async fn run(command: AuthCommand) -> Result<(), Failure> {
    let (action, target) = match &command.action {
        AuthAction::Login(target) => ("login", target),
        AuthAction::Status(target) => ("status", target),
        AuthAction::Logout(target) => ("logout", target),
    };
    let Some(url) = target.url.as_deref() else {
        return Err(Failure::usage(format!(
            "auth {action} is for --url targets (stdio servers take credentials from their environment)"
        )));
    };
    let store = || store_path::credentials().map(FileStore::new);
    match command.action {
        AuthAction::Login(_) => {
            let authorizer = LoopbackAuthorizer::bind().await?;
            let oauth = OAuth::new(authorizer)
                .client_name("mcpwire-cli")
                .store(store()?);
            let tokens = oauth.login(url, None).await?;
            let scope = tokens.scope.as_deref().unwrap_or("(none asked)");
            eprintln!(
                "Logged in to {url} (issuer {}, scopes: {scope}).",
                tokens.issuer
            );
            Ok(())
        }
        AuthAction::Status(_) => {
            let oauth = for_commands()?;
            match oauth.tokens(url)? {
                None => {
                    println!("not logged in to {url}");
                    Err(Failure {
                        code: crate::exit::AUTH_REQUIRED,
                        message: String::new(),
                    })
                }
                Some(tokens) => {
                    let now = SystemTime::now()
                        .duration_since(UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs());
                    let expiry = match tokens.expires_at {
                        Some(at) if at <= now => "expired".to_owned(),
                        Some(at) => format!("expires in {} s", at - now),
                        None => "no expiry given".to_owned(),
                    };
                    let refresh = if tokens.refresh_token.is_some() {
                        ", refreshable"
                    } else {
                        ""
                    };
                    let scope = tokens.scope.as_deref().unwrap_or("-");
                    println!(
                        "logged in to {url}: issuer {}, scopes {scope}, {expiry}{refresh}",
                        tokens.issuer
                    );
                    Ok(())
                }
            }
        }
        AuthAction::Logout(_) => {
            for_commands()?.logout(url)?;
            eprintln!("Logged out of {url}.");
            Ok(())
        }
    }
}
