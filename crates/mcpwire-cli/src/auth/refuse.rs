//! The authorizer of ordinary commands: they use stored logins but never start one.

use mcpwire::client::auth::{AuthError, AuthFuture, AuthorizationResponse, Authorizer};

/// Refuses to show a login page: the command fails (exit 3) and says how to log in.
pub struct RefuseToLogIn;

impl Authorizer for RefuseToLogIn {
    fn redirect_uri(&self) -> String {
        "http://127.0.0.1/callback".to_owned()
    }

    fn authorize<'a>(
        &'a self,
        _url: &'a str,
    ) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>> {
        Box::pin(async {
            Err(AuthError::Authorizer(
                "not logged in, or the login expired: run `mcpwire-cli auth login --url URL`"
                    .to_owned(),
            ))
        })
    }
}
