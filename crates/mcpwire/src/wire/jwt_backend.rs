//! jsonwebtoken's crypto backend for the process, chosen once for both sides: the server's
//! `JwtVerifier` and the client's signed assertions.
//!
//! jsonwebtoken keeps one backend (a `CryptoProvider`) per process, fixed by the first of an
//! explicit install and its first use. With `auth-aws-lc` both of its backends are compiled in,
//! and a use before any install fixes a placeholder that panics on every signature: that is
//! refused here, with an error, instead of a panic on the first token.

use std::fmt;
use std::sync::OnceLock;

/// jsonwebtoken cannot be used in this process: its crypto provider was fixed before mcpwire
/// could choose one, and it cannot sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BackendRefused;

impl fmt::Display for BackendRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "jsonwebtoken's crypto provider was fixed before mcpwire could choose aws-lc-rs, and \
             it cannot sign (jsonwebtoken was used before any provider was installed, with both \
             of its backends compiled in); install jsonwebtoken::crypto::aws_lc::DEFAULT_PROVIDER \
             (or rust_crypto's) before jsonwebtoken's first use",
        )
    }
}

impl std::error::Error for BackendRefused {}

/// Makes sure jsonwebtoken has a working backend, choosing it on the first call: with
/// `auth-aws-lc`, aws-lc-rs, unless a provider was fixed before and signs (it then stays);
/// without it, jsonwebtoken's single compiled-in backend, untouched. Later calls return the
/// first answer.
///
/// jsonwebtoken does not say which provider is fixed (a refused install hands back the one
/// offered), so the fixed one is asked to sign a probe: the placeholder a use before any
/// install fixes panics there. Under `panic = "abort"` that ends the process here, with
/// jsonwebtoken's message, rather than on the first token.
pub(crate) fn jwt_backend() -> Result<(), BackendRefused> {
    static CHOSEN: OnceLock<Result<(), BackendRefused>> = OnceLock::new();
    *CHOSEN.get_or_init(choose)
}

#[cfg(feature = "auth-aws-lc")]
fn choose() -> Result<(), BackendRefused> {
    use jsonwebtoken::crypto::{CryptoProvider, aws_lc};
    if CryptoProvider::install_default(&aws_lc::DEFAULT_PROVIDER).is_ok() {
        return Ok(());
    }
    let key = jsonwebtoken::EncodingKey::from_secret(b"probe");
    let probe = || jsonwebtoken::crypto::sign(b"probe", &key, jsonwebtoken::Algorithm::HS256);
    // Any answer, even a refusal of HMAC by an application's own provider, is a provider at
    // work; only a panic is the placeholder.
    std::panic::catch_unwind(probe)
        .map(drop)
        .map_err(|_| BackendRefused)
}

#[cfg(not(feature = "auth-aws-lc"))]
fn choose() -> Result<(), BackendRefused> {
    Ok(())
}
