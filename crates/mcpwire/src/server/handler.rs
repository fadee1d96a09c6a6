//! Handlers: what registration derives for a tool, prompt or resource, and the call its
//! generated code runs against (arguments, resolvers, the failure result).

use crate::context::{Context, LazyContext};
use crate::error::ToolError;
use crate::protocol::ErrorObject;
use crate::protocol::tools::CallToolResult;
use crate::request_state::ReplayGuard;
use crate::resolve::from_resolved::ConsumerCheck;
use crate::resolve::plan::ToolPlan;
use crate::resolve::run::resolve;
use crate::resolve::{ArgumentSource, Resolved, RoundInputs, Stop};
use crate::schema::Validator;
use crate::wire::shared_json::SharedJson;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The future a handler runs as: its result `T`, or the reason it stopped before its body ran
/// (a failure, a protocol error, questions for the client).
pub type HandlerFuture<T> = Pin<Box<dyn Future<Output = Result<T, Stop>> + Send>>;

/// What registration derived for a tool, prompt or resource: what its generated code needs at
/// call time.
pub(crate) struct Handler {
    /// The tool's (prompt's, resource's) name, for error messages.
    pub(crate) name: &'static str,
    /// Its resolver graph.
    pub(crate) plan: ToolPlan,
    /// Structured output is wrapped as `{"result": …}` because its schema's root is not an
    /// object (tools only).
    pub(crate) wrap_output: bool,
    /// The MIME type of what it returns (resources only).
    pub(crate) mime_type: Option<&'static str>,
    /// Its input schema, compiled at registration: arguments must fit it, not only the
    /// parameters' types (tools only; `None` when the schema says no more than the types).
    pub(crate) input_check: Option<Arc<Validator>>,
}

impl Handler {
    /// The handler of `name` running `plan`, with nothing kind-specific: no output wrapping, no
    /// MIME type, no argument check beyond the parameters' types.
    pub(crate) fn new(name: &'static str, plan: ToolPlan) -> Self {
        Self {
            name,
            plan,
            wrap_output: false,
            mime_type: None,
            input_check: None,
        }
    }

    /// The same handler running `plan` instead (the overrides changed).
    pub(crate) fn replanned(&self, plan: ToolPlan) -> Self {
        Self {
            name: self.name,
            plan,
            wrap_output: self.wrap_output,
            mime_type: self.mime_type,
            input_check: self.input_check.clone(),
        }
    }
}

/// One call of a tool (or prompt, or resource), as its generated code sees it.
pub struct HandlerCall {
    /// The arguments, the context, and the error the body ended with: what the runner reads
    /// once the call's future (which takes the call) is done.
    pub(crate) kept: Arc<CallKept>,
    pub(crate) handler: Arc<Handler>,
    pub(crate) round: RoundInputs,
    /// The URI being read (resources only).
    pub(crate) uri: Option<String>,
    /// Refuses a replayed final round (`#[tool(once)]` tools only).
    pub(crate) replay_guard: Option<Arc<dyn ReplayGuard>>,
    /// Told once every resolver has its value, just before the body runs (a tool that asks its
    /// questions before its task starts).
    pub(crate) resolved: std::sync::Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
}

/// What the runner of a call keeps of it while the call's future runs, and reads after.
pub(crate) struct CallKept {
    /// The arguments as sent (`None` when there were none): a round's `requestState` is bound
    /// to them, sealed after the call.
    pub(crate) arguments: Option<SharedJson>,
    /// The request's context (given, or made when the call first asks for it): its open
    /// URL-mode elicitations are completed once the call ends.
    pub(crate) context: LazyContext,
    /// The JSON-RPC error the body ended with ([`ToolError::protocol`]).
    pub(crate) raised: std::sync::OnceLock<ErrorObject>,
}

impl CallKept {
    /// A call's, with these `arguments` and this `context`.
    #[inline]
    pub(crate) fn new(arguments: Option<SharedJson>, context: LazyContext) -> Arc<Self> {
        Arc::new(Self {
            arguments,
            context,
            raised: std::sync::OnceLock::new(),
        })
    }
}

impl HandlerCall {
    /// The request's context.
    pub fn context(&self) -> Context {
        self.context_ref().clone()
    }

    /// The request's context, borrowed (made now, if nothing asked for it before).
    pub(crate) fn context_ref(&self) -> &Context {
        self.kept.context.get()
    }

    /// Parses the arguments once into the tool's argument type, and checks them against the
    /// tool's input schema (constraints such as `maxLength` or `pattern`, not only types). A
    /// missing `arguments` object reads as `{}`; a value sent under a name the type does not
    /// have (e.g. a resolved parameter's) is dropped, unless the schema forbids it.
    pub fn parse_arguments<A: DeserializeOwned>(&self) -> Result<A, ToolError> {
        let text = self.kept.arguments.as_ref().map_or("{}", SharedJson::get);
        match &self.handler.input_check {
            Some(check) => checked_arguments(text, check),
            None => typed_arguments(text),
        }
    }

    /// Runs the tool's resolvers for this round; `checks` are its resolved parameters' early
    /// refusals (see `FromResolved::refuses`), in order.
    pub async fn resolve<'a>(
        &'a self,
        arguments: &'a dyn ArgumentSource,
        checks: &[(ConsumerCheck, &'static str)],
    ) -> Result<Resolved<'a>, Stop> {
        let resolved = resolve(
            &self.handler.plan,
            self.context_ref(),
            arguments,
            &self.round,
            checks,
        )
        .await?;
        if let (Some(guard), Some(call)) = (&self.replay_guard, &self.round.get().call) {
            match guard.first_use(&call.id, call.expires_at_ms).await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!(tool = self.handler.name, "refused a replayed requestState");
                    return Err(Stop::Protocol(ErrorObject::invalid_params(
                        "Invalid or expired requestState",
                    )));
                }
                Err(unavailable) => {
                    // Not knowing whether the call completed elsewhere, it must not run.
                    tracing::error!(tool = self.handler.name, %unavailable, "refused a once-only call");
                    return Err(Stop::Protocol(ErrorObject::new(
                        crate::protocol::code::SERVER_BUSY,
                        "Server busy: this call cannot be checked against replays now; try again",
                    )));
                }
            }
        }
        let resolved_signal = self
            .resolved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(signal) = resolved_signal {
            let _ = signal.send(());
        }
        Ok(resolved)
    }

    /// The `isError` result for a failure: `Error executing tool <name>: <message>`. A
    /// [`ToolError::protocol`] failure is recorded instead: the call ends with its JSON-RPC error.
    pub fn failed(&self, error: ToolError) -> CallToolResult {
        if let Some(protocol) = error.protocol_error() {
            let _ = self.kept.raised.set(protocol.clone());
        }
        failure(self.handler.name, &error)
    }

    /// The URI being read, on a resource read; empty otherwise.
    pub fn uri(&self) -> &str {
        self.uri.as_deref().unwrap_or_default()
    }

    /// Whether structured output is wrapped as `{"result": …}`.
    pub(crate) fn wraps_output(&self) -> bool {
        self.handler.wrap_output
    }
}

/// Arguments parsed straight into `A`: only their types are checked.
fn typed_arguments<A: DeserializeOwned>(text: &str) -> Result<A, ToolError> {
    // Valid arguments take the plain parser; only a failure is parsed again, tracking the path,
    // to name the offending argument (the tracking costs as much as the parse).
    serde_json::from_str(text).or_else(|_| tracked_arguments(text))
}

/// Arguments checked against the input schema, then turned into `A`. The text is parsed once
/// into a `Value`, which is checked and then moved into `A` (cheaper than parsing the text
/// twice, once into `A` and once for the check: `docs/benchmarks.md`).
fn checked_arguments<A: DeserializeOwned>(text: &str, check: &Validator) -> Result<A, ToolError> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return tracked_arguments(text);
    };
    if !check.is_valid(&value) {
        // A wrong type keeps serde's wording; a broken constraint is named by the schema.
        return match tracked_arguments::<A>(text) {
            Err(error) => Err(error),
            Ok(_) => Err(match check.violation(&value) {
                Some(violation) => ToolError::new(format!("invalid arguments: {violation}")),
                None => ToolError::new("invalid arguments"),
            }),
        };
    }
    A::deserialize(value).or_else(|_| tracked_arguments(text))
}

/// Parses `text` into `A` tracking the path, to name the offending argument in the error.
fn tracked_arguments<A: DeserializeOwned>(text: &str) -> Result<A, ToolError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        let message = inner.to_string();
        let why = strip_position(&message);
        if path == "." {
            ToolError::new(format!("invalid arguments: {why}"))
        } else {
            ToolError::new(format!("invalid arguments: {path}: {why}"))
        }
    })
}

pub(crate) fn failure(tool: &str, error: &ToolError) -> CallToolResult {
    CallToolResult::error(format!("Error executing tool {tool}: {error}"))
}

/// serde_json appends " at line 1 column 17" to its messages: noise for a model.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    }
}
