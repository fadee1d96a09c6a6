//! Bounded reads of what the authorization server answers (a key set, an introspection
//! answer), the cap enforced while the body streams in, with or without `Content-Length`.

/// The body of `response`, or why not: larger than `max` bytes (a declared length over it is
/// refused before reading; an undeclared one is cut off as soon as it passes it), or a read
/// error.
pub(super) async fn read_capped(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, String> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Err(format!("the answer is larger than {max} bytes"));
    }
    let mut body = Vec::new();
    while let Some(chunk) =
        (response.chunk().await).map_err(|e| crate::wire::http_error::described(&e))?
    {
        if body.len() + chunk.len() > max {
            return Err(format!("the answer is larger than {max} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
