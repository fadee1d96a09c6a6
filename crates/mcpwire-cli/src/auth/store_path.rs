//! Where the CLI keeps its logins.

use crate::exit::Failure;
use std::path::PathBuf;

/// `$MCPWIRE_CLI_CREDENTIALS`, else `$XDG_CONFIG_HOME/mcpwire-cli/credentials.json`, else
/// `$HOME/.config/mcpwire-cli/credentials.json`.
pub fn credentials() -> Result<PathBuf, Failure> {
    if let Some(path) = std::env::var_os("MCPWIRE_CLI_CREDENTIALS").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
        .ok_or_else(|| {
            Failure::usage("set HOME or MCPWIRE_CLI_CREDENTIALS for where to keep logins")
        })?;
    Ok(config.join("mcpwire-cli").join("credentials.json"))
}
