//! `dev`: runs a server, restarts it when the sources change.

use crate::cli::Dev;
use crate::exit::Failure;

/// Runs the dev loop until Ctrl-C.
pub async fn run(_dev: Dev) -> Result<(), Failure> {
    Err(Failure::usage("dev: not yet"))
}
