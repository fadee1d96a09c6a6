//! `private_key_jwt` client authentication (RFC 7523 §2.2): a short-lived JWT signed with the
//! client's own key.

use super::error::AuthError;
use super::pkce::random_token;
use crate::wire::jwt_backend::jwt_backend;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use std::time::{SystemTime, UNIX_EPOCH};

/// The `client_assertion_type` of a JWT assertion.
pub(crate) const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/// How long an assertion is valid.
const LIFETIME_SECS: u64 = 60;

fn malformed(detail: impl Into<String>) -> AuthError {
    AuthError::Malformed {
        what: "client signing key",
        detail: detail.into(),
    }
}

/// A signed assertion: `iss` and `sub` the client id, `aud` the authorization server's issuer,
/// a fresh `jti`, valid for a minute. The key is a PKCS #8 PEM (EC P-256/P-384 or Ed25519).
pub(crate) fn client_assertion(
    client_id: &str,
    audience: &str,
    private_key_pem: &str,
    algorithm: &str,
) -> Result<String, AuthError> {
    let algorithm: Algorithm = algorithm
        .parse()
        .map_err(|_| malformed(format!("unknown algorithm {algorithm}")))?;
    let (_label, der) = pem_rfc7468::decode_vec(private_key_pem.trim().as_bytes())
        .map_err(|e| malformed(format!("not a PEM document: {e}")))?;
    let key = match algorithm {
        Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_der(&der),
        Algorithm::EdDSA => EncodingKey::from_ed_der(&der),
        other => return Err(malformed(format!("{other:?} keys are not supported"))),
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let jti = random_token().map_err(|e| malformed(e.to_string()))?;
    let claims = serde_json::json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "jti": jti,
    });
    jwt_backend().map_err(|refused| AuthError::CryptoBackend(refused.to_string()))?;
    encode(&Header::new(algorithm), &claims, &key).map_err(|e| malformed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::client_assertion;

    #[test]
    fn a_bad_key_or_algorithm_is_an_error() {
        assert!(client_assertion("c", "https://as", "not pem", "ES256").is_err());
        assert!(client_assertion("c", "https://as", "", "XX999").is_err());
        let pem = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
        assert!(client_assertion("c", "https://as", pem, "ES256").is_err());
        assert!(client_assertion("c", "https://as", pem, "HS256").is_err());
    }
}
