//! Skills (the extension `io.modelcontextprotocol/skills`, SEP-2640): a server publishes Agent
//! Skills folders, each a `SKILL.md` (YAML front matter with the skill's `name` and
//! `description`, then instructions) and the files it refers to, for a host to load when its
//! model needs them.
//!
//! [`Skills::from_dir`] reads a folder of skills at start-up (or [`Skills::from_files`] takes
//! them embedded with `include_bytes!`), checks each against the Agent Skills rules (a name of
//! lowercase letters, digits and hyphens equal to its folder's; a description; at most 512
//! files and 16 MiB per skill; no symbolic links), and fails naming the file that breaks them.
//! Installed with [`McpServer::extension`](crate::McpServer::extension), it serves on both
//! revisions:
//!
//! - `skills/list` (paginated) and `skills/get`: each skill's front matter and every file with
//!   its `sha256:` digest and size, so a host can check what it reads;
//! - `resources/read` of every file at `skill://<folder>/<path>` (text when UTF-8, base64
//!   otherwise), and each `SKILL.md` in `resources/list`;
//! - `resources/directory/read` of each skill's folders (declared as `directoryRead`).
//!
//! A server with skills can be mounted in another ([`McpServer::mount`](crate::McpServer::mount)):
//! its skills are served there at `skill://{namespace}/<skill-path>/…`, with their names, front
//! matter and files unchanged, beside the other server's own.
//!
//! # Examples
//!
//! ```
//! use mcpwire::prelude::*;
//! use mcpwire::skills::Skills;
//!
//! const SKILL: &[u8] = b"---\nname: find-a-book\ndescription: How to find a book in the shop.\n---\n\nCall `search` with the title.\n";
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
//! let skills = Skills::from_files("embedded", [("find-a-book/SKILL.md", SKILL)])?;
//! let mut client = McpServer::new("shop").extension(skills)?.serve_memory().await?;
//! let reply = client
//!     .request(r#"{"jsonrpc":"2.0","id":1,"method":"skills/list"}"#)
//!     .await
//!     .unwrap();
//! assert!(reply.contains(r#""uri":"skill://find-a-book/SKILL.md""#), "{reply}");
//! # Ok(()) }
//! ```

mod folder;
mod front_matter;
mod limits;
mod methods;
mod mounted;
mod read;
mod set;

use crate::error::InvalidSignature;
use crate::protocol::skills::{DIRECTORY_READ, GET, LIST};
use crate::server::{Extension, Install};
use read::Published;
use serde_json::json;
use set::SkillSet;
use std::path::Path;
use std::sync::Arc;

pub use crate::protocol::skills::EXTENSION;

/// A server's skills, checked and loaded: install them with
/// [`McpServer::extension`](crate::McpServer::extension). See the [module](self) for what they
/// serve.
pub struct Skills {
    set: Arc<SkillSet>,
}

impl Skills {
    /// The skills in the folder `root`: every folder under it that holds a `SKILL.md` is a
    /// skill, named by its folder; nested folders make `skill://a/b/name/SKILL.md` URIs.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] naming the file that breaks the Agent Skills rules, or that cannot
    /// be read; or when no folder holds a `SKILL.md`.
    pub fn from_dir(root: impl AsRef<Path>) -> Result<Self, InvalidSignature> {
        let root = root.as_ref();
        let files = folder::load(root).map_err(InvalidSignature::new)?;
        Self::checked(&root.display().to_string(), files)
    }

    /// The skills made of `files`, each a path relative to the skills' root
    /// (`find-a-book/SKILL.md`) and its bytes (`include_bytes!` embeds them in the binary);
    /// `source` names them in errors.
    ///
    /// # Errors
    ///
    /// As [`Skills::from_dir`].
    pub fn from_files<P, B>(
        source: &str,
        files: impl IntoIterator<Item = (P, B)>,
    ) -> Result<Self, InvalidSignature>
    where
        P: Into<String>,
        B: AsRef<[u8]>,
    {
        let files = (files.into_iter())
            .map(|(path, bytes)| (path.into(), bytes.as_ref().to_vec()))
            .collect();
        Self::checked(source, files)
    }

    fn checked(source: &str, files: Vec<folder::LoadedFile>) -> Result<Self, InvalidSignature> {
        let set = SkillSet::new(source, files).map_err(InvalidSignature::new)?;
        Ok(Self { set: Arc::new(set) })
    }

    /// The names of the skills, sorted by folder.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.set.skills.iter().map(|skill| skill.name.as_str())
    }
}

impl std::fmt::Debug for Skills {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Extension for Skills {
    const ID: &'static str = EXTENSION;

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        let set = self.set;
        install.settings(json!({ "directoryRead": true }));
        install.cacheable_method(LIST, methods::list);
        install.cacheable_method(GET, methods::get);
        install.cacheable_method(DIRECTORY_READ, methods::read_folder);
        for resource in read::resources(&set) {
            install.resource_definition(resource)?;
        }
        install.state(Published(set));
        install.on_mount(mounted::remount);
        install.shared_on_mount(read::FILES_TEMPLATE);
        Ok(())
    }
}
