//! A server's answer to a POST, whichever client sent it: reqwest's, or hyper's connections
//! directly ([`direct`](super::direct)). What the transport reads of it: the status, the headers, and
//! the body as a stream of chunks.

use super::direct::DirectAnswer;
use crate::client::error::ClientError;
use crate::wire::http_error::described;
use bytes::Bytes;
use futures_util::future::Either;
use futures_util::{Stream, StreamExt};
use http::{HeaderMap, StatusCode};

/// An answer's head and its body still to read.
pub(crate) enum Answer {
    /// Sent through reqwest.
    Reqwest(reqwest::Response),
    /// Sent on hyper's connections directly.
    Direct(DirectAnswer),
}

impl Answer {
    /// The HTTP status.
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            Answer::Reqwest(response) => response.status(),
            Answer::Direct(answer) => answer.head.status,
        }
    }

    /// The headers.
    pub(crate) fn headers(&self) -> &HeaderMap {
        match self {
            Answer::Reqwest(response) => response.headers(),
            Answer::Direct(answer) => &answer.head.headers,
        }
    }

    /// The body's length, when its head says it.
    pub(crate) fn content_length(&self) -> Option<u64> {
        match self {
            Answer::Reqwest(response) => response.content_length(),
            Answer::Direct(answer) => answer.body.exact_length(),
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
            Answer::Direct(answer) => Either::Right(
                answer
                    .body
                    .map(|chunk| chunk.map_err(|e| ClientError::Transport(described(&e)))),
            ),
        }
    }
}
