//! The bookshop's catalog view (MCP Apps) in a real host: the MCP Inspector's web client, in
//! Debian's headless Chromium driven by playwright-core (`tests/peers/apps_browser.mjs`), on
//! both revisions (legacy: an initialize session; modern: 2026-07-28, chosen with a `--catalog`
//! file for the deep link's server).
//!
//! The Inspector opens `browse_catalog`'s view from a deep link; the test waits for the titles
//! of the tool's result, clicks a title's Reserve button, waits for the view to show the
//! answer of `reserve_book` (called by the view through the host) and the new count, takes a
//! screenshot of the view (kept under `target/tmp/apps-browser/`, checked not blank), and reads
//! the count in the server's database file. Each revision runs twice: with the Inspector at
//! the bookshop's own endpoint, and through a gateway in front of it (issue #30).
//!
//! Needs `scripts/setup-peers` (Node 22, the Inspector, playwright-core) and `/usr/bin/chromium`
//! (`scripts/test` installs it); `MCP_PEER_PLAYWRIGHT` and `MCP_PEER_CHROMIUM` override where
//! they are.

mod common;

use common::gateway::Fronting;
use common::{Collector, HttpExample, example_bin, free_port, peer_inspector, peer_node};
use mcpwire::client::EraChoice;
use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The title whose Reserve button is clicked (7 copies in a new database).
const TITLE: &str = "Dune";

/// The bound of each of the driver's waits, and of the whole driver run.
const WAIT: Duration = Duration::from_secs(20);
const DRIVER_TIMEOUT: Duration = Duration::from_secs(90);

#[test]
fn legacy_catalog_view_reserves_a_book() {
    catalog_view_reserves_a_book(Era::Legacy, Route::Direct);
}

#[test]
fn modern_catalog_view_reserves_a_book() {
    catalog_view_reserves_a_book(Era::Modern, Route::Direct);
}

/// The same view, with the Inspector connected to a gateway (`mcpwire::gateway`) in front of
/// the bookshop, which mounts it without a prefix. The gateway speaks the other revision to the
/// bookshop than the Inspector speaks to it.
#[test]
fn legacy_catalog_view_reserves_a_book_through_the_gateway() {
    catalog_view_reserves_a_book(Era::Legacy, Route::Gateway(EraChoice::Modern, ""));
}

/// Through a gateway that mounts the bookshop under the prefix `shop`: the Inspector opens
/// `shop_browse_catalog`, and the view, which calls `reserve_book` and `book_info` by the names
/// it was written with, reaches them by the aliases the gateway keeps for a backend with views.
#[test]
fn modern_catalog_view_reserves_a_book_through_the_gateway() {
    catalog_view_reserves_a_book(Era::Modern, Route::Gateway(EraChoice::Legacy, "shop"));
}

/// How the Inspector reaches the bookshop.
#[derive(Clone, Copy, Debug)]
enum Route {
    /// At its own endpoint.
    Direct,
    /// Through a gateway that speaks this revision to the bookshop, under this namespace.
    Gateway(EraChoice, &'static str),
}

#[derive(Clone, Copy, Debug)]
enum Era {
    Legacy,
    Modern,
}

impl Era {
    fn name(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }

    /// What the Inspector shows on the server's card once connected.
    fn protocol(self) -> &'static str {
        match self {
            Era::Legacy => "2025-11-25",
            Era::Modern => common::MODERN,
        }
    }
}

fn catalog_view_reserves_a_book(era: Era, route: Route) {
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("shop.db");
    let mut command = Command::new(example_bin("bookshop"));
    command.args(["--http", "127.0.0.1:0", "--db"]).arg(&db);
    let shop = HttpExample::spawn(command, "the bookshop");
    let before = copies(&db, TITLE);
    assert!(before > 0, "{TITLE} is out of stock in a new database");
    let titles = titles(&db);
    let gateway = match route {
        Route::Direct => None,
        Route::Gateway(backend_era, namespace) => {
            Some(Fronting::start("shop", &shop.url, namespace, backend_era))
        }
    };
    let server_url = gateway.as_ref().map_or(&shop.url, |gateway| &gateway.url);
    let tool = match route {
        Route::Gateway(_, namespace) if !namespace.is_empty() => {
            format!("{namespace}_browse_catalog")
        }
        _ => "browse_catalog".to_owned(),
    };

    let inspector = InspectorWeb::start(dir.path(), era, server_url);
    let output = out_dir(era, route);
    let screenshot = output.join("catalog.png");
    let _ = std::fs::remove_file(&screenshot);
    let profile = dir.path().join("chromium-profile");
    std::fs::create_dir_all(&profile).expect("the browser's profile directory");

    let mut driver = Command::new(peer_node());
    driver
        .arg(common::workspace_root().join("tests/peers/apps_browser.mjs"))
        .env("PLAYWRIGHT_CORE", playwright_core())
        .env("CHROMIUM", chromium())
        .env("PROFILE_DIR", &profile)
        .env(
            "INSPECTOR_URL",
            format!("http://127.0.0.1:{}", inspector.port),
        )
        .env("INSPECTOR_TOKEN", &inspector.token)
        .env("SERVER_URL", server_url)
        .env("TOOL", tool)
        .env("TITLE", TITLE)
        .env("SCREENSHOT", &screenshot)
        .env("TIMEOUT_MS", WAIT.as_millis().to_string())
        // The driver exits on its own 15 s before the test would kill it (a kill from here
        // would leave its browser running).
        .env(
            "DEADLINE_MS",
            (DRIVER_TIMEOUT - Duration::from_secs(15))
                .as_millis()
                .to_string(),
        )
        .env("PROTOCOL", era.protocol());
    let run = common::run_with_deadline(driver, DRIVER_TIMEOUT);
    let context = || {
        format!(
            "{era:?} {route:?}: the browser driver ({})\n--- stdout:\n{}\n--- stderr:\n{}\n--- inspector:\n{}\n--- bookshop:\n{}\n(screenshots in {})",
            run.status,
            run.stdout,
            run.stderr,
            inspector.output(),
            shop.stderr(),
            output.display()
        )
    };
    let report: Value = (run.stdout.lines().rev())
        .find_map(|line| serde_json::from_str(line).ok())
        .unwrap_or_else(|| panic!("no JSON report\n{}", context()));
    assert!(
        run.status.success() && report["ok"] == true,
        "{}",
        context()
    );

    // The view showed every title of the tool's result, a Reserve button, the tool's answer
    // and the new count.
    assert_eq!(report["titles"], json!(titles.len()), "{}", context());
    let reserve = report["reserveText"].as_str().unwrap_or_default();
    assert!(reserve.starts_with("Reserve"), "{}", context());
    let answer = report["answer"].as_str().unwrap_or_default();
    assert!(answer.starts_with("Reserved"), "{}", context());
    assert!(answer.contains(TITLE), "{}", context());
    assert_eq!(report["before"], json!(before), "{}", context());
    assert_eq!(report["after"], json!(before - 1), "{}", context());

    // The click reached reserve_book on the server: one copy fewer in its database.
    assert_eq!(copies(&db, TITLE), before - 1, "{}", context());

    // The screenshot of the view is kept, and is not blank.
    let png = std::fs::read(&screenshot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}", screenshot.display()));
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let pixels = &report["pixels"];
    assert!(
        pixels["width"].as_u64() >= Some(200) && pixels["height"].as_u64() >= Some(100),
        "the view is too small: {pixels}"
    );
    assert!(
        pixels["colours"].as_u64() >= Some(16) && pixels["stddev"].as_f64() >= Some(5.0),
        "the screenshot is blank: {pixels}"
    );
    eprintln!(
        "{era:?} {route:?}: {} in {:.1} s (driver timings {}); screenshot {}",
        answer,
        started.elapsed().as_secs_f64(),
        report["timings"],
        screenshot.display()
    );
}

/// Where the run of `era` keeps its screenshots: `target/tmp/apps-browser/<era>/`, or
/// `<era>-gateway/` through the gateway.
fn out_dir(era: Era, route: Route) -> PathBuf {
    let name = match route {
        Route::Direct => era.name().to_owned(),
        Route::Gateway(..) => format!("{}-gateway", era.name()),
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("apps-browser")
        .join(name);
    std::fs::create_dir_all(&dir).expect("the test output directory");
    dir
}

/// `MCP_PEER_PLAYWRIGHT`, else `target/peers/node_modules/playwright-core`.
fn playwright_core() -> PathBuf {
    let path = match std::env::var_os("MCP_PEER_PLAYWRIGHT") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => common::workspace_root().join("target/peers/node_modules/playwright-core"),
    };
    assert!(
        path.join("package.json").is_file(),
        "playwright-core not found at {}: run scripts/setup-peers",
        path.display()
    );
    path
}

/// `MCP_PEER_CHROMIUM`, else Debian's `/usr/bin/chromium`.
fn chromium() -> PathBuf {
    let path = std::env::var_os("MCP_PEER_CHROMIUM")
        .filter(|path| !path.is_empty())
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        path.is_file(),
        "chromium not found at {}: `apt-get install chromium` (scripts/test does)",
        path.display()
    );
    path
}

/// Copies of `title` in the database file (read-only, beside the running server).
fn copies(db: &Path, title: &str) -> u32 {
    let db = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the bookshop database");
    db.query_row(
        "SELECT copies FROM books WHERE title = ?1",
        [title],
        |row| row.get(0),
    )
    .expect("the title's copies")
}

/// Every title in the database.
fn titles(db: &Path) -> Vec<String> {
    let db = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the bookshop database");
    let mut query = db.prepare("SELECT title FROM books").expect("a query");
    query
        .query_map([], |row| row.get(0))
        .expect("the titles")
        .collect::<Result<Vec<String>, _>>()
        .expect("the titles")
}

/// The Inspector's web client (`--web`) on fixed free ports, its home and storage in the test's
/// directory; killed (by its PID) when dropped.
struct InspectorWeb {
    child: Child,
    port: u16,
    token: String,
    stdout: Collector,
    stderr: Collector,
}

impl InspectorWeb {
    /// Starts the web client on two free ports. A port found free can be taken again before the
    /// Inspector binds it (by another test's connection, as its source port): when the
    /// Inspector says so, it is started again on new ports, three times at most.
    fn start(dir: &Path, era: Era, server_url: &str) -> Self {
        for _ in 0..2 {
            match Self::start_on_free_ports(dir, era, server_url) {
                Ok(inspector) => return inspector,
                Err(taken) => eprintln!("starting the inspector again: {taken}"),
            }
        }
        Self::start_on_free_ports(dir, era, server_url).unwrap_or_else(|taken| panic!("{taken}"))
    }

    /// The web client on two ports found free; `Err` (its output) when it found one taken.
    fn start_on_free_ports(dir: &Path, era: Era, server_url: &str) -> Result<Self, String> {
        let port = free_port();
        // Two ports found free one after the other may be the same one.
        let sandbox = std::iter::repeat_with(free_port)
            .take(100)
            .find(|&sandbox| sandbox != port)
            .expect("a second free loopback port");
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        let token = format!("t{:x}{nanos:x}", std::process::id());
        let (home, storage) = (dir.join("home"), dir.join("storage"));
        for dir in [&home, &storage] {
            std::fs::create_dir_all(dir).expect("the inspector's directories");
        }
        let mut command = Command::new(peer_node());
        command.arg(peer_inspector()).arg("--web");
        if let Era::Modern = era {
            // The deep link connects the catalog's `deep-link` server, in the era it names.
            let catalog = dir.join("catalog.json");
            let servers = json!({"mcpServers": {"deep-link": {
                "type": "http", "url": server_url, "protocolEra": "modern"
            }}});
            std::fs::write(&catalog, servers.to_string()).expect("write the catalog");
            command.arg("--catalog").arg(catalog);
        }
        command
            .env("HOME", &home)
            .env("MCP_STORAGE_DIR", &storage)
            .env("HOST", "127.0.0.1")
            .env("CLIENT_PORT", port.to_string())
            .env("MCP_SANDBOX_PORT", sandbox.to_string())
            .env("MCP_AUTO_OPEN_ENABLED", "false")
            .env("MCP_INSPECTOR_API_TOKEN", &token)
            .env("MCP_INSPECTOR_SECRET_STORE", "memory")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("start the inspector's web client");
        let stdout = Collector::start(child.stdout.take().expect("piped stdout"));
        let stderr = Collector::start(child.stderr.take().expect("piped stderr"));
        let inspector = InspectorWeb {
            child,
            port,
            token,
            stdout,
            stderr,
        };
        inspector.wait_listening(&[port, sandbox])?;
        Ok(inspector)
    }

    /// Waits (30 s at most) until both ports accept connections; `Err` (the output) when the
    /// Inspector found one of them taken.
    fn wait_listening(&self, ports: &[u16]) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        for port in ports {
            while std::net::TcpStream::connect(("127.0.0.1", *port)).is_err() {
                let output = self.output();
                if output.contains("PORT IS IN USE") {
                    return Err(output);
                }
                assert!(
                    Instant::now() < deadline,
                    "the inspector does not listen on {port} after 30 s:\n{output}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Ok(())
    }

    fn output(&self) -> String {
        format!("{}{}", self.stdout.text(), self.stderr.text())
    }
}

impl Drop for InspectorWeb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
