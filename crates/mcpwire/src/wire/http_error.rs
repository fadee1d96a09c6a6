//! What an HTTP request made with reqwest (or hyper's client connections) failed of, in words: reqwest's
//! own text says only "error sending request for url (…)" or "error decoding response body"; the
//! cause (a refused connection, a certificate that did not verify, a scheme without TLS built in,
//! a reset) is in its chain of sources. Used wherever such an error becomes the SDK's message:
//! the client's transport and OAuth fetches, the server's key set and introspection fetches.

/// `error`, followed by each cause in its chain that its text does not already say.
///
/// Holds what reqwest's text holds (the URL among it: callers that must not show it pass
/// `error.without_url()`), and nothing else of the request.
pub(crate) fn described(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(all(test, feature = "client"))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_refused_connection_is_named() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let error = reqwest::Client::new()
            .get(format!("http://127.0.0.1:{port}/"))
            .send()
            .await
            .unwrap_err();
        let text = described(&error);
        assert!(text.starts_with(&error.to_string()), "{text}");
        assert!(text.to_lowercase().contains("connection refused"), "{text}");
    }
}
