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

/// How the client logs in for `run`, for the auth/* scenarios. The context's credentials are
/// for the authorization server the server under test names (they are sent to no other).
pub async fn oauth_for(run: &Run) -> Option<OAuth> {
    let scenario = run.scenario.strip_prefix("auth/")?;
    let context = |name: &str| run.context.get(name).and_then(Value::as_str);
    let mut oauth = OAuth::new(HeadlessAuthorizer::new(REDIRECT_URI))
        .client_name("mcpwire-conformance-client")
        .client_metadata_url(CLIENT_METADATA_URL);
    let Some(id) = context("client_id") else {
        return Some(oauth);
    };
    let mut client = ClientRegistration::new(id);
    client = match (context("client_secret"), context("private_key_pem")) {
        (Some(secret), _) => client.secret(secret),
        (None, Some(pem)) => client.private_key_jwt(pem, context("signing_algorithm")),
        (None, None) => client,
    };
    // Unbound credentials are refused (AuthError::NoIssuer) when the flow runs.
    if let Ok(issuer) = oauth.discover_issuer(&run.url).await {
        client = client.issuer(issuer);
    }
    if scenario.starts_with("client-credentials") {
        return Some(OAuth::client_credentials(client));
    }
    oauth = oauth.pre_registered(client);
    Some(oauth)
}
