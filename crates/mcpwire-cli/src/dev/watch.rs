//! Watching the sources: every change under the watched directory (but `target/` and hidden
//! directories such as `.git/`), debounced: one signal once the files have been quiet for a
//! moment, however many changes an editor or a `git checkout` made.

use notify::{EventKind, RecursiveMode, Watcher};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;
use tokio::sync::mpsc;

/// How long the files must stay quiet before a change counts.
const QUIET: Duration = Duration::from_millis(300);

/// Changes under a directory, one at a time.
pub struct Changes {
    events: mpsc::UnboundedReceiver<PathBuf>,
    _watcher: notify::RecommendedWatcher,
}

impl Changes {
    /// Watches `root` recursively.
    pub fn watch(root: &Path) -> notify::Result<Changes> {
        let (sender, events) = mpsc::unbounded_channel();
        let base = root.to_owned();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else { return };
                if matches!(event.kind, EventKind::Access(_)) {
                    return;
                }
                for path in event.paths {
                    if counts(&base, &path) {
                        let _ = sender.send(path);
                    }
                }
            })?;
        // The root itself (its Cargo.toml), then each directory in it but the build output and
        // hidden ones: a workspace's `target/` holds thousands of directories, none of them
        // sources.
        watcher.watch(root, RecursiveMode::NonRecursive)?;
        for entry in std::fs::read_dir(root)?.flatten() {
            let path = entry.path();
            if path.is_dir() && counts(root, &path) {
                watcher.watch(&path, RecursiveMode::Recursive)?;
            }
        }
        Ok(Changes {
            events,
            _watcher: watcher,
        })
    }

    /// Waits for the next change and the quiet after it; returns a path that changed.
    pub async fn next(&mut self) -> Option<PathBuf> {
        let mut changed = self.events.recv().await?;
        loop {
            match tokio::time::timeout(QUIET, self.events.recv()).await {
                Ok(Some(path)) => changed = path,
                Ok(None) => return Some(changed),
                Err(_) => return Some(changed),
            }
        }
    }
}

/// Whether a change to `path` counts: not under `target/` or `node_modules/`, nor under a
/// hidden directory.
fn counts(root: &Path, path: &Path) -> bool {
    let relative = path.strip_prefix(root).unwrap_or(path);
    !relative.components().any(|part| match part {
        Component::Normal(name) => {
            let name = name.to_string_lossy();
            name == "target" || name == "node_modules" || name.starts_with('.')
        }
        _ => false,
    })
}

/// The directory to watch from `start`: the outermost one holding a `Cargo.toml` (the
/// workspace), else `start` itself.
pub fn default_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .filter(|dir| dir.join("Cargo.toml").is_file())
        .last()
        .unwrap_or(start)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_output_and_hidden_files_do_not_count() {
        let root = Path::new("/w");
        assert!(counts(root, Path::new("/w/src/main.rs")));
        assert!(counts(root, Path::new("/w/examples/backorder.rs")));
        assert!(!counts(root, Path::new("/w/target/debug/build.log")));
        assert!(!counts(root, Path::new("/w/.git/index")));
        assert!(!counts(root, Path::new("/w/web/node_modules/x/index.js")));
        assert!(!counts(root, Path::new("/w/src/.main.rs.swp")));
    }
}
