//! Reading a folder of skills from disk at start-up: every file under a folder that holds a
//! `SKILL.md`, by its path relative to the root (`code-review/references/checklist.md`).
//! Hidden files and folders (a leading `.`) are skipped; a symbolic link is refused, so nothing
//! outside the root is ever served.

use super::limits::{MAX_FILES_IN_ALL, MAX_LOADED_BYTES};
use std::path::{Path, PathBuf};

/// A file of a skill: its path relative to the root, with `/` between segments, and its bytes.
pub(super) type LoadedFile = (String, Vec<u8>);

/// Every file of every skill under `root`; why not, naming the file, otherwise.
pub(super) fn load(root: &Path) -> Result<Vec<LoadedFile>, String> {
    let mut found = Vec::new();
    walk(root, root, &mut found)?;
    let skill_folders: Vec<String> = found
        .iter()
        .filter_map(|(relative, ..)| relative.strip_suffix("SKILL.md"))
        .filter(|folder| folder.is_empty() || folder.ends_with('/'))
        .map(|folder| folder.to_owned())
        .collect();
    if skill_folders.iter().any(String::is_empty) {
        return Err(format!(
            "{}: a SKILL.md directly in the skills root; each skill is a folder of its own",
            root.join("SKILL.md").display()
        ));
    }
    let mut loaded = Vec::new();
    let mut bytes = 0u64;
    for (relative, path, size) in found {
        if !skill_folders
            .iter()
            .any(|folder| relative.starts_with(folder.as_str()))
        {
            continue;
        }
        // Counted by its size on disk before it is read, so a huge file is never read whole.
        bytes += size;
        if bytes > MAX_LOADED_BYTES {
            return Err(format!(
                "{}: the skills under {} exceed {MAX_LOADED_BYTES} bytes in all",
                path.display(),
                root.display()
            ));
        }
        let content =
            std::fs::read(&path).map_err(|error| format!("{}: {error}", path.display()))?;
        loaded.push((relative, content));
    }
    Ok(loaded)
}

/// A regular file found under the root: its relative path, its path, its size on disk.
type Found = (String, PathBuf, u64);

/// Collects the regular files under `folder` (relative to `root`) into `found`.
fn walk(root: &Path, folder: &Path, found: &mut Vec<Found>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    let mut entries: Vec<_> = entries
        .collect::<Result<_, _>>()
        .map_err(|error| format!("{}: {error}", folder.display()))?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(format!("{}: the name is not UTF-8", path.display()));
        };
        if name.starts_with('.') {
            continue;
        }
        let metadata = std::fs::symlink_metadata(&path)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        let kind = metadata.file_type();
        if kind.is_symlink() {
            return Err(format!(
                "{}: a symbolic link; skills serve only the files under their folder",
                path.display()
            ));
        }
        if kind.is_dir() {
            walk(root, &path, found)?;
        } else if kind.is_file() {
            if found.len() >= MAX_FILES_IN_ALL {
                return Err(format!(
                    "{}: more than {MAX_FILES_IN_ALL} files under {}",
                    path.display(),
                    root.display()
                ));
            }
            let relative = path
                .strip_prefix(root)
                .expect("walked from the root")
                .iter()
                .map(|segment| segment.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            found.push((relative, path, metadata.len()));
        }
    }
    Ok(())
}
