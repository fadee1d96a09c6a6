//! The floor plan, checked on the sources: no two library files import each other, directly or
//! through others, nor two modules (in this crate or the macros crate); no file imports a file
//! of a higher layer (`docs/architecture.md`); and no method name is written as a string outside
//! `protocol/`, so a method is named in one place.

mod graph;
mod literals;

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
/// layer or of a lower one. `lib.rs` only re-exports.
const LAYERS: &[&[&str]] = &[
    &["lib"],
    &["transport"],
    &["dispatch", "client"],
    &["server", "tasks", "layer", "otel"],
    &["resolve"],
    &["request_state", "context"],
    &["error"],
    &["schema", "wire"],
    &["protocol"],
];

#[test]
fn imports_point_down_the_layers() {
    let src = src();
    let graph = Graph::read(&src);
    let module = |file: usize| {
        let name = graph.name(file, &src);
        name.split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned()
    };
    let depth = |module: &str| {
        LAYERS
            .iter()
            .position(|layer| layer.contains(&module))
            .unwrap_or_else(|| panic!("module {module} is in no layer of LAYERS"))
    };
    let mut upward = Vec::new();
    for (&from, targets) in &graph.edges {
        for (&to, via) in targets {
            let (a, b) = (module(from), module(to));
            // The client may start a server in memory (`McpServer`), and nothing else of it.
            let in_memory = a == "client" && graph.name(to, &src) == "server/builder.rs";
            if depth(&b) < depth(&a) && !in_memory {
                upward.push(format!(
                    "{} -> {} ({via})",
                    graph.name(from, &src),
                    graph.name(to, &src)
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports up the layers:\n{}",
        upward.join("\n")
    );
}
