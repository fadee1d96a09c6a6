//! A POST's answer as this transport makes it ([`Answer`]): a JSON body written whole, which is
//! most answers, or any other body (an event stream, a refusal), as axum boxes it.
//!
//! axum's `Body` boxes whatever it is made of: a JSON answer would cost an allocation of its own
//! and a call through a pointer for each of its frames. The front serves an [`Answer`] as it is;
//! the router's handler gives axum the whole body boxed, as it would have been.

use axum::body::Body;
use axum::response::Response;
use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use std::pin::Pin;
use std::task::{Context, Poll};

/// A POST's answer.
pub(super) type Answer = http::Response<AnswerBody>;

/// An answer's body: written whole (taken by its one frame), or axum's.
pub(super) enum AnswerBody {
    /// The whole body, until its frame is taken.
    Whole(Option<Bytes>),
    /// Any other body.
    Boxed(Body),
}

/// A JSON answer with `status`, its body `line`. Built as is: `IntoResponse` for a `String`
/// would set `text/plain` first, then replace it.
pub(super) fn json(status: StatusCode, line: String) -> Answer {
    let mut answer = http::Response::new(AnswerBody::Whole(Some(Bytes::from(line))));
    *answer.status_mut() = status;
    let content_type = HeaderValue::from_static("application/json");
    answer
        .headers_mut()
        .insert(header::CONTENT_TYPE, content_type);
    answer
}

/// `response`, as an answer.
pub(super) fn of(response: Response) -> Answer {
    response.map(AnswerBody::Boxed)
}

/// `answer`, as axum serves it (a whole body boxed).
pub(super) fn into_response(answer: Answer) -> Response {
    answer.map(|body| match body {
        AnswerBody::Boxed(body) => body,
        whole => Body::new(whole),
    })
}

impl HttpBody for AnswerBody {
    type Data = Bytes;
    type Error = axum::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        match self.get_mut() {
            AnswerBody::Whole(whole) => Poll::Ready(whole.take().map(|data| Ok(Frame::data(data)))),
            AnswerBody::Boxed(body) => Pin::new(body).poll_frame(cx),
        }
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match self {
            AnswerBody::Whole(whole) => whole.is_none(),
            AnswerBody::Boxed(body) => body.is_end_stream(),
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match self {
            AnswerBody::Whole(whole) => {
                SizeHint::with_exact(whole.as_ref().map_or(0, |data| data.len() as u64))
            }
            AnswerBody::Boxed(body) => body.size_hint(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_whole_body_is_one_frame_of_its_exact_length_and_reads_the_same_through_axum() {
        let answer = json(StatusCode::OK, r#"{"ok":true}"#.to_owned());
        assert_eq!(answer.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(answer.body().size_hint().exact(), Some(11));
        let mut body = answer.into_body();
        let frame = body.frame().await.unwrap().unwrap();
        assert_eq!(frame.into_data().unwrap(), r#"{"ok":true}"#);
        assert!(body.is_end_stream());
        assert!(body.frame().await.is_none());

        let through_axum = into_response(json(StatusCode::CREATED, "[]".to_owned()));
        assert_eq!(through_axum.status(), StatusCode::CREATED);
        let bytes = through_axum.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(bytes, "[]");
    }
}
