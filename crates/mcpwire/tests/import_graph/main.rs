//! The floor plan, checked on the sources: no two library files import each other, directly or
//! through others, nor two modules (in this crate or the macros crate); no file imports a file
//! of a higher layer (`docs/architecture.md`); the fleet's room (`transport/http/fleet/`)
//! imports of `transport` only the seams it implements; no method name is written as a
//! string outside `protocol/`, so a method is named in one place; and only the method table
//! names a method of the core, so adding one is its name, its file and its row.

mod graph;
mod literals;
mod variants;

use graph::Graph;
use std::path::Path;

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The macros crate's sources.
fn macros_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcpwire-macros/src")
}

#[test]
fn no_library_file_imports_itself_through_others() {
    file_circles(&src());
}

#[test]
fn no_macros_file_imports_itself_through_others() {
    file_circles(&macros_src());
}

#[test]
fn no_module_imports_itself_through_others() {
    for src in [src(), macros_src()] {
        let circles = Graph::read(&src).module_circles(&src);
        assert!(
            circles.is_empty(),
            "modules importing each other in a loop under {}:\n{}",
            src.display(),
            (circles.iter().map(|circle| circle.join(" <-> ")))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn method_names_are_written_only_in_protocol() {
    let src = src();
    let names = literals::method_names(&src);
    for name in [
        "tools/call",
        "initialize",
        "notifications/cancelled",
        "tasks/get",
    ] {
        assert!(names.contains(name), "{name} is not among {names:?}");
    }
    let written = literals::written_outside_protocol(&src, &names);
    assert!(
        written.is_empty(),
        "method names written outside protocol/ (use protocol::methods):\n{}",
        written.join("\n")
    );
}

/// The files that may name a core method by its variant: the method table, which says how the
/// core treats and serves each; and the 2025-11-25 session's replication, which reads what a
/// method that changes a session (a row says which) changed.
const NAMES_METHODS: &[&str] = &["dispatch/table.rs", "transport/http/session_change.rs"];

#[test]
fn only_the_method_table_names_a_method() {
    let src = src();
    let variants = variants::method_variants(&src);
    for variant in ["ToolsCall", "Initialize", "TasksGet"] {
        assert!(
            variants.contains(variant),
            "{variant} is not among {variants:?}"
        );
    }
    let named = variants::named_outside_protocol(&src, &variants);
    assert!(
        named.iter().any(|at| at.starts_with("dispatch/table.rs")),
        "the method table names no method: {named:?}"
    );
    let elsewhere: Vec<_> = (named.iter())
        .filter(|at| {
            !NAMES_METHODS
                .iter()
                .any(|file| at.starts_with(&format!("{file}:")))
        })
        .collect();
    assert!(
        elsewhere.is_empty(),
        "a core method named outside the method table (give it a row instead):\n{}",
        (elsewhere.iter().map(|at| at.as_str()))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Fails on any group of files under `src` that import each other in a loop.
fn file_circles(src: &Path) {
    let src = src.to_path_buf();
    let graph = Graph::read(&src);
    let circles = graph.circles();
    let mut report = String::new();
    for circle in &circles {
        report.push_str(&format!("circle of {} files:\n", circle.len()));
        for &file in circle {
            for (&target, via) in graph.edges.get(&file).into_iter().flatten() {
                if circle.contains(&target) {
                    report.push_str(&format!(
                        "  {} -> {} ({via})\n",
                        graph.name(file, &src),
                        graph.name(target, &src)
                    ));
                }
            }
        }
    }
    assert!(circles.is_empty(), "{report}");
}

/// The layers of `docs/architecture.md`, top to bottom: a file may import files of its own
/// layer or of a lower one. `lib.rs` only re-exports. A file's module is the first segment of its
/// path under `src` (`server/core.rs` and `server.rs` are both `server`).
const LAYERS: &[&[&str]] = &[
    &["lib"],
    // Serves backends reached with the client on an McpServer; nothing imports it.
    &["gateway"],
    // Plugs into both sides (the server's layers, the client's hooks); nothing imports it.
    &["otel"],
    &["transport"],
    &["dispatch", "client"],
    &["skills", "apps"],
    &["server"],
    &["layer"],
    &["tasks"],
    &["extension"],
    &["resolve"],
    &["request_state", "context"],
    &["error"],
    &["schema", "wire"],
    &["protocol"],
];

/// The module a file belongs to, from its name under `src`: the first segment of its path.
fn module(name: &str) -> &str {
    name.split('/').next().unwrap().trim_end_matches(".rs")
}

/// A module's layer, counted from the top of `LAYERS`.
fn depth(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|layer| layer.contains(&module))
        .unwrap_or_else(|| panic!("module {module} is in no layer of LAYERS"))
}

#[test]
fn imports_point_down_the_layers() {
    let src = src();
    let graph = Graph::read(&src);
    let mut upward = Vec::new();
    for (&from, targets) in &graph.edges {
        for (&to, via) in targets {
            let (from, to) = (graph.name(from, &src), graph.name(to, &src));
            // The client may start a server in memory (`McpServer`), and nothing else of it.
            let in_memory = module(&from) == "client" && to == "server/builder.rs";
            if depth(module(&to)) < depth(module(&from)) && !in_memory {
                upward.push(format!("{from} -> {to} ({via})"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports up the layers:\n{}",
        upward.join("\n")
    );
}

/// The extensions the crate ships (tasks, Skills, Apps) reach the dispatcher only through the
/// extension seam (their methods, and the tasks extension's `tools/call` and
/// `subscriptions/listen` hooks): no file under `dispatch/` imports one of them.
#[test]
fn the_dispatcher_imports_no_extension() {
    let src = src();
    let graph = Graph::read(&src);
    let mut known = Vec::new();
    for (&from, targets) in &graph.edges {
        for (&to, via) in targets {
            let (from, to) = (graph.name(from, &src), graph.name(to, &src));
            if module(&from) == "dispatch" && ["tasks", "skills", "apps"].contains(&module(&to)) {
                known.push(format!("{from} -> {to} ({via})"));
            }
        }
    }
    assert!(
        known.is_empty(),
        "the dispatcher imports an extension:\n{}",
        known.join("\n")
    );
}

/// The fleet's room inside `transport`: how replicas share sessions (`Fleet`; with `redis`,
/// `RedisFleet`: session store, event store, bus).
const FLEET: &str = "transport/http/fleet/";

/// The seams the fleet implements, the only files of `transport` outside its room it may import.
const FLEET_SEAMS: &[&str] = &[
    "transport/http/shared.rs",
    "transport/http/session_change.rs",
    "transport/http/events.rs",
];

/// A file under `fleet/` imports, inside `transport/`, only the seams it implements and files of
/// its own room; outside `transport/`, any module of a lower layer. The seams import nothing of
/// the fleet (the rest of `transport/http`, the endpoint and the builder, may).
#[test]
fn the_fleet_imports_only_the_seams_it_implements() {
    let src = src();
    let graph = Graph::read(&src);
    let names: Vec<String> = (0..graph.files.len())
        .map(|file| graph.name(file, &src))
        .collect();
    assert!(
        names.iter().any(|name| name.starts_with(FLEET)),
        "no file under {FLEET}"
    );
    for seam in FLEET_SEAMS {
        assert!(names.iter().any(|name| name == seam), "no seam {seam}");
    }
    let in_fleet = |name: &str| name.starts_with(FLEET);
    let is_seam = |name: &str| FLEET_SEAMS.contains(&name);
    let mut wrong = Vec::new();
    for (&from, targets) in &graph.edges {
        let from = names[from].as_str();
        for (&to, via) in targets {
            let to = names[to].as_str();
            let allowed = if in_fleet(from) {
                in_fleet(to) || is_seam(to) || depth(module(to)) > depth("transport")
            } else if is_seam(from) {
                !in_fleet(to)
            } else {
                true
            };
            if !allowed {
                wrong.push(format!("{from} -> {to} ({via})"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports across the fleet's walls (the fleet imports only {FLEET_SEAMS:?} of transport, \
         and they nothing of it):\n{}",
        wrong.join("\n")
    );
}
