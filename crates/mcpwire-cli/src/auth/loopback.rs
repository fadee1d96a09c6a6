//! The login page's redirect, received on a loopback listener (RFC 8252 §7.3).

use axum::Router;
use axum::extract::RawQuery;
use axum::http::StatusCode;
use axum::routing::get;
use mcpwire::client::auth::{
    AuthError, AuthFuture, AuthorizationResponse, Authorizer, secure_endpoint,
};
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::oneshot;

/// How long the user has to log in.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(300);

/// Listens on `127.0.0.1:PORT/callback` for the one redirect that ends the login; prints the
/// login URL on stderr and opens a browser when one is at hand (`$BROWSER`).
///
/// Only an `https` login URL (or `http` on a loopback address) is printed or opened. Only a
/// request carrying the login's `state` ends the wait; any other gets `400` and the listener
/// keeps waiting, five minutes at most in all.
pub struct LoopbackAuthorizer {
    listener: Mutex<Option<tokio::net::TcpListener>>,
    redirect_uri: String,
}

impl LoopbackAuthorizer {
    /// Binds a free loopback port.
    pub async fn bind() -> Result<Self, crate::exit::Failure> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| crate::exit::Failure::usage(format!("cannot listen on loopback: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| crate::exit::Failure::usage(e.to_string()))?
            .port();
        Ok(Self {
            listener: Mutex::new(Some(listener)),
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
        })
    }
}

impl Authorizer for LoopbackAuthorizer {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>> {
        Box::pin(async move {
            let failed = |why: String| AuthError::Authorizer(why);
            if !secure_endpoint(url) {
                return Err(failed(format!(
                    "refusing to open the login URL {url}: it is not https (plain http is for loopback addresses only)"
                )));
            }
            let expected = AuthorizationResponse::from_redirect_url(url)?
                .state
                .ok_or_else(|| failed("the login URL carries no state".into()))?;
            let listener = self
                .listener
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .ok_or_else(|| failed("one login per run".into()))?;
            eprintln!("Open this URL in a browser to log in:\n  {url}");
            if let Some(browser) = std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
                let _ = std::process::Command::new(browser)
                    .arg(url)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn();
            }
            let (tell, heard) = oneshot::channel::<String>();
            let tell = std::sync::Arc::new(Mutex::new(Some(tell)));
            let app = Router::new().route(
                "/callback",
                get(move |RawQuery(query): RawQuery| {
                    let tell = tell.clone();
                    let expected = expected.clone();
                    async move {
                        let query = query.unwrap_or_default();
                        let state = AuthorizationResponse::from_query(&query).state;
                        if state.as_deref() != Some(expected.as_str()) {
                            return (
                                StatusCode::BAD_REQUEST,
                                "This is not the redirect of the login in progress.",
                            );
                        }
                        if let Some(tell) = tell.lock().unwrap_or_else(|e| e.into_inner()).take() {
                            let _ = tell.send(query);
                        }
                        (
                            StatusCode::OK,
                            "Logged in: you may close this page and return to the terminal.",
                        )
                    }
                }),
            );
            let server = tokio::spawn(async move { axum::serve(listener, app).await });
            let query = tokio::time::timeout(LOGIN_TIMEOUT, heard).await;
            // Let the page's answer go out before the listener stops.
            tokio::time::sleep(Duration::from_millis(50)).await;
            server.abort();
            match query {
                Ok(Ok(query)) => Ok(AuthorizationResponse::from_query(&query)),
                Ok(Err(_)) => Err(failed("the login listener stopped".into())),
                Err(_) => Err(failed(format!(
                    "no login within {} s",
                    LOGIN_TIMEOUT.as_secs()
                ))),
            }
        })
    }
}
