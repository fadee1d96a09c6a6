//! The OAuth side of the auth/* scenarios: the suite's redirect URI (never listened on: the
//! authorization is headless) and client metadata URL, and the pre-registered credentials of
//! the scenario's context.

use crate::Run;
use mcpwire::client::auth::{ClientRegistration, HeadlessAuthorizer, OAuth};
use serde_json::Value;

/// The redirect URI every SDK's conformance client uses.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The client ID metadata document URL the suite expects.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// How the client logs in for `run`, for the auth/* scenarios.
pub fn oauth_for(run: &Run) -> Option<OAuth> {
    let scenario = run.scenario.strip_prefix("auth/")?;
    let context = |name: &str| run.context.get(name).and_then(Value::as_str);
    let registration = context("client_id").map(|id| {
        let client = ClientRegistration::new(id);
        match (context("client_secret"), context("private_key_pem")) {
            (Some(secret), _) => client.secret(secret),
            (None, Some(pem)) => client.private_key_jwt(pem, context("signing_algorithm")),
            (None, None) => client,
        }
    });
    if scenario.starts_with("client-credentials") {
        return registration.map(OAuth::client_credentials);
    }
    let mut oauth = OAuth::new(HeadlessAuthorizer::new(REDIRECT_URI))
        .client_name("mcpwire-conformance-client")
        .client_metadata_url(CLIENT_METADATA_URL);
    if let Some(client) = registration {
        oauth = oauth.pre_registered(client);
    }
    Some(oauth)
}
