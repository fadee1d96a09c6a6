//! The library's files and which of them import which: a file imports another when it names an
//! item defined in that file, through `use` or a path (also inside macro invocations); `mod`
//! declarations, and `pub use` re-exports in a `mod.rs` or `lib.rs`, do not count. Test-only
//! files (`*tests.rs`) and `#[cfg(test)]` modules are left out.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module: its file, the items it defines, the names it brings in with `use`, its submodules.
#[derive(Default)]
struct Module {
    file: usize,
    defined: BTreeSet<String>,
    /// `use` aliases: name -> the path as written (resolved from this module when followed).
    aliases: Vec<(String, Vec<String>)>,
    /// `use …::*`: the paths as written.
    globs: Vec<Vec<String>>,
    submodules: BTreeSet<String>,
}

/// The import graph of one crate's `src`.
pub struct Graph {
    pub files: Vec<PathBuf>,
    modules: HashMap<Vec<String>, Module>,
    /// file -> the files it imports (by index), with one path that made each edge.
    pub edges: BTreeMap<usize, BTreeMap<usize, String>>,
}

/// A reference found in a file: the module it is written in, its path, and whether it is a
/// re-export of a `mod.rs`/`lib.rs` (which does not count).
struct Reference {
    module: Vec<String>,
    path: Vec<String>,
}

impl Graph {
    /// Reads every library file under `src`.
    pub fn read(src: &Path) -> Self {
        let mut graph = Graph {
            files: Vec::new(),
            modules: HashMap::new(),
            edges: BTreeMap::new(),
        };
        let mut references: Vec<(usize, Reference)> = Vec::new();
        for file in sources(src) {
            let Some(module) = module_path(src, &file) else {
                continue;
            };
            let text = std::fs::read_to_string(&file).unwrap();
            let parsed =
                syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let index = graph.files.len();
            let is_mod_file = matches!(
                file.file_name().and_then(|n| n.to_str()),
                Some("mod.rs" | "lib.rs")
            );
            graph.files.push(file);
            graph.read_items(index, &module, &parsed.items, is_mod_file, &mut references);
        }
        // Every module a file declares exists, even when its file was left out.
        for reference in references {
            let (file, reference) = reference;
            if let Some(target) = graph.resolve(&reference.module, &reference.path, 0)
                && target != file
            {
                graph
                    .edges
                    .entry(file)
                    .or_default()
                    .entry(target)
                    .or_insert_with(|| reference.path.join("::"));
            }
        }
        graph
    }

    fn read_items(
        &mut self,
        file: usize,
        module: &[String],
        items: &[syn::Item],
        is_mod_file: bool,
        references: &mut Vec<(usize, Reference)>,
    ) {
        self.modules.entry(module.to_vec()).or_default().file = file;
        for item in items {
            if is_test_only(item) {
                continue;
            }
            let name = match item {
                syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
                syn::Item::Struct(s) => Some(s.ident.to_string()),
                syn::Item::Enum(e) => Some(e.ident.to_string()),
                syn::Item::Union(u) => Some(u.ident.to_string()),
                syn::Item::Trait(t) => Some(t.ident.to_string()),
                syn::Item::Type(t) => Some(t.ident.to_string()),
                syn::Item::Const(c) => Some(c.ident.to_string()),
                syn::Item::Static(s) => Some(s.ident.to_string()),
                syn::Item::Macro(m) => m.ident.as_ref().map(ToString::to_string),
                _ => None,
            };
            if let Some(name) = name {
                self.modules.get_mut(module).unwrap().defined.insert(name);
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    self.modules
                        .get_mut(module)
                        .unwrap()
                        .submodules
                        .insert(name.clone());
                    if let Some((_, inner)) = &m.content {
                        let mut inner_path = module.to_vec();
                        inner_path.push(name);
                        self.read_items(file, &inner_path, inner, false, references);
                    }
                }
                syn::Item::Use(u) => {
                    let reexport = is_mod_file && !matches!(u.vis, syn::Visibility::Inherited);
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, Vec::new(), &mut leaves);
                    for (path, alias) in leaves {
                        let entry = self.modules.get_mut(module).unwrap();
                        match alias {
                            Some(alias) => entry.aliases.push((alias, path.clone())),
                            None => entry.globs.push(path.clone()),
                        }
                        if !reexport {
                            references.push((
                                file,
                                Reference {
                                    module: module.to_vec(),
                                    path,
                                },
                            ));
                        }
                    }
                }
                syn::Item::Macro(m) if m.mac.path.is_ident("feature_gated") => {
                    // `feature_gated! { "feature", items… }`: the items after the feature name.
                    let tokens: Vec<TokenTree> = m.mac.tokens.clone().into_iter().collect();
                    let rest: TokenStream = tokens.into_iter().skip(2).collect();
                    if let Ok(file_items) = syn::parse2::<syn::File>(rest) {
                        self.read_items(file, module, &file_items.items, is_mod_file, references);
                    }
                }
                _ => {
                    let mut paths = PathCollector::default();
                    paths.visit_item(item);
                    for path in paths.found {
                        references.push((
                            file,
                            Reference {
                                module: module.to_vec(),
                                path,
                            },
                        ));
                    }
                }
            }
        }
    }

    /// The file defining the item `path` names, written in `module`; `None` for anything outside
    /// the crate, a module, or an unknown name.
    fn resolve(&self, module: &[String], path: &[String], depth: usize) -> Option<usize> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let absolute = absolute(module, path);
        if absolute.first().map(String::as_str) != Some("crate") {
            // A name brought in by a `use` of this module, or one it defines.
            let here = self.modules.get(module)?;
            let first = &path[0];
            if let Some((_, target)) = here.aliases.iter().find(|(alias, _)| alias == first) {
                let mut full = target.clone();
                full.extend(path[1..].iter().cloned());
                return self.resolve(module, &full, depth + 1);
            }
            if here.submodules.contains(first) {
                let mut full = vec!["crate".to_owned()];
                full.extend(module.iter().cloned());
                full.extend(path.iter().cloned());
                return self.walk(&full, depth + 1);
            }
            if path.len() == 1 && here.defined.contains(first) {
                return Some(here.file);
            }
            return None;
        }
        self.walk(&absolute, depth + 1)
    }

    /// Follows an absolute path (`crate::…`) module by module to the item's defining file.
    fn walk(&self, path: &[String], depth: usize) -> Option<usize> {
        if depth > 16 || path.first().map(String::as_str) != Some("crate") {
            return None;
        }
        let mut current: Vec<String> = Vec::new();
        for (at, segment) in path.iter().enumerate().skip(1) {
            let module = self.modules.get(&current)?;
            if module.submodules.contains(segment) {
                current.push(segment.clone());
                continue;
            }
            if module.defined.contains(segment) {
                return Some(module.file);
            }
            let rest = &path[at + 1..];
            if let Some((_, target)) = module.aliases.iter().find(|(alias, _)| alias == segment) {
                let mut full = target.clone();
                full.extend(rest.iter().cloned());
                return self.resolve(&current, &full, depth + 1);
            }
            for glob in &module.globs {
                let mut full = glob.clone();
                full.extend(path[at..].iter().cloned());
                if let Some(found) = self.resolve(&current, &full, depth + 1) {
                    return Some(found);
                }
            }
            return None;
        }
        None
    }

    /// The file's path under `src`, for messages.
    pub fn name(&self, file: usize, src: &Path) -> String {
        self.files[file]
            .strip_prefix(src)
            .unwrap()
            .display()
            .to_string()
    }

    /// The groups of files that import each other in a loop (strongly connected components of
    /// more than one file), each sorted.
    pub fn circles(&self) -> Vec<Vec<usize>> {
        tarjan(self.files.len(), &self.edges)
            .into_iter()
            .filter(|component| component.len() > 1)
            .collect()
    }
}

impl Graph {
    /// The groups of sibling modules that import each other in a loop, at every level of the
    /// tree: for each module, its children (files and folders, each standing for everything
    /// under it) as nodes, an edge where a file under one imports a file under another. Each
    /// group names its members by their path under `src`.
    pub fn module_circles(&self, src: &Path) -> Vec<Vec<String>> {
        let parts: Vec<Vec<String>> = (0..self.files.len())
            .map(|file| {
                let name = self.name(file, src);
                let mut parts: Vec<String> = name.split('/').map(str::to_owned).collect();
                // `a/mod.rs` stands for the folder `a` itself.
                if parts.last().is_some_and(|last| last == "mod.rs") {
                    parts.pop();
                }
                parts
            })
            .collect();
        let mut parents: BTreeSet<Vec<String>> = BTreeSet::new();
        for file in &parts {
            for depth in 0..file.len() {
                parents.insert(file[..depth].to_vec());
            }
        }
        let mut found = Vec::new();
        for parent in parents {
            // The child of `parent` a file lies under; `None` for the parent's own file or
            // files elsewhere.
            let child = |file: usize| -> Option<String> {
                let path = &parts[file];
                (path.len() > parent.len() && path[..parent.len()] == parent[..])
                    .then(|| path[parent.len()].trim_end_matches(".rs").to_owned())
            };
            let mut children: Vec<String> = (0..self.files.len()).filter_map(child).collect();
            children.sort();
            children.dedup();
            let index = |name: &str| children.binary_search_by(|c| c.as_str().cmp(name)).unwrap();
            let mut edges: BTreeMap<usize, BTreeMap<usize, String>> = BTreeMap::new();
            for (&from, targets) in &self.edges {
                for (&to, via) in targets {
                    if let (Some(a), Some(b)) = (child(from), child(to))
                        && a != b
                    {
                        edges
                            .entry(index(&a))
                            .or_default()
                            .entry(index(&b))
                            .or_insert_with(|| via.clone());
                    }
                }
            }
            for component in tarjan(children.len(), &edges) {
                if component.len() > 1 {
                    let prefix = parent.iter().map(|p| format!("{p}/")).collect::<String>();
                    found.push(
                        component
                            .iter()
                            .map(|&c| format!("{prefix}{}", children[c]))
                            .collect(),
                    );
                }
            }
        }
        found
    }
}

/// Whether an item exists only in tests (`#[cfg(test)]`).
pub fn is_test_only(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        syn::Item::Macro(m) => &m.attrs,
        _ => return false,
    };
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

/// The leaves of a use tree: each path, and the name it brings in (`None` for a glob).
fn use_leaves(
    tree: &syn::UseTree,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut prefix = prefix;
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                let alias = prefix.last().cloned();
                out.push((prefix, alias));
            } else {
                let mut path = prefix;
                path.push(name.clone());
                out.push((path, Some(name)));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix;
            path.push(r.ident.to_string());
            out.push((path, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix, None)),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_leaves(tree, prefix.clone(), out);
            }
        }
    }
}

/// `path` written in `module`, made absolute when it starts with `crate`, `super` or `self`;
/// returned as is otherwise.
fn absolute(module: &[String], path: &[String]) -> Vec<String> {
    let mut segments = path.iter().peekable();
    let mut base: Vec<String> = match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") => {
            segments.next();
            module.to_vec()
        }
        Some("super") => {
            let mut base = module.to_vec();
            while segments.peek().map(|s| s.as_str()) == Some("super") {
                segments.next();
                base.pop();
            }
            base
        }
        _ => return path.to_vec(),
    };
    base.extend(segments.cloned());
    let mut full = vec!["crate".to_owned()];
    full.append(&mut base);
    full
}

/// Every path of two or more segments in an item, including path-like token runs inside macro
/// invocations.
#[derive(Default)]
struct PathCollector {
    found: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() >= 2 {
            self.found
                .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        token_paths(mac.tokens.clone(), &mut self.found);
        syn::visit::visit_macro(self, mac);
    }

    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        // Inline modules are read as modules of their own.
        let _ = module;
    }
}

/// Runs of `ident :: ident …` in a token stream (the arguments of a macro).
fn token_paths(tokens: TokenStream, found: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut at = 0;
    while at < tokens.len() {
        match &tokens[at] {
            TokenTree::Group(group) => {
                token_paths(group.stream(), found);
                at += 1;
            }
            TokenTree::Ident(ident) => {
                let mut path = vec![ident.to_string()];
                let mut next = at + 1;
                while next + 2 < tokens.len() + 1
                    && matches!(&tokens.get(next), Some(TokenTree::Punct(p)) if p.as_char() == ':')
                    && matches!(&tokens.get(next + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
                {
                    match tokens.get(next + 2) {
                        Some(TokenTree::Ident(segment)) => {
                            path.push(segment.to_string());
                            next += 3;
                        }
                        _ => break,
                    }
                }
                if path.len() >= 2 {
                    found.push(path);
                }
                at = next.max(at + 1);
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => at += 1,
        }
    }
}

/// The library's source files (test-only files left out).
pub fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs")
            && !path.to_str().unwrap().ends_with("tests.rs")
        {
            files.push(path);
        }
    }
    files
}

/// The module path of a file: `lib.rs` is the root, `a/mod.rs` and `a.rs` are `a`, `a/b.rs` is
/// `a::b`.
fn module_path(src: &Path, file: &Path) -> Option<Vec<String>> {
    let relative = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_str().unwrap().to_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "mod.rs" => {}
        other => parts.push(other.trim_end_matches(".rs").to_owned()),
    }
    Some(parts)
}

/// Tarjan's strongly connected components.
fn tarjan(nodes: usize, edges: &BTreeMap<usize, BTreeMap<usize, String>>) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, BTreeMap<usize, String>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    fn connect(state: &mut State<'_>, node: usize) {
        state.index[node] = Some(state.next);
        state.low[node] = state.next;
        state.next += 1;
        state.stack.push(node);
        state.on_stack[node] = true;
        let targets: Vec<usize> = state
            .edges
            .get(&node)
            .map(|t| t.keys().copied().collect())
            .unwrap_or_default();
        for target in targets {
            match state.index[target] {
                None => {
                    connect(state, target);
                    state.low[node] = state.low[node].min(state.low[target]);
                }
                Some(index) if state.on_stack[target] => {
                    state.low[node] = state.low[node].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(state.low[node]) == state.index[node] {
            let mut component = Vec::new();
            loop {
                let member = state.stack.pop().unwrap();
                state.on_stack[member] = false;
                component.push(member);
                if member == node {
                    break;
                }
            }
            component.sort();
            state.components.push(component);
        }
    }
    let mut state = State {
        edges,
        index: vec![None; nodes],
        low: vec![0; nodes],
        on_stack: vec![false; nodes],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for node in 0..nodes {
        if state.index[node].is_none() {
            connect(&mut state, node);
        }
    }
    state.components
}

/// Each library file outside `protocol/`: its path relative to `src`, its text, and its items
/// that are not test-only (inline `#[cfg(test)]` modules and the like left out).
pub fn outside_protocol(src: &Path) -> Vec<(PathBuf, String, Vec<syn::Item>)> {
    let mut files = Vec::new();
    for file in sources(src) {
        let relative = file.strip_prefix(src).unwrap().to_path_buf();
        if relative.starts_with("protocol") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let parsed = syn::parse_file(&text).unwrap();
        let items = (parsed.items.into_iter())
            .filter(|item| !is_test_only(item))
            .collect();
        files.push((relative, text, items));
    }
    files
}
