//! A POST to a plain `http://` endpoint, sent on hyper's HTTP/1.1 connections directly.
//!
//! reqwest's client wraps hyper-util's pooled client in layers a POST to an MCP endpoint does
//! not use: its redirect layer parses the URL again from its text on every request, and once
//! more for the response (two `Url::parse`s, ≈ 11,600 instructions a request), besides its retry
//! and proxy layers and its boxed body. Measured through the gateway, those layers cost ≈ 28,000
//! instructions of each proxied call (`docs/benchmarks.md`). hyper-util's pool, made for any
//! number of origins, then hashed its key three times a request, waited for each connection to
//! be ready again on a task of its own, and formatted the `Host` header each time (≈ 8,000 more).
//! An endpoint is one origin: its connections are one list ([`idle`](super::idle)).
//!
//! Only an endpoint whose requests reqwest would send exactly as this does is sent here: an
//! `http://` URL with a host and no credentials, which no proxy of the environment intercepts
//! (the same rules reqwest reads: `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, …). TLS, proxies and
//! URLs with credentials stay on reqwest. So do redirects: a `3xx` answer here is dropped, the
//! request sent again through reqwest, which follows it as it always has, and so is every later
//! request to that endpoint.
//!
//! A kept-alive connection the server closed just as a request was given to it takes no bytes
//! of it: the request goes on the next idle connection, or a new one (hyper-util's client
//! retries such a request too).

use super::idle::{Idle, Returning, Sender};
use crate::client::error::ClientError;
use crate::wire::http_error::described;
use bytes::Bytes;
use http::header::HOST;
use http::response::Parts;
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};
use http_body_util::Full;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::proxy::matcher::Matcher;
use std::sync::Arc;
use tower_service::Service;

/// One plain `http://` endpoint, and its idle connections.
pub(crate) struct Direct {
    /// hyper-util's connector, reqwest's own: it resolves the host and tries its addresses
    /// (IPv6 and IPv4 raced, "happy eyeballs"); no Nagle delay on a request's small writes.
    connector: HttpConnector,
    /// The URL, which the connector connects to and error messages name.
    uri: Uri,
    /// The request target: the URL's path and query.
    target: Uri,
    /// The `Host` header of every request, made once.
    host: HeaderValue,
    idle: Arc<Idle>,
}

/// An answer's head, and its body still to read.
pub(crate) struct DirectAnswer {
    pub(crate) head: Parts,
    pub(crate) body: Returning,
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
        // As hyper-util writes it: the host, and the port when it is not 80.
        let host = match url.port() {
            Some(port) => HeaderValue::try_from(format!("{}:{port}", uri.host()?)),
            None => HeaderValue::try_from(uri.host()?),
        }
        .ok()?;
        let target = uri.path_and_query()?.as_str().parse().ok()?;
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        Some(Self {
            connector,
            uri,
            target,
            host,
            idle: Arc::default(),
        })
    }

    /// POSTs `body` with `headers`; the answer's head, its body still to read.
    ///
    /// # Errors
    ///
    /// [`ClientError::Transport`] naming the cause when the request cannot be sent or its
    /// answer read.
    pub(crate) async fn post(
        &self,
        mut headers: HeaderMap,
        body: Bytes,
    ) -> Result<DirectAnswer, ClientError> {
        headers.insert(HOST, self.host.clone());
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.target.clone();
        *request.headers_mut() = headers;
        while let Some(mut sender) = self.idle.take() {
            if sender.ready().await.is_err() {
                continue;
            }
            match sender.try_send_request(request).await {
                Ok(answer) => return Ok(self.answer(answer, sender)),
                Err(mut error) => match error.take_message() {
                    // Not sent: the connection closed first.
                    Some(unsent) => request = unsent,
                    None => return Err(self.failed(error.error())),
                },
            }
        }
        let mut sender = self.connect().await?;
        match sender.send_request(request).await {
            Ok(answer) => Ok(self.answer(answer, sender)),
            Err(error) => Err(self.failed(&error)),
        }
    }

    fn answer(
        &self,
        answer: http::Response<hyper::body::Incoming>,
        sender: Sender,
    ) -> DirectAnswer {
        let (head, body) = answer.into_parts();
        DirectAnswer {
            head,
            body: Returning::new(body, sender, Arc::clone(&self.idle)),
        }
    }

    /// A new connection, its HTTP/1.1 exchange driven on a task of its own until it closes (its
    /// sending half dropped, idle or not kept, or the server closing it).
    async fn connect(&self) -> Result<Sender, ClientError> {
        let tcp = (self.connector.clone().call(self.uri.clone()).await)
            .map_err(|error| self.failed(&error))?;
        let (sender, connection) = hyper::client::conn::http1::handshake(tcp)
            .await
            .map_err(|error| self.failed(&error))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(sender)
    }

    fn failed(&self, error: &(dyn std::error::Error + 'static)) -> ClientError {
        let cause = described(error);
        ClientError::Transport(format!(
            "error sending request for url ({}): {cause}",
            self.uri
        ))
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
    fn the_host_header_is_the_host_and_a_port_other_than_80() {
        let host = |url: &str| {
            let url = reqwest::Url::parse(url).unwrap();
            Direct::to(&url, &Matcher::builder().build()).unwrap().host
        };
        assert_eq!(host("http://example.com/mcp"), "example.com");
        assert_eq!(host("http://example.com:80/mcp"), "example.com");
        assert_eq!(host("http://example.com:8080/mcp"), "example.com:8080");
        assert_eq!(host("http://[::1]:9000/mcp"), "[::1]:9000");
    }

    /// What reaches the server: one `Host` header, the endpoint's.
    #[tokio::test]
    async fn a_post_carries_one_host_header() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut head = Vec::new();
            let mut buffer = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                let read = socket.read(&mut buffer).await.unwrap();
                assert_ne!(read, 0, "the request ended early");
                head.extend_from_slice(&buffer[..read]);
            }
            let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
            socket.write_all(answer).await.unwrap();
            String::from_utf8(head).unwrap().to_lowercase()
        });
        let url = reqwest::Url::parse(&format!("http://{address}/mcp")).unwrap();
        let direct = Direct::to(&url, &Matcher::builder().build()).unwrap();
        let sent = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            direct.post(HeaderMap::new(), Bytes::from_static(b"{}")),
        );
        assert_eq!(sent.await.unwrap().unwrap().head.status, StatusCode::OK);
        let head = server.await.unwrap();
        assert_eq!(head.matches("\r\nhost:").count(), 1, "{head}");
        assert!(head.contains(&format!("\r\nhost: {address}\r\n")), "{head}");
    }

    /// A test server on loopback that counts the connections it accepted. It answers a POST
    /// by its `x-answer` header: `empty` with `202` and no body, `close` with its body and
    /// `Connection: close`, `long` with a body of 1 MiB in chunks, `open` with one chunk and
    /// then nothing, the body never ended, anything else with its body.
    async fn counting_server() -> (reqwest::Url, Arc<std::sync::atomic::AtomicUsize>) {
        use http_body_util::{BodyExt, StreamBody};
        use hyper::body::Frame;
        use std::sync::atomic::{AtomicUsize, Ordering};
        type Answer = http::Response<http_body_util::combinators::BoxBody<Bytes, hyper::Error>>;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = reqwest::Url::parse(&format!("http://{}/mcp", listener.local_addr().unwrap()));
        let accepted = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&accepted);
        tokio::spawn(async move {
            loop {
                let (tcp, _) = listener.accept().await.unwrap();
                counted.fetch_add(1, Ordering::SeqCst);
                let service = hyper::service::service_fn(
                    |request: Request<hyper::body::Incoming>| async move {
                        let how = request.headers().get("x-answer").cloned();
                        let body = request.into_body().collect().await?.to_bytes();
                        let full =
                            |bytes: Bytes| Full::new(bytes).map_err(|never| match never {}).boxed();
                        let answer: Answer = match how.as_ref().map(|v| v.as_bytes()) {
                            Some(b"empty") => http::Response::builder()
                                .status(202)
                                .body(full(Bytes::new()))
                                .unwrap(),
                            Some(b"close") => http::Response::builder()
                                .header("connection", "close")
                                .body(full(body))
                                .unwrap(),
                            Some(b"open") => {
                                let first = futures_util::stream::iter([Ok::<_, hyper::Error>(
                                    Frame::data(Bytes::from_static(b"data: {}\n\n")),
                                )]);
                                let silent = futures_util::stream::pending();
                                http::Response::new(
                                    StreamBody::new(futures_util::StreamExt::chain(first, silent))
                                        .boxed(),
                                )
                            }
                            Some(b"long") => {
                                let chunks = (0..64).map(|_| {
                                    Ok::<_, hyper::Error>(Frame::data(Bytes::from(vec![
                                        b'x';
                                        16 * 1024
                                    ])))
                                });
                                http::Response::new(
                                    StreamBody::new(futures_util::stream::iter(chunks)).boxed(),
                                )
                            }
                            _ => http::Response::new(full(body)),
                        };
                        Ok::<_, hyper::Error>(answer)
                    },
                );
                tokio::spawn(
                    hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(tcp), service),
                );
            }
        });
        (url.unwrap(), accepted)
    }

    /// The direct way to a fresh [`counting_server`], and its count of connections.
    async fn counted_direct() -> (Direct, Arc<std::sync::atomic::AtomicUsize>) {
        let (url, accepted) = counting_server().await;
        (
            Direct::to(&url, &Matcher::builder().build()).unwrap(),
            accepted,
        )
    }

    /// POSTs `body` with `x-answer: how`, within a bound.
    async fn post(direct: &Direct, how: &'static str, body: &'static [u8]) -> DirectAnswer {
        let mut headers = HeaderMap::new();
        headers.insert("x-answer", HeaderValue::from_static(how));
        let sent = direct.post(headers, Bytes::from_static(body));
        tokio::time::timeout(std::time::Duration::from_secs(10), sent)
            .await
            .expect("bounded")
            .expect("answered")
    }

    /// The whole body of `answer`, within a bound.
    async fn read(answer: DirectAnswer) -> Vec<u8> {
        use futures_util::StreamExt;
        let mut body = answer.body;
        let mut read = Vec::new();
        let whole = async {
            while let Some(chunk) = body.next().await {
                read.extend_from_slice(&chunk.unwrap());
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), whole)
            .await
            .expect("bounded");
        read
    }

    #[tokio::test]
    async fn one_connection_carries_posts_one_after_another() {
        use std::sync::atomic::Ordering;
        let (direct, accepted) = counted_direct().await;
        for _ in 0..5 {
            assert_eq!(read(post(&direct, "echo", b"ping").await).await, b"ping");
            // An answer without a body, never read, gives its connection back too.
            let empty = post(&direct, "empty", b"{}").await;
            assert_eq!(empty.head.status, StatusCode::ACCEPTED);
            drop(empty);
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 1);
        assert_eq!(direct.idle.count(), 1);
    }

    /// POSTs with `x-answer: how`, reads the answer's first chunk, and drops the rest unread.
    async fn leave_after_first_chunk(direct: &Direct, how: &'static str) {
        use futures_util::StreamExt;
        let mut body = post(direct, how, b"{}").await.body;
        let first = tokio::time::timeout(std::time::Duration::from_secs(10), body.next());
        assert!(
            first
                .await
                .expect("a first chunk within 10 s")
                .unwrap()
                .is_ok()
        );
    }

    #[tokio::test]
    async fn a_connection_whose_answer_was_left_unread_is_used_again_only_when_it_can_be() {
        use std::sync::atomic::Ordering;
        let (direct, accepted) = counted_direct().await;
        // 1 MiB left unread after its first chunk: more than hyper reads to keep the connection,
        // which it closes; the next POST goes on a new one.
        leave_after_first_chunk(&direct, "long").await;
        assert_eq!(read(post(&direct, "echo", b"next").await).await, b"next");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
        // A long answer read to its end gives its connection back.
        assert_eq!(
            read(post(&direct, "long", b"{}").await).await.len(),
            1024 * 1024
        );
        assert_eq!(read(post(&direct, "echo", b"again").await).await, b"again");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    /// A stream left after its first event, which the server keeps open without a word: the
    /// next POST does not wait on that connection. hyper is woken by the dropped body, finds
    /// nothing more to read, and closes the connection, which the POST then leaves for a new one.
    #[tokio::test]
    async fn a_post_does_not_wait_for_a_connection_whose_stream_was_left_open() {
        use std::sync::atomic::Ordering;
        let (direct, accepted) = counted_direct().await;
        leave_after_first_chunk(&direct, "open").await;
        // `post` and `read` fail the test after 10 s.
        assert_eq!(read(post(&direct, "echo", b"next").await).await, b"next");
        assert_eq!(read(post(&direct, "echo", b"again").await).await, b"again");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_connection_the_server_closed_is_left_for_a_new_one() {
        use std::sync::atomic::Ordering;
        let (direct, accepted) = counted_direct().await;
        for round in 1..=3 {
            assert_eq!(read(post(&direct, "close", b"bye").await).await, b"bye");
            assert_eq!(read(post(&direct, "echo", b"hi").await).await, b"hi");
            // The closed one is not used again: each round's second POST opens one more.
            assert_eq!(accepted.load(Ordering::SeqCst), round + 1);
        }
    }

    #[tokio::test]
    async fn posts_in_flight_together_each_get_a_connection_and_at_most_max_idle_are_kept() {
        use std::sync::atomic::Ordering;
        let (direct, accepted) = counted_direct().await;
        let many = super::super::idle::MAX_IDLE + 4;
        let mut answers = Vec::new();
        for _ in 0..many {
            answers.push(post(&direct, "echo", b"x").await);
        }
        assert_eq!(accepted.load(Ordering::SeqCst), many);
        for answer in answers {
            assert_eq!(read(answer).await, b"x");
        }
        assert_eq!(direct.idle.count(), super::super::idle::MAX_IDLE);
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
        let Err(error) = direct.post(HeaderMap::new(), Bytes::new()).await else {
            panic!("a POST to a closed port was answered");
        };
        let ClientError::Transport(text) = error else {
            panic!("not a transport error: {error:?}");
        };
        assert!(text.to_lowercase().contains("refused"), "{text}");
    }
}
