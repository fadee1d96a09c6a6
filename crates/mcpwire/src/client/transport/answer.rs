//! A server's answer to a POST, whichever client sent it: reqwest's, or hyper-util's directly
//! ([`direct`](super::direct)). What the transport reads of it: the status, the headers, and
//! the body as a stream of chunks.

use crate::client::error::ClientError;
use crate::wire::http_error::described;
use bytes::Bytes;
use futures_util::future::Either;
use futures_util::{Stream, StreamExt};
use http::{HeaderMap, StatusCode};
use http_body_util::BodyDataStream;
use hyper::body::{Body, Incoming};

/// An answer's head and its body still to read.
pub(crate) enum Answer {
    /// Sent through reqwest.
    Reqwest(reqwest::Response),
    /// Sent on hyper-util's client directly.
    Direct(http::Response<Incoming>),
}

impl Answer {
    /// The HTTP status.
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            Answer::Reqwest(response) => response.status(),
            Answer::Direct(response) => response.status(),
        }
    }

    /// The headers.
    pub(crate) fn headers(&self) -> &HeaderMap {
        match self {
            Answer::Reqwest(response) => response.headers(),
            Answer::Direct(response) => response.headers(),
        }
    }

    /// The body's length, when its head says it.
    pub(crate) fn content_length(&self) -> Option<u64> {
        match self {
            Answer::Reqwest(response) => response.content_length(),
            Answer::Direct(response) => response.body().size_hint().exact(),
        }
    }

    /// The body, chunk by chunk; a chunk that cannot be read is a [`ClientError::Transport`]
    /// naming its cause.
    pub(crate) fn chunks(self) -> impl Stream<Item = Result<Bytes, ClientError>> + Unpin {
        match self {
            Answer::Reqwest(response) => Either::Left(
                response
                    .bytes_stream()
                    .map(|chunk| chunk.map_err(|e| ClientError::Transport(described(&e)))),
            ),
            Answer::Direct(response) => Either::Right(
                BodyDataStream::new(response.into_body())
                    .map(|chunk| chunk.map_err(|e| ClientError::Transport(described(&e)))),
            ),
        }
    }
}
