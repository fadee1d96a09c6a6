//! Reading a whole HTTP body (a JSON answer, a refusal) with a bound: a body over the client's
//! `max_message_bytes` is refused as soon as its `Content-Length` says so, or as soon as that
//! many bytes have come, and the response is dropped, which closes its connection.

use super::answer::Answer;
use crate::client::error::ClientError;
use futures_util::StreamExt;

/// The body of `answer` as text (invalid UTF-8 replaced), at most `max` bytes.
///
/// # Errors
///
/// [`ClientError::TooLarge`] past `max`; [`ClientError::Transport`] when reading fails.
pub(crate) async fn read(answer: Answer, max: usize) -> Result<String, ClientError> {
    let too_large = ClientError::TooLarge { limit: max };
    if answer.content_length().is_some_and(|len| len > max as u64) {
        return Err(too_large);
    }
    let mut body = Vec::new();
    let mut chunks = answer.chunks();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        if body.len() + chunk.len() > max {
            return Err(too_large);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(match String::from_utf8(body) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    })
}
