//! The skills a server publishes, checked and indexed once at start-up: each skill's entry (as
//! `skills/list` and `skills/get` show it, with every file's digest and size), every file by its
//! `skill://` URI, and every folder's children (`resources/directory/read`).

use super::folder::LoadedFile;
use super::front_matter;
use super::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, PAGE_SIZE};
use crate::server::namespace::under_scheme;
use crate::server::pages::Pages;
use base64::Engine;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The URI scheme of skill files.
pub(super) const SCHEME: &str = "skill://";
/// The MIME type a folder is listed with.
const DIRECTORY: &str = "inode/directory";

/// One published skill.
#[derive(Clone)]
pub(super) struct Skill {
    /// Its name (its folder's).
    pub(super) name: String,
    /// Its description, from the front matter.
    pub(super) description: String,
    /// The URI of its `SKILL.md`.
    pub(super) uri: String,
    /// Its entry, as `skills/list` and `skills/get` show it.
    pub(super) entry: Value,
}

impl Skill {
    /// The URI of its folder (`skill://<skill-path>`).
    fn folder(&self) -> &str {
        self.uri.strip_suffix("/SKILL.md").unwrap_or(&self.uri)
    }
}

/// A file as `resources/read` serves it.
pub(super) struct ServedFile {
    pub(super) mime_type: String,
    /// The text, when the bytes are UTF-8.
    pub(super) text: Option<String>,
    /// The bytes, when they are not.
    pub(super) blob: Option<String>,
}

/// The skills a server publishes.
pub(super) struct SkillSet {
    /// Sorted by folder.
    pub(super) skills: Vec<Skill>,
    /// The index into `skills` of each `SKILL.md` URI.
    by_uri: HashMap<String, usize>,
    files: HashMap<String, Arc<ServedFile>>,
    /// Each folder's children (files and folders), by the folder's URI, as listed.
    children: BTreeMap<String, Vec<Value>>,
    /// The same in pages (`resources/directory/read`), serialized once.
    folders: HashMap<String, Pages>,
    /// The skills' entries in pages (`skills/list`), serialized once.
    listing: Pages,
}

impl SkillSet {
    /// Checks and indexes `files`, loaded from `source` (named in errors).
    pub(super) fn new(source: &str, mut files: Vec<LoadedFile>) -> Result<Self, String> {
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, _) in &files {
            check_path(path).map_err(|why| format!("{source}/{path}: {why}"))?;
        }
        let mut skills = Vec::new();
        let mut folders: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for (path, bytes) in &files {
            let Some(folder) = path.strip_suffix("/SKILL.md") else {
                continue;
            };
            let skill = read_skill(folder, bytes, &files)
                .map_err(|why| format!("{source}/{path}: {why}"))?;
            index_folders(folder, &files, &mut folders);
            skills.push(skill);
        }
        if skills.is_empty() {
            return Err(format!("{source}: no skill (a folder holding a SKILL.md)"));
        }
        let files = files
            .into_iter()
            .map(|(path, bytes)| (format!("{SCHEME}{path}"), Arc::new(served(&path, bytes))))
            .collect();
        let children = (folders.into_iter())
            .map(|(uri, children)| (uri, children.into_values().collect()))
            .collect();
        Ok(Self::assembled(skills, files, children))
    }

    /// A set of `skills`, `files` and folders' `children`, indexed and paged.
    fn assembled(
        mut skills: Vec<Skill>,
        files: HashMap<String, Arc<ServedFile>>,
        children: BTreeMap<String, Vec<Value>>,
    ) -> Self {
        skills.sort_by(|a, b| a.folder().cmp(b.folder()));
        let by_uri = (skills.iter().enumerate())
            .map(|(index, skill)| (skill.uri.clone(), index))
            .collect();
        let folders = (children.iter())
            .map(|(uri, children)| (uri.clone(), Pages::new("resources", children, PAGE_SIZE)))
            .collect();
        let entries: Vec<&Value> = skills.iter().map(|skill| &skill.entry).collect();
        let listing = Pages::new("skills", &entries, PAGE_SIZE);
        Self {
            skills,
            by_uri,
            files,
            children,
            folders,
            listing,
        }
    }

    /// The same skills under `namespace`: every URI `skill://{namespace}/<skill-path>/…`, the
    /// namespace a first segment before each skill's path (SEP-2640 lets a server put any
    /// segments before a skill's name). Names, front matter and bytes (so digests) stay.
    pub(super) fn under(&self, namespace: &str) -> Self {
        let moved = |uri: &str| under_namespace(namespace, uri);
        let skills = (self.skills.iter())
            .map(|skill| {
                let mut entry = skill.entry.clone();
                move_uri(&mut entry, &moved);
                if let Some(files) = entry["resources"].as_array_mut() {
                    files.iter_mut().for_each(|file| move_uri(file, &moved));
                }
                Skill {
                    uri: moved(&skill.uri),
                    entry,
                    ..skill.clone()
                }
            })
            .collect();
        let files = (self.files.iter())
            .map(|(uri, file)| (moved(uri), Arc::clone(file)))
            .collect();
        let children = (self.children.iter())
            .map(|(uri, children)| {
                let mut children = children.clone();
                children
                    .iter_mut()
                    .for_each(|child| move_uri(child, &moved));
                (moved(uri), children)
            })
            .collect();
        Self::assembled(skills, files, children)
    }

    /// This set (the outer server's) and `mounted` (a mounted server's) as one; why not,
    /// naming both skills, when a skill of one would be served where the other's is (the same
    /// folder, or a folder inside the other's: a skill holds no other).
    pub(super) fn merged(&self, mounted: &Self) -> Result<Self, String> {
        check_apart(&self.skills, &mounted.skills)?;
        let mut files = self.files.clone();
        for (uri, file) in &mounted.files {
            if files.insert(uri.clone(), Arc::clone(file)).is_some() {
                return Err(format!("the file {uri} would be served by both servers"));
            }
        }
        let mut children = self.children.clone();
        for (uri, listed) in &mounted.children {
            if children.insert(uri.clone(), listed.clone()).is_some() {
                return Err(format!("the folder {uri} would be served by both servers"));
            }
        }
        let skills = self.skills.iter().chain(&mounted.skills).cloned().collect();
        Ok(Self::assembled(skills, files, children))
    }

    /// The skill whose `SKILL.md` is at `uri`.
    pub(super) fn skill(&self, uri: &str) -> Option<&Skill> {
        self.by_uri.get(uri).map(|index| &self.skills[*index])
    }

    /// The file at `uri`.
    pub(super) fn file(&self, uri: &str) -> Option<&ServedFile> {
        self.files.get(uri).map(|file| &**file)
    }

    /// The pages of the children of the folder at `uri`.
    pub(super) fn folder(&self, uri: &str) -> Option<&Pages> {
        self.folders.get(uri)
    }

    /// The pages of the skills' entries.
    pub(super) fn listing(&self) -> &Pages {
        &self.listing
    }
}

/// `uri` (`skill://<path>`) under `namespace` (`skill://{namespace}/<path>`), as a mount
/// renames every resource it serves; an empty namespace keeps it.
fn under_namespace(namespace: &str, uri: &str) -> String {
    match namespace.is_empty() {
        true => uri.to_owned(),
        false => under_scheme(namespace, uri).unwrap_or_else(|| uri.to_owned()),
    }
}

/// Moves the `uri` field of `item` with `moved`.
fn move_uri(item: &mut Value, moved: &impl Fn(&str) -> String) {
    if let Some(Value::String(uri)) = item.get_mut("uri") {
        *uri = moved(uri);
    }
}

/// `Ok` when no skill of `mounted` has the folder of one of `outer`'s, or a folder inside it,
/// or the other way round; why not, naming both.
fn check_apart(outer: &[Skill], mounted: &[Skill]) -> Result<(), String> {
    let folders = |skills: &[Skill]| -> BTreeMap<String, (String, String)> {
        (skills.iter())
            .map(|s| (s.folder().to_owned(), (s.name.clone(), s.uri.clone())))
            .collect()
    };
    let (outer, mounted) = (folders(outer), folders(mounted));
    let clash = |here: &(String, String), there: &(String, String), how: &str| {
        Err(format!(
            "the mounted skill '{}' ({}) {how} this server's skill '{}' ({}): give the mount \
             another namespace",
            there.0, there.1, here.0, here.1
        ))
    };
    for (folder, there) in &mounted {
        if let Some(here) = outer.get(folder) {
            return clash(here, there, "would take the place of");
        }
        if let Some(here) = ancestors(folder).find_map(|up| outer.get(up)) {
            return clash(here, there, "would be inside the folder of");
        }
    }
    for (folder, here) in &outer {
        if let Some(there) = ancestors(folder).find_map(|up| mounted.get(up)) {
            return Err(format!(
                "this server's skill '{}' ({}) would be inside the folder of the mounted skill \
                 '{}' ({}): give the mount another namespace",
                here.0, here.1, there.0, there.1
            ));
        }
    }
    Ok(())
}

/// The folders `folder` (`skill://a/b/c`) is inside: `skill://a/b`, `skill://a`.
fn ancestors(folder: &str) -> impl Iterator<Item = &str> {
    let path = folder.strip_prefix(SCHEME).unwrap_or(folder);
    let start = folder.len() - path.len();
    (path.match_indices('/')).map(move |(at, _)| &folder[..start + at])
}

/// Why `path` cannot be a `skill://` URI as it is: a segment with a character a URI would need
/// to escape.
fn check_path(path: &str) -> Result<(), String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '~');
    match path
        .split('/')
        .all(|segment| !segment.is_empty() && segment.chars().all(plain))
    {
        true => Ok(()),
        false => Err(
            "a name with characters other than letters, digits, '.', '-', '_' and '~' \
                      (skill URIs serve names as they are)"
                .into(),
        ),
    }
}

/// The skill in `folder`, its `SKILL.md` being `bytes`; `files` are every file, sorted.
fn read_skill(folder: &str, bytes: &[u8], files: &[LoadedFile]) -> Result<Skill, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_owned())?;
    let fields = front_matter::read(text)?;
    let name = folder.rsplit('/').next().unwrap_or(folder);
    front_matter::check(&fields, name)?;
    let inside = format!("{folder}/");
    let own: Vec<&LoadedFile> = files
        .iter()
        .filter(|(path, _)| path.starts_with(&inside))
        .collect();
    if own.len() > MAX_FILES_PER_SKILL {
        return Err(format!(
            "the skill has {} files; at most {MAX_FILES_PER_SKILL} are allowed",
            own.len()
        ));
    }
    let size: u64 = own.iter().map(|(_, bytes)| bytes.len() as u64).sum();
    if size > MAX_BYTES_PER_SKILL {
        return Err(format!(
            "the skill's files hold {size} bytes; at most {MAX_BYTES_PER_SKILL} are allowed"
        ));
    }
    let uri = format!("{SCHEME}{folder}/SKILL.md");
    let mut resources: Vec<Value> = own
        .iter()
        .map(|(path, bytes)| {
            json!({
                "uri": format!("{SCHEME}{path}"),
                "digest": digest(bytes),
                "size": bytes.len(),
            })
        })
        .collect();
    resources.sort_by_key(|resource| resource["uri"] != uri.as_str());
    let string = |key: &str| fields[key].as_str().unwrap_or_default().to_owned();
    Ok(Skill {
        name: string("name"),
        description: string("description"),
        entry: json!({ "uri": uri, "frontmatter": fields, "resources": resources }),
        uri,
    })
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for byte in hash {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// Adds the folders of the skill in `folder` (its root and every folder under it) and their
/// children to `folders`.
fn index_folders(
    folder: &str,
    files: &[LoadedFile],
    folders: &mut BTreeMap<String, BTreeMap<String, Value>>,
) {
    let inside = format!("{folder}/");
    folders.entry(format!("{SCHEME}{folder}")).or_default();
    for (path, bytes) in files.iter().filter(|(path, _)| path.starts_with(&inside)) {
        let mut parent = folder.to_owned();
        let rest = &path[inside.len()..];
        let segments: Vec<&str> = rest.split('/').collect();
        for (at, segment) in segments.iter().enumerate() {
            let child = format!("{parent}/{segment}");
            let listing = match at + 1 == segments.len() {
                true => json!({
                    "uri": format!("{SCHEME}{child}"),
                    "name": segment,
                    "mimeType": mime_type_of(path),
                    "size": bytes.len(),
                }),
                false => json!({
                    "uri": format!("{SCHEME}{child}"),
                    "name": segment,
                    "mimeType": DIRECTORY,
                }),
            };
            let children = folders.entry(format!("{SCHEME}{parent}")).or_default();
            children.insert(format!("{SCHEME}{child}"), listing);
            parent = child;
        }
    }
}

/// The MIME type a file at `path` is served with, by its extension.
pub(super) fn mime_type_of(path: &str) -> String {
    match path.rsplit('.').next() {
        Some("md") => "text/markdown".to_owned(),
        _ => mime_guess::from_path(path)
            .first_or(mime_guess::mime::APPLICATION_OCTET_STREAM)
            .essence_str()
            .to_owned(),
    }
}

/// `bytes` as served: text when they are UTF-8, base64 otherwise.
fn served(path: &str, bytes: Vec<u8>) -> ServedFile {
    let mime_type = mime_type_of(path);
    match String::from_utf8(bytes) {
        Ok(text) => ServedFile {
            mime_type,
            text: Some(text),
            blob: None,
        },
        Err(error) => ServedFile {
            mime_type,
            text: None,
            blob: Some(base64::engine::general_purpose::STANDARD.encode(error.as_bytes())),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> LoadedFile {
        (path.to_owned(), text.as_bytes().to_vec())
    }

    const SKILL: &str = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
    const CHECKLIST: &str = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";

    #[test]
    fn each_file_is_listed_with_the_digest_and_size_of_the_bytes_served() {
        let set = SkillSet::new(
            "skills",
            vec![
                file("code-review/references/checklist.md", CHECKLIST),
                file("code-review/SKILL.md", SKILL),
            ],
        )
        .unwrap();
        let skill = set.skill("skill://code-review/SKILL.md").unwrap();
        // The specification's example, digests and sizes computed independently.
        assert_eq!(
            skill.entry["resources"],
            json!([
                {"uri": "skill://code-review/SKILL.md", "digest": "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160", "size": 149},
                {"uri": "skill://code-review/references/checklist.md", "digest": "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20", "size": 65},
            ])
        );
        assert_eq!(skill.entry["frontmatter"]["name"], "code-review");
        let page = |uri: &str| -> Value {
            serde_json::from_str(set.folder(uri).unwrap().page(None).unwrap().get()).unwrap()
        };
        let root = page("skill://code-review");
        assert_eq!(root["resources"][1]["mimeType"], "inode/directory");
        assert_eq!(
            root["resources"][1]["uri"],
            "skill://code-review/references"
        );
        let references = page("skill://code-review/references");
        assert_eq!(references["resources"].as_array().unwrap().len(), 1);
        assert!(set.folder("skill://code-review/SKILL.md").is_none());
        let served = set.file("skill://code-review/SKILL.md").unwrap();
        assert_eq!(served.mime_type, "text/markdown");
        assert_eq!(served.text.as_deref(), Some(SKILL));
    }

    #[test]
    fn under_a_namespace_only_the_uris_change_and_clashes_name_both_skills() {
        let set = SkillSet::new(
            "skills",
            vec![
                file("code-review/references/checklist.md", CHECKLIST),
                file("code-review/SKILL.md", SKILL),
            ],
        )
        .unwrap();
        let moved = set.under("team");
        let skill = moved.skill("skill://team/code-review/SKILL.md").unwrap();
        let original = set.skill("skill://code-review/SKILL.md").unwrap();
        assert_eq!(skill.name, "code-review");
        assert_eq!(skill.entry["frontmatter"], original.entry["frontmatter"]);
        let digests = |entry: &Value| -> Vec<Value> {
            let files = entry["resources"].as_array().unwrap();
            files.iter().map(|file| file["digest"].clone()).collect()
        };
        assert_eq!(digests(&skill.entry), digests(&original.entry));
        assert_eq!(
            skill.entry["resources"][1]["uri"],
            "skill://team/code-review/references/checklist.md"
        );
        let served = moved.file("skill://team/code-review/SKILL.md").unwrap();
        assert_eq!(served.text.as_deref(), Some(SKILL));
        assert!(
            moved
                .folder("skill://team/code-review/references")
                .is_some()
        );
        assert!(moved.file("skill://code-review/SKILL.md").is_none());

        let both = set.merged(&moved).unwrap();
        assert_eq!(both.skills.len(), 2);
        let why = set.merged(&set.under("")).err().unwrap();
        assert!(why.contains("would take the place of"), "{why}");
        assert_eq!(
            ancestors("skill://a/b/c").collect::<Vec<_>>(),
            ["skill://a", "skill://a/b"]
        );
    }

    #[test]
    fn a_broken_folder_is_refused_naming_the_file() {
        let refused = |files: Vec<LoadedFile>| SkillSet::new("skills", files).err().unwrap();
        let why = refused(vec![file("review/SKILL.md", SKILL)]);
        assert!(
            why.starts_with("skills/review/SKILL.md: its name 'code-review' differs"),
            "{why}"
        );
        let why = refused(vec![file("code review/SKILL.md", SKILL)]);
        assert!(why.starts_with("skills/code review/SKILL.md:"), "{why}");
        let why = refused(vec![file("code-review/notes.md", "x")]);
        assert!(why.contains("no skill"), "{why}");
        let many = (0..MAX_FILES_PER_SKILL)
            .map(|n| file(&format!("code-review/f{n}.txt"), "x"))
            .chain([file("code-review/SKILL.md", SKILL)])
            .collect();
        assert!(refused(many).contains("513 files"));
    }
}
