//! The interactive form on a real terminal: the CLI runs in a tmux pane, the test types keys
//! and reads the screen. A default is accepted with Enter, an enum value picked from the list,
//! and a required field cannot be left empty. (tmux is installed by `scripts/test`.)

mod common;

use common::stdio_example;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// One tmux server of its own (`-L`), running one command in a pane; killed on drop.
struct Pane {
    socket: String,
}

impl Pane {
    fn start(command: &str) -> Pane {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let socket = format!(
            "mcpwire-cli-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        // The pane stays after the command ends, so its last lines can be read.
        let script = format!("{command}; echo EXIT=$?; sleep 120");
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "150",
                "-y",
                "50",
                "sh",
                "-c",
                &script,
            ])
            .env_remove("TMUX")
            .status()
            .expect("tmux must be installed (scripts/test installs it)");
        assert!(status.success(), "tmux new-session failed");
        Pane { socket }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p"])
            .output()
            .expect("capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen shows `text`.
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {text:?}:\n{screen}"
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
        thread::sleep(Duration::from_millis(150));
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

fn cli_command(args: &str) -> String {
    format!("{} {args}", env!("CARGO_BIN_EXE_mcpwire-cli"))
}

#[test]
fn a_form_on_a_terminal_accepts_defaults_and_picks_an_enum() {
    let server = stdio_example("conformance");
    let pane = Pane::start(&cli_command(&format!(
        "call --stdio {server} --era legacy test_elicitation_sep1034_defaults"
    )));
    pane.wait_for("? Please review your profile (every field has a default).");
    pane.wait_for("> answer the form");
    pane.keys(&["Enter"]);
    // Each field shows its type and default before it is asked.
    pane.wait_for("age (integer) [default: 30]");
    pane.keys(&["Enter"]); // the default
    pane.wait_for("name (string) [default: John Doe]");
    pane.keys(&["Ada", "Enter"]);
    pane.wait_for("score (number) [default: 95.5]");
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("{choices: active, inactive, pending}");
    assert!(
        screen.contains("status (string): An account status. [default: active]"),
        "{screen}"
    );
    pane.keys(&["Down", "Enter"]); // from the default `active` to `inactive`
    pane.wait_for("verified (boolean) [default: true]");
    pane.keys(&["Enter"]);
    let content = r#"{"age":30,"name":"Ada","score":95.5,"status":"inactive","verified":true}"#;
    let screen = pane.wait_for("EXIT=");
    assert!(screen.contains(&format!("-> accept {content}")), "{screen}");
    assert!(
        screen.contains(&format!(
            "Elicitation completed: action=accept, content={content}"
        )),
        "{screen}"
    );
    assert!(screen.contains("EXIT=0"), "{screen}");
}

#[test]
fn a_required_field_cannot_be_skipped() {
    let server = stdio_example("backorder");
    let pane = Pane::start(&cli_command(&format!(
        "call --stdio {server} --era modern order_book title=Neuromancer"
    )));
    pane.wait_for("'Neuromancer' is out of stock (2-3 weeks). Order anyway?");
    pane.keys(&["Enter"]);
    pane.wait_for("confirm (boolean, required)");
    // No default: Enter alone does not answer a required yes/no.
    pane.keys(&["Enter"]);
    pane.keys(&["Enter"]);
    let screen = pane.screen();
    assert!(
        !screen.contains("EXIT="),
        "Enter skipped a required field:\n{screen}"
    );
    assert!(!screen.contains("-> accept"), "{screen}");
    pane.keys(&["y"]);
    let screen = pane.wait_for("EXIT=");
    assert!(screen.contains(r#"-> accept {"confirm":true}"#), "{screen}");
    assert!(
        screen.contains("Backordered 'Neuromancer'; it ships in 2-3 weeks."),
        "{screen}"
    );
    assert!(screen.contains("EXIT=0"), "{screen}");
}

#[test]
fn a_required_text_field_says_so_when_left_empty() {
    let server = stdio_example("conformance");
    let pane = Pane::start(&cli_command(&format!(
        "call --stdio {server} --era modern test_input_required_result_elicitation"
    )));
    pane.wait_for("> answer the form");
    pane.keys(&["Enter"]);
    pane.wait_for("name (string, required)");
    pane.keys(&["Enter"]);
    pane.wait_for("this field is required");
    assert!(!pane.screen().contains("EXIT="));
    pane.keys(&["Ada", "Enter"]);
    let screen = pane.wait_for("EXIT=");
    assert!(screen.contains(r#"-> accept {"name":"Ada"}"#), "{screen}");
    assert!(screen.contains("Hello, Ada!"), "{screen}");
    assert!(screen.contains("EXIT=0"), "{screen}");
}

#[test]
fn sampling_on_a_terminal_asks_for_the_text() {
    let server = stdio_example("recommend_book");
    let pane = Pane::start(&cli_command(&format!(
        "call --stdio {server} recommend_book 'genre=science fiction'"
    )));
    pane.wait_for("? the server asks the model:");
    pane.wait_for("Suggest one science fiction book title. Answer with the title only.");
    pane.wait_for("Reply");
    pane.keys(&["Dune", "Enter"]);
    let screen = pane.wait_for("EXIT=");
    assert!(
        screen.contains("Today's science fiction pick: Dune"),
        "{screen}"
    );
    assert!(screen.contains("EXIT=0"), "{screen}");
}

#[test]
fn progress_is_a_bar_on_a_terminal() {
    let server = common::HttpServer::example("soak_server");
    let pane = Pane::start(&cli_command(&format!(
        "call --url {} slow steps=20",
        server.url
    )));
    let screen = pane.wait_for("/20 step ");
    assert!(
        screen.contains('█') || screen.contains('░'),
        "a bar: {screen}"
    );
    let screen = pane.wait_for("EXIT=");
    assert!(screen.contains("slept 20 steps"), "{screen}");
    assert!(
        !screen.contains("progress "),
        "no plain progress lines on a terminal: {screen}"
    );
    assert!(
        !screen.contains('░'),
        "the bar is cleared at the end: {screen}"
    );
}
