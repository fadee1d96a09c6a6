//! A POST to a plain `http://` endpoint, sent on hyper-util's pooled client directly.
//!
//! reqwest's client wraps that same hyper-util client in layers a POST to an MCP endpoint does
//! not use: its redirect layer parses the URL again from its text on every request, and once
//! more for the response (two `Url::parse`s, ≈ 11,600 instructions a request), besides its retry
//! and proxy layers and its boxed body. Measured through the gateway, those layers cost ≈ 28,000
//! instructions of each proxied call (`docs/benchmarks.md`).
//!
//! Only an endpoint whose requests reqwest would send exactly as this does is sent here: an
//! `http://` URL with a host and no credentials, which no proxy of the environment intercepts
//! (the same rules reqwest reads: `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, …). TLS, proxies and
//! URLs with credentials stay on reqwest. So do redirects: a `3xx` answer here is dropped, the
//! request sent again through reqwest, which follows it as it always has, and so is every later
//! request to that endpoint.

use crate::client::error::ClientError;
use crate::wire::http_error::described;
use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, StatusCode, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioExecutor;

/// hyper-util's client, for one plain `http://` endpoint.
pub(crate) struct Direct {
    client: Client<HttpConnector, Full<Bytes>>,
    uri: Uri,
}

impl Direct {
    /// The direct way to `url`, when reqwest would send its requests unchanged: `http://`, a
    /// host, no credentials, no proxy of the environment (`proxies`) for it.
    pub(crate) fn to(url: &reqwest::Url, proxies: &Matcher) -> Option<Self> {
        if url.scheme() != "http" || !plain(url) {
            return None;
        }
        let uri: Uri = url.as_str().parse().ok()?;
        if proxies.intercept(&uri).is_some() {
            return None;
        }
        // As reqwest's own connector: no Nagle delay on a request's small writes.
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new()).build(connector);
        Some(Self { client, uri })
    }

    /// POSTs `body` with `headers`; the answer's head, its body still to read.
    ///
    /// # Errors
    ///
    /// [`ClientError::Transport`] naming the cause when the request cannot be sent or its
    /// answer read.
    pub(crate) async fn post(
        &self,
        headers: HeaderMap,
        body: Bytes,
    ) -> Result<Response<Incoming>, ClientError> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.uri.clone();
        *request.headers_mut() = headers;
        self.client.request(request).await.map_err(|error| {
            let cause = described(&error);
            ClientError::Transport(format!(
                "error sending request for url ({}): {cause}",
                self.uri
            ))
        })
    }
}

/// Whether `url` is sent as it is: with a host, without credentials (which reqwest's request
/// builder turns into a `Basic` header: such a URL goes through it on every request).
pub(crate) fn plain(url: &reqwest::Url) -> bool {
    url.has_host() && url.username().is_empty() && url.password().is_none()
}

/// Whether `status` sends the client elsewhere: such an answer is sent again through reqwest,
/// which follows it.
pub(crate) fn redirects(status: StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn direct(url: &str, proxies: &Matcher) -> bool {
        Direct::to(&reqwest::Url::parse(url).unwrap(), proxies).is_some()
    }

    #[test]
    fn only_a_plain_http_url_no_proxy_takes_is_sent_directly() {
        let none = Matcher::builder().build();
        assert!(direct("http://127.0.0.1:8000/mcp", &none));
        assert!(direct("http://localhost/mcp?x=1", &none));
        assert!(!direct("https://example.com/mcp", &none));
        assert!(!direct("http://user:secret@example.com/mcp", &none));
        assert!(!direct("http://user@example.com/mcp", &none));
        let proxied = Matcher::builder()
            .http("http://proxy.internal:3128")
            .no("localhost")
            .build();
        assert!(!direct("http://example.com/mcp", &proxied));
        assert!(direct("http://localhost:8000/mcp", &proxied));
    }

    #[test]
    fn only_redirections_are_sent_again() {
        for code in [301, 302, 303, 307, 308] {
            assert!(redirects(StatusCode::from_u16(code).unwrap()));
        }
        for code in [200, 202, 304, 400, 401, 404, 500] {
            assert!(!redirects(StatusCode::from_u16(code).unwrap()));
        }
    }

    #[tokio::test]
    async fn a_refused_connection_is_named() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        drop(listener);
        let url = reqwest::Url::parse(&format!("http://{address}/mcp")).unwrap();
        let direct = Direct::to(&url, &Matcher::builder().build()).unwrap();
        let error = direct
            .post(HeaderMap::new(), Bytes::new())
            .await
            .unwrap_err();
        let ClientError::Transport(text) = error else {
            panic!("not a transport error: {error:?}");
        };
        assert!(text.to_lowercase().contains("refused"), "{text}");
    }
}
