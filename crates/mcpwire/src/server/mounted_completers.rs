//! The completers of mounted servers ([`McpServer::mount`](super::McpServer::mount)): each
//! answers `completion/complete` for its own prompts and resource templates, asked under the
//! names they had on the server it came from; any other reference goes to the server's own
//! completer.

use super::completer::Completer;
use super::remount::{Adopted, of_kind, renamed};
use crate::context::Context;
use crate::layer::service::HandlerKind;
use crate::protocol::completion::{CompleteParams, Completion, CompletionReference};
use std::collections::HashMap;
use std::sync::Arc;

/// A mounted server's completer, and the prompts and templates it answers for.
#[derive(Clone)]
struct Mounted {
    /// A prompt's name here → its name on the mounted server.
    prompts: HashMap<&'static str, &'static str>,
    /// A resource's URI or URI template here → the mounted server's.
    resources: HashMap<&'static str, &'static str>,
    completer: Completer,
}

/// Every mounted server's completer, in the order they were mounted.
#[derive(Clone, Default)]
pub(crate) struct MountedCompleters(Vec<Mounted>);

impl MountedCompleters {
    /// Adds the completer of a server whose entries were `adopted`, and the mounted completers
    /// that server had itself, renamed the same way.
    pub(crate) fn mount(
        &mut self,
        adopted: &Adopted,
        own: Option<Completer>,
        nested: MountedCompleters,
    ) {
        let here = |kind: HandlerKind, key: &str| renamed(adopted, kind, key);
        for inner in nested.0 {
            let prompts = rekey(inner.prompts, |key| here(HandlerKind::Prompt, key));
            let resources = rekey(inner.resources, |key| here(HandlerKind::Resource, key));
            self.0.push(Mounted {
                prompts,
                resources,
                completer: inner.completer,
            });
        }
        if let Some(completer) = own {
            let of = |kind: HandlerKind| {
                (of_kind(adopted, kind))
                    .map(|(there, here)| (here, there))
                    .collect()
            };
            self.0.push(Mounted {
                prompts: of(HandlerKind::Prompt),
                resources: of(HandlerKind::Resource),
                completer,
            });
        }
    }

    /// The server's completer: the mounted ones for their own references, `own` for the rest;
    /// `None` when there is neither.
    pub(crate) fn in_front_of(self, own: Option<Completer>) -> Option<Completer> {
        if self.0.is_empty() {
            return own;
        }
        let mounted = Arc::new(self.0);
        Some(Arc::new(
            move |request: CompleteParams, context: Context| {
                for server in mounted.iter() {
                    if let Some(reference) = server.reference(&request.reference) {
                        let request = CompleteParams {
                            reference,
                            ..request
                        };
                        return (server.completer)(request, context);
                    }
                }
                match &own {
                    Some(own) => own(request, context),
                    None => Box::pin(async { Completion::default() }),
                }
            },
        ))
    }
}

impl Mounted {
    /// `reference` as the mounted server names it; `None` when it is not one of its own.
    fn reference(&self, reference: &CompletionReference) -> Option<CompletionReference> {
        match reference {
            CompletionReference::Prompt { name, title } => {
                let name = (*self.prompts.get(name.as_str())?).to_owned();
                let title = title.clone();
                Some(CompletionReference::Prompt { name, title })
            }
            CompletionReference::Resource { uri } => {
                let uri = (*self.resources.get(uri.as_str())?).to_owned();
                Some(CompletionReference::Resource { uri })
            }
        }
    }
}

/// `names` with each key here replaced by `here(key)`; a name no longer served is dropped.
fn rekey(
    names: HashMap<&'static str, &'static str>,
    here: impl Fn(&str) -> Option<&'static str>,
) -> HashMap<&'static str, &'static str> {
    (names.into_iter())
        .filter_map(|(key, original)| Some((here(key)?, original)))
        .collect()
}
