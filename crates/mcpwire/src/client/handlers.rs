//! The answers to the server's questions (elicitation, sampling, roots): one set of closures for
//! both eras. On 2025-11-25 they answer the server's requests; on 2026-07-28 they fill the
//! `inputResponses` of an `input_required` retry. The capabilities the client declares follow
//! from which closures are set.

use super::transport::BoxFuture;
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::{ELICITATION_CREATE, ROOTS_LIST, SAMPLING_CREATE_MESSAGE};
use crate::protocol::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ErrorObject, ListRootsResult,
};
use serde_json::{Value, json};
use std::future::Future;
use std::sync::Arc;

/// A form-mode elicitation: a message and the flat object schema of the answer.
///
/// # Examples
///
/// ```
/// use mcpwire::client::FormElicitation;
///
/// let question = FormElicitation {
///     message: "Order anyway?".into(),
///     requested_schema: serde_json::json!({"type": "object"}),
/// };
/// assert_eq!(question.message, "Order anyway?");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FormElicitation {
    /// What to ask the user.
    pub message: String,
    /// The schema of the answer's `content`.
    pub requested_schema: Value,
}

impl FormElicitation {
    /// The `default` of every property of the requested schema that has one (SEP-1034), as
    /// answer content: what a client that accepts the defaults sends.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::FormElicitation;
    /// use serde_json::json;
    ///
    /// let question = FormElicitation {
    ///     message: "Who are you?".into(),
    ///     requested_schema: json!({"type": "object", "properties": {
    ///         "name": {"type": "string", "default": "John Doe"},
    ///         "age": {"type": "integer", "default": 30},
    ///         "nickname": {"type": "string"}
    ///     }}),
    /// };
    /// assert_eq!(
    ///     serde_json::Value::Object(question.defaults()),
    ///     json!({"name": "John Doe", "age": 30})
    /// );
    /// ```
    pub fn defaults(&self) -> serde_json::Map<String, Value> {
        self.requested_schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(name, property)| Some((name.clone(), property.get("default")?.clone())))
            .collect()
    }
}

/// A URL-mode elicitation: the user is asked to open a URL.
///
/// # Examples
///
/// ```
/// use mcpwire::client::UrlElicitation;
///
/// let question = UrlElicitation {
///     message: "Sign in".into(),
///     url: "https://example.com/login".into(),
///     elicitation_id: None,
/// };
/// assert!(question.url.starts_with("https://"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UrlElicitation {
    /// Why the user should open it.
    pub message: String,
    /// The URL.
    pub url: String,
    /// 2025-11-25 only: the id a later `notifications/elicitation/complete` names.
    pub elicitation_id: Option<String>,
}

type Answer<T> = Arc<dyn Fn(T) -> BoxFuture<'static, Result<Value, ErrorObject>> + Send + Sync>;

/// The closures answering each kind of question.
#[derive(Clone, Default)]
pub(crate) struct Handlers {
    form: Option<Answer<FormElicitation>>,
    url: Option<Answer<UrlElicitation>>,
    sampling: Option<Answer<CreateMessageRequestParams>>,
    roots: Option<Answer<()>>,
    /// The extensions the client declares, with their settings.
    extensions: serde_json::Map<String, Value>,
}

fn boxed<T, R, F, Fut>(f: F) -> Answer<T>
where
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
    R: serde::Serialize,
    T: 'static,
{
    Arc::new(move |question| {
        let answer = f(question);
        Box::pin(async move {
            let answer = answer.await?;
            serde_json::to_value(answer).map_err(|_| ErrorObject::internal())
        })
    })
}

impl Handlers {
    pub(crate) fn set_form<F, Fut>(&mut self, f: F)
    where
        F: Fn(FormElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitResult> + Send + 'static,
    {
        self.form = Some(boxed(move |q| {
            let answer = f(q);
            async move { Ok::<_, ErrorObject>(answer.await) }
        }));
    }

    pub(crate) fn set_url<F, Fut>(&mut self, f: F)
    where
        F: Fn(UrlElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitResult> + Send + 'static,
    {
        self.url = Some(boxed(move |q| {
            let answer = f(q);
            async move { Ok::<_, ErrorObject>(answer.await) }
        }));
    }

    pub(crate) fn set_sampling<F, Fut>(&mut self, f: F)
    where
        F: Fn(CreateMessageRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<CreateMessageResult, ErrorObject>> + Send + 'static,
    {
        self.sampling = Some(boxed(f));
    }

    pub(crate) fn set_roots<F, Fut>(&mut self, f: F)
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ListRootsResult> + Send + 'static,
    {
        self.roots = Some(boxed(move |()| {
            let answer = f();
            async move { Ok::<_, ErrorObject>(answer.await) }
        }));
    }

    /// The capabilities these handlers answer for.
    pub(crate) fn capabilities(&self) -> ClientCapabilities {
        let mut caps = ClientCapabilities::default();
        if self.form.is_some() || self.url.is_some() {
            let mut modes = serde_json::Map::new();
            if self.form.is_some() {
                modes.insert("form".into(), json!({}));
            }
            if self.url.is_some() {
                modes.insert("url".into(), json!({}));
            }
            caps.elicitation = Some(Value::Object(modes));
        }
        if self.sampling.is_some() {
            caps.sampling = Some(json!({}));
        }
        if self.roots.is_some() {
            caps.roots = Some(json!({}));
        }
        if !self.extensions.is_empty() {
            let extensions = Value::Object(self.extensions.clone());
            caps.other.insert("extensions".into(), extensions);
        }
        caps
    }

    /// Declares the extension `id` with `settings`.
    pub(crate) fn declare_extension(&mut self, id: String, settings: Value) {
        self.extensions.insert(id, settings);
    }

    /// Answers one question (`method` with `params`), as the JSON of its result.
    pub(crate) async fn answer(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, ErrorObject> {
        let params = params.unwrap_or_else(|| json!({}));
        match method {
            ELICITATION_CREATE => {
                let request: ElicitRequestParams = parse(with_default_mode(params))?;
                match request {
                    ElicitRequestParams::Form {
                        message,
                        requested_schema,
                    } => {
                        let f = self
                            .form
                            .as_ref()
                            .ok_or_else(|| unsupported("form elicitation"))?;
                        f(FormElicitation {
                            message,
                            requested_schema,
                        })
                        .await
                    }
                    ElicitRequestParams::Url {
                        message,
                        url,
                        elicitation_id,
                    } => {
                        let f = self
                            .url
                            .as_ref()
                            .ok_or_else(|| unsupported("URL elicitation"))?;
                        f(UrlElicitation {
                            message,
                            url,
                            elicitation_id,
                        })
                        .await
                    }
                }
            }
            SAMPLING_CREATE_MESSAGE => {
                let f = self
                    .sampling
                    .as_ref()
                    .ok_or_else(|| unsupported("sampling"))?;
                f(parse(params)?).await
            }
            ROOTS_LIST => {
                let f = self.roots.as_ref().ok_or_else(|| unsupported("roots"))?;
                f(()).await
            }
            other => Err(ErrorObject::method_not_found(other)),
        }
    }
}

/// A form elicitation may leave out `mode` (2025-06-18 and 2025-11-25 allow it).
fn with_default_mode(mut params: Value) -> Value {
    if let Value::Object(map) = &mut params
        && !map.contains_key("mode")
    {
        map.insert("mode".into(), json!("form"));
    }
    params
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, ErrorObject> {
    serde_json::from_value(params)
        .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))
}

fn unsupported(what: &str) -> ErrorObject {
    ErrorObject::new(
        code::METHOD_NOT_FOUND,
        format!("This client does not support {what}"),
    )
}
