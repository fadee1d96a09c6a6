//! The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) through the gateway: a
//! backend that declares it has its `skills/list`, `skills/get` and `resources/directory/read`
//! passed on, every URI in their answers shown under the backend's namespace as resources are
//! (`skill://{namespace}/<skill-path>/…`: SEP-2640 lets a server put any segments before a
//! skill's name, so names, front matter, digests and sizes stay the backend's). The files
//! themselves are the backend's resources and templates, proxied as any other.
//!
//! The front declares the extension when a backend connected at start-up declares it.
//! `skills/list` goes through the backends that declare it in turn, one backend page per front
//! page (the front cursor names the backend and carries its cursor); a backend that is down or
//! fails at the start of its turn is left out of the listing, as its tools are.

use super::error::GatewayError;
use super::link::Failure;
use super::mounted::Mounted;
use super::names::{front_uri, split_front_uri};
use super::proxy::authorization;
use crate::extension::ExtensionRequest;
use crate::protocol::skills::{
    DIRECTORY_READ, EXTENSION, GET, LIST, ListSkillsParams, SkillUriParams, quoted_uri,
};
use crate::protocol::{ErrorObject, code};
use crate::server::{Extension, Install, McpServer};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The longest backend cursor a front cursor may carry.
const MAX_CURSOR: usize = 4096;

/// Declares the extension on `server` when a backend of `mounted` declares it (with
/// `directoryRead` when one of them does), unless `server` offers it itself: then its own skills
/// are served and the backends' are not listed (their files are still read as resources).
///
/// # Errors
///
/// When the server serves one of the extension's methods otherwise.
pub(crate) fn offer(server: McpServer, mounted: &Mounted) -> Result<McpServer, GatewayError> {
    let declared: Vec<Value> = (mounted.links.iter())
        .filter_map(|link| link.declared(EXTENSION))
        .collect();
    if declared.is_empty() {
        return Ok(server);
    }
    if server.offers_extension(EXTENSION) {
        tracing::warn!(
            "the gateway's server publishes skills of its own: the backends' skills are not listed"
        );
        return Ok(server);
    }
    let directory_read = (declared.iter()).any(|settings| settings["directoryRead"] == true);
    (server.extension(Proxied { directory_read }))
        .map_err(|error| GatewayError(format!("the backends' skills cannot be served: {error}")))
}

/// The extension, as the gateway offers it.
struct Proxied {
    directory_read: bool,
}

impl Extension for Proxied {
    const ID: &'static str = EXTENSION;

    fn install(self, install: &mut Install<'_>) -> Result<(), crate::error::InvalidSignature> {
        install.cacheable_method(LIST, list);
        install.cacheable_method(GET, get);
        if self.directory_read {
            install.settings(json!({ "directoryRead": true }));
            install.cacheable_method(DIRECTORY_READ, read_folder);
        }
        Ok(())
    }
}

fn invalid(message: String) -> ErrorObject {
    ErrorObject::invalid_params(format!("Invalid params: {message}"))
}

/// The gateway serving `request`.
fn mounted(request: &ExtensionRequest) -> Result<Arc<Mounted>, ErrorObject> {
    let mounted = request.context().try_state::<Arc<Mounted>>();
    let missing = || ErrorObject::new(code::INTERNAL_ERROR, "the gateway is not running");
    mounted.cloned().ok_or_else(missing)
}

/// `skills/list`: one page of one backend's skills, under its namespace.
async fn list(request: ExtensionRequest) -> Result<Value, ErrorObject> {
    let params: ListSkillsParams = request.params()?;
    let mounted = mounted(&request)?;
    let (mut at, mut cursor) = match params.cursor.as_deref() {
        None => (0, None),
        Some(front) => from_cursor(front, mounted.links.len())
            .ok_or_else(|| invalid("unknown cursor".to_owned()))?,
    };
    while at < mounted.links.len() {
        if mounted.links[at].declared(EXTENSION).is_none() {
            (at, cursor) = (at + 1, None);
            continue;
        }
        let params = match &cursor {
            Some(cursor) => json!({ "cursor": cursor }),
            None => json!({}),
        };
        let page = match ask(&mounted, &request, at, LIST, params).await {
            Ok(page) => page,
            Err(error) if cursor.is_some() => return Err(error),
            Err(error) => {
                let backend = &mounted.links[at].backend.name;
                tracing::warn!(%backend, error = %error.message, "a backend's skills are left out of a listing");
                (at, cursor) = (at + 1, None);
                continue;
            }
        };
        let namespace = &mounted.links[at].backend.namespace;
        let mut skills = match page.get("skills") {
            Some(Value::Array(skills)) => skills.clone(),
            _ => Vec::new(),
        };
        skills
            .iter_mut()
            .for_each(|skill| entry_under(namespace, skill));
        let next = match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) => Some(format!("{at}:{next}")),
            None => (at + 1..mounted.links.len())
                .find(|later| mounted.links[*later].declared(EXTENSION).is_some())
                .map(|later| format!("{later}:")),
        };
        let mut result = Map::new();
        result.insert("skills".into(), Value::Array(skills));
        if let Some(next) = next {
            result.insert("nextCursor".into(), Value::String(next));
        }
        return Ok(Value::Object(result));
    }
    Ok(json!({ "skills": [] }))
}

/// `skills/get`: the entry of the skill at `uri`, from the backend serving it.
async fn get(request: ExtensionRequest) -> Result<Value, ErrorObject> {
    let params: SkillUriParams = request.params()?;
    let mounted = mounted(&request)?;
    let no_skill = || invalid(format!("no skill is served at {}", quoted_uri(&params.uri)));
    let (backend, uri) = route(&mounted, &params.uri).ok_or_else(no_skill)?;
    let answer = ask(&mounted, &request, backend, GET, json!({ "uri": uri })).await?;
    let mut skill = answer.get("skill").cloned().unwrap_or_default();
    entry_under(&mounted.links[backend].backend.namespace, &mut skill);
    Ok(json!({ "skill": skill }))
}

/// `resources/directory/read`: one page of the children of the folder at `uri`, from the
/// backend serving it (its cursors passed through).
async fn read_folder(request: ExtensionRequest) -> Result<Value, ErrorObject> {
    let params: SkillUriParams = request.params()?;
    let mounted = mounted(&request)?;
    let no_folder = || {
        invalid(format!(
            "{} is not a folder of a skill",
            quoted_uri(&params.uri)
        ))
    };
    let (backend, uri) = route(&mounted, &params.uri).ok_or_else(no_folder)?;
    let mut asked = json!({ "uri": uri });
    if let Some(cursor) = &params.cursor {
        asked["cursor"] = Value::String(cursor.clone());
    }
    let answer = ask(&mounted, &request, backend, DIRECTORY_READ, asked).await?;
    let namespace = &mounted.links[backend].backend.namespace;
    let mut children = match answer.get("resources") {
        Some(Value::Array(children)) => children.clone(),
        _ => Vec::new(),
    };
    children
        .iter_mut()
        .for_each(|child| uri_under(namespace, child));
    let mut result = json!({ "resources": children });
    if let Some(next) = answer.get("nextCursor").filter(|next| next.is_string()) {
        result["nextCursor"] = next.clone();
    }
    Ok(result)
}

/// The backend serving the skill URI `uri` (a `SKILL.md`, a file or a folder) and the URI
/// there: the backend whose listed resource it is; else the one whose namespace is its first
/// segment; else the one without a namespace. Only a backend that declares the extension.
fn route(mounted: &Mounted, uri: &str) -> Option<(usize, String)> {
    let links = &mounted.links;
    let routed = match mounted.resources.route(uri) {
        Some(route) => Some((route.backend, route.name)),
        None => (split_front_uri(uri))
            .and_then(|(namespace, back)| {
                let named = |link: &super::link::Link| link.backend.namespace == namespace;
                let at = links.iter().position(named)?;
                Some((at, back))
            })
            .or_else(|| {
                let at = links.iter().position(|l| l.backend.namespace.is_empty())?;
                Some((at, uri.to_owned()))
            }),
    };
    routed.filter(|(at, _)| links[*at].declared(EXTENSION).is_some())
}

/// Sends `method` with `params` to backend `backend` for `request`'s caller; its error as it
/// came, or a clear one when it is unavailable.
async fn ask(
    mounted: &Mounted,
    request: &ExtensionRequest,
    backend: usize,
    method: &'static str,
    params: Value,
) -> Result<Value, ErrorObject> {
    let token = authorization(request.context());
    let link = &mounted.links[backend];
    let answer = link
        .using(token.as_deref(), |client| async move {
            client.request(method, params).await
        })
        .await;
    answer.map_err(|failure| match failure {
        Failure::Rpc(error) => error,
        Failure::Unavailable(message) => ErrorObject::new(code::INTERNAL_ERROR, message),
    })
}

/// A skill entry's URIs (its own, its files') under `namespace`.
fn entry_under(namespace: &str, entry: &mut Value) {
    uri_under(namespace, entry);
    if let Some(files) = entry.get_mut("resources").and_then(Value::as_array_mut) {
        files.iter_mut().for_each(|file| uri_under(namespace, file));
    }
}

/// `item`'s `uri` under `namespace`.
fn uri_under(namespace: &str, item: &mut Value) {
    if let Some(Value::String(uri)) = item.get_mut("uri") {
        *uri = front_uri(namespace, uri);
    }
}

/// The backend index and backend cursor a front cursor (`{index}:{cursor}`, an empty cursor
/// being the backend's first page) stands for; `None` for one the gateway did not make.
fn from_cursor(front: &str, backends: usize) -> Option<(usize, Option<String>)> {
    let (at, cursor) = front.split_once(':')?;
    let at: usize = at.parse().ok().filter(|at| *at < backends)?;
    if cursor.len() > MAX_CURSOR {
        return None;
    }
    Some((at, (!cursor.is_empty()).then(|| cursor.to_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_cursors_name_a_backend_and_carry_its_cursor() {
        assert_eq!(from_cursor("0:", 2), Some((0, None)));
        assert_eq!(from_cursor("1:a:b", 2), Some((1, Some("a:b".to_owned()))));
        assert_eq!(from_cursor("2:", 2), None);
        assert_eq!(from_cursor("x:", 2), None);
        assert_eq!(from_cursor("0", 2), None);
        assert_eq!(
            from_cursor(&format!("0:{}", "c".repeat(MAX_CURSOR + 1)), 2),
            None
        );
    }

    #[test]
    fn an_entry_is_shown_under_the_namespace_with_its_name_and_digests() {
        let mut entry = json!({
            "uri": "skill://find-a-book/SKILL.md",
            "frontmatter": {"name": "find-a-book", "description": "d"},
            "resources": [{"uri": "skill://find-a-book/SKILL.md", "digest": "sha256:00", "size": 1}],
        });
        entry_under("docs", &mut entry);
        assert_eq!(entry["uri"], "skill://docs/find-a-book/SKILL.md");
        assert_eq!(
            entry["resources"][0]["uri"],
            "skill://docs/find-a-book/SKILL.md"
        );
        assert_eq!(entry["resources"][0]["digest"], "sha256:00");
        assert_eq!(entry["frontmatter"]["name"], "find-a-book");
    }
}
