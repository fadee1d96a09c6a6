//! The skills' files as resources: each `SKILL.md` listed in `resources/list` (its name,
//! description and `text/markdown`), every file readable with `resources/read` through one
//! template, `skill://{+path}`. Reads are answered from the files loaded at start-up.

use super::set::{SCHEME, ServedFile, SkillSet};
use crate::error::ToolError;
use crate::protocol::content::ResourceContents;
use crate::resolve::Stop;
use crate::server::handler::HandlerCall;
use crate::server::resource::{ResourceDefinition, ResourceFuture, lasting};
use std::sync::Arc;

/// How long a client may reuse a read of a skill file (the files do not change while the
/// server runs): five minutes.
const TTL_MS: u64 = 300_000;

/// The template every skill file is read through, the same in every server with skills: its
/// handler reads the files of the server it serves in (its own and its mounted servers').
pub(super) const FILES_TEMPLATE: &str = "skill://{+path}";

/// The skills a server publishes, as its handlers find them in its shared state.
pub(super) struct Published(pub(super) Arc<SkillSet>);

/// The resources that serve `set`'s files: one per `SKILL.md` (listed), and the template that
/// reads every file. Their strings live as long as the process: a server registers them once.
pub(super) fn resources(set: &SkillSet) -> Vec<ResourceDefinition> {
    let mut resources: Vec<ResourceDefinition> = (set.skills.iter())
        .map(|skill| ResourceDefinition {
            description: Some(lasting(&skill.description)),
            mime_type: Some("text/markdown"),
            ..ResourceDefinition::served(&skill.uri, &skill.name, TTL_MS, read)
        })
        .collect();
    resources.push(file_template());
    resources
}

/// The template every skill file is read through.
fn file_template() -> ResourceDefinition {
    ResourceDefinition {
        title: Some("Skill files"),
        description: Some(
            "The files of the skills this server publishes (skills/list names them).",
        ),
        ..ResourceDefinition::served(FILES_TEMPLATE, "skill-files", TTL_MS, read)
    }
}

/// Reads the skill file the call's URI names; an unknown one is not found.
fn read(call: HandlerCall) -> ResourceFuture {
    Box::pin(async move {
        let context = call.context();
        let published = context.state::<Published>();
        let uri = call.uri.unwrap_or_default();
        let file = (uri.starts_with(SCHEME))
            .then(|| published.0.file(&uri))
            .flatten()
            .ok_or_else(|| Stop::InvalidArguments(ToolError::new("no such skill file")))?;
        Ok(vec![contents(uri.clone(), file)])
    })
}

/// What a `resources/read` of the file at `uri` answers with.
fn contents(uri: String, file: &ServedFile) -> ResourceContents {
    let mime_type = Some(file.mime_type.clone());
    match (&file.text, &file.blob) {
        (Some(text), _) => ResourceContents::Text {
            uri,
            mime_type,
            text: text.clone(),
            meta: None,
        },
        (None, blob) => ResourceContents::Blob {
            uri,
            mime_type,
            blob: blob.clone().unwrap_or_default(),
            meta: None,
        },
    }
}
