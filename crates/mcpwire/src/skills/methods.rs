//! The Skills extension's methods: `skills/list` (paginated), `skills/get` (one skill by its
//! `SKILL.md` URI; `-32602` for any other) and `resources/directory/read` (a folder's children;
//! `-32602` for anything that is not a folder of a skill). None needs the client to have
//! declared the extension: the skills are the server's to show. Each reads the skills the
//! server publishes from its shared state, where a mount ([`McpServer::mount`]) leaves the
//! outer server's and the mounted servers' as one set.
//!
//! [`McpServer::mount`]: crate::McpServer::mount

use super::read::Published;
use super::set::SkillSet;
use crate::extension::ExtensionRequest;
use crate::protocol::ErrorObject;
use crate::protocol::skills::{ListSkillsParams, SkillUriParams, quoted_uri};
use crate::server::pages::Pages;
use serde_json::{Value, json};
use std::sync::Arc;

/// The skills the server publishes.
fn published(request: &ExtensionRequest) -> Result<Arc<SkillSet>, ErrorObject> {
    let published = request.context().try_state::<Published>();
    let unpublished = || {
        ErrorObject::new(
            crate::protocol::code::INTERNAL_ERROR,
            "the server publishes no skills",
        )
    };
    published
        .map(|published| Arc::clone(&published.0))
        .ok_or_else(unpublished)
}

/// `skills/list`: one page of the skills' entries.
pub(super) async fn list(request: ExtensionRequest) -> Result<Value, ErrorObject> {
    let set = published(&request)?;
    let params: ListSkillsParams = request.params()?;
    page(set.listing(), params.cursor.as_deref())
}

/// `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`.
pub(super) async fn get(request: ExtensionRequest) -> Result<Value, ErrorObject> {
    let set = published(&request)?;
    let params: SkillUriParams = request.params()?;
    match set.skill(&params.uri) {
        Some(skill) => Ok(json!({ "skill": skill.entry })),
        None => Err(ErrorObject::invalid_params(format!(
            "Invalid params: no skill is served at {}",
            quoted_uri(&params.uri)
        ))),
    }
}

/// `resources/directory/read`: one page of the children of the folder at `uri`.
pub(super) async fn read_folder(request: ExtensionRequest) -> Result<Value, ErrorObject> {
    let set = published(&request)?;
    let params: SkillUriParams = request.params()?;
    let Some(children) = set.folder(&params.uri) else {
        return Err(ErrorObject::invalid_params(format!(
            "Invalid params: {} is not a folder of a skill",
            quoted_uri(&params.uri)
        )));
    };
    page(children, params.cursor.as_deref())
}

/// The page a cursor points at (serialized once, when the server started); `-32602` for a
/// cursor this server did not issue.
fn page(pages: &Pages, cursor: Option<&str>) -> Result<Value, ErrorObject> {
    let page = pages
        .page(cursor)
        .ok_or_else(|| ErrorObject::invalid_params("Invalid params: unknown cursor"))?;
    Ok(serde_json::from_str(page.get()).expect("pages are JSON"))
}
