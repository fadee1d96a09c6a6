//! The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) on the wire: its methods
//! and what they answer.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";
/// Lists the skills (paginated).
pub const LIST: &str = "skills/list";
/// One skill, by the URI of its `SKILL.md`.
pub const GET: &str = "skills/get";
/// The children of a folder (declared as the setting `directoryRead`).
pub const DIRECTORY_READ: &str = "resources/directory/read";

/// `skills/list`'s params.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListSkillsParams {
    /// Where the page starts: the previous page's `nextCursor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// `skills/get`'s and `resources/directory/read`'s params: a skill's `SKILL.md`, or a folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillUriParams {
    /// The `SKILL.md` (`skills/get`) or folder (`resources/directory/read`) asked for.
    pub uri: String,
    /// Where a folder's page starts (`resources/directory/read`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// A URI from a request, as an error message quotes it: at most its first 256 bytes.
#[cfg(any(feature = "skills", feature = "gateway"))]
pub(crate) fn quoted_uri(uri: &str) -> &str {
    let mut end = uri.len().min(256);
    while !uri.is_char_boundary(end) {
        end -= 1;
    }
    &uri[..end]
}

/// One skill, as `skills/list` and `skills/get` show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// The URI of its `SKILL.md` (`skill://<folder>/SKILL.md`).
    pub uri: String,
    /// Its `SKILL.md`'s front matter, as written (`name`, `description`, …).
    pub frontmatter: Map<String, Value>,
    /// Its files, or `"dynamic"` when the server makes them per request.
    pub resources: SkillResources,
}

impl Skill {
    /// The skill's name, from its front matter.
    pub fn name(&self) -> Option<&str> {
        self.frontmatter.get("name").and_then(Value::as_str)
    }

    /// The skill's description, from its front matter.
    pub fn description(&self) -> Option<&str> {
        self.frontmatter.get("description").and_then(Value::as_str)
    }
}

/// A skill's files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SkillResources {
    /// Every file, with its digest and size.
    Listed(Vec<SkillFile>),
    /// `"dynamic"`: made per request, so not listed.
    Dynamic(String),
}

/// One file of a skill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillFile {
    /// Where `resources/read` reads it.
    pub uri: String,
    /// `sha256:` and the lowercase hex SHA-256 of its bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// `skills/get`'s result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GetSkillResult {
    /// The skill.
    pub skill: Skill,
}
