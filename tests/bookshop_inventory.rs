//! The bookshop's inventory in SQLite, over real transports: the built `bookshop` example,
//! started with `--db PATH` (a file in a fresh directory) or on its temporary database, driven
//! by this SDK's client over stdio and Streamable HTTP on both revisions, with the database file
//! read by the test itself (rusqlite).

#[macro_use]
mod common;

use common::client::{Connected, Via};
use common::{HttpExample, example_bin, run_with_deadline};
use mcpwire::client::{Client, EraChoice, StdioServer};
use mcpwire::protocol::{CallToolResult, Content};
use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

on_every_transport!(
    a_reservation_lowers_the_count_in_the_file_and_in_book_info,
    an_order_is_recorded_and_leaves_the_shelf_alone,
    the_last_copy_is_reserved_once_then_refused,
);

/// A fresh directory, and the database path in it (no file yet).
fn shop_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("shop.db");
    (dir, db)
}

/// The bookshop on `db`, over `via`, spoken to in `era`.
async fn open_shop(via: Via, era: EraChoice, db: &Path) -> Connected {
    let builder = Client::builder().era(era);
    match via {
        Via::Stdio => {
            let server = StdioServer::new(example_bin("bookshop"))
                .arg("--db")
                .arg(db);
            let client = builder.connect_stdio(server).await.expect("connect");
            Connected {
                client,
                _server: None,
            }
        }
        Via::Http => {
            let server = http_shop(db);
            let client = builder.connect_http(&server.url).await.expect("connect");
            Connected {
                client,
                _server: Some(server),
            }
        }
    }
}

/// The bookshop serving HTTP on `db`.
fn http_shop(db: &Path) -> HttpExample {
    let mut command = Command::new(example_bin("bookshop"));
    command.args(["--http", "127.0.0.1:0", "--db"]).arg(db);
    HttpExample::spawn(command, "the bookshop on a database file")
}

/// The database file, opened read-only next to the running server.
fn read(db: &Path) -> Connection {
    Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open the shop's db")
}

/// The copies of `title` the file holds.
fn copies_in_file(db: &Path, title: &str) -> u32 {
    read(db)
        .query_row(
            "SELECT copies FROM books WHERE title = ?1",
            [title],
            |row| row.get(0),
        )
        .expect("a row for the title")
}

/// How many rows of `table` name `title`.
fn rows_for(db: &Path, table: &str, title: &str) -> u32 {
    read(db)
        .query_row(
            &format!("SELECT COUNT(*) FROM {table} WHERE title = ?1"),
            [title],
            |row| row.get(0),
        )
        .expect("a count")
}

fn text(result: &CallToolResult) -> &str {
    match result.content.as_slice() {
        [Content::Text { text, .. }] => text,
        other => panic!("expected one text block, got {other:?}"),
    }
}

async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    client
        .call_tool(tool, &arguments)
        .await
        .unwrap_or_else(|e| panic!("{tool} {arguments}: {e}"))
}

async fn book_info_copies(client: &Client, title: &str) -> u64 {
    let stock: Value = client
        .call_tool_as("book_info", json!({"title": title}))
        .await
        .unwrap();
    assert_eq!(stock["title"], title, "{stock}");
    stock["copies"].as_u64().unwrap()
}

async fn a_reservation_lowers_the_count_in_the_file_and_in_book_info(via: Via, era: EraChoice) {
    let (_dir, db) = shop_dir();
    let Connected { client, _server } = open_shop(via, era, &db).await;
    assert_eq!(copies_in_file(&db, "Dune"), 7);
    let reserved = call(&client, "reserve_book", json!({"title": "Dune"})).await;
    assert_eq!(text(&reserved), "Reserved 'Dune' (6 copies left).");
    assert_eq!(copies_in_file(&db, "Dune"), 6);
    assert_eq!(rows_for(&db, "reservations", "Dune"), 1);
    assert_eq!(book_info_copies(&client, "Dune").await, 6);
    let again = call(&client, "reserve_book", json!({"title": "Dune"})).await;
    assert_eq!(text(&again), "Reserved 'Dune' (5 copies left).");
    assert_eq!(copies_in_file(&db, "Dune"), 5);
}

async fn an_order_is_recorded_and_leaves_the_shelf_alone(via: Via, era: EraChoice) {
    let (_dir, db) = shop_dir();
    let Connected { client, _server } = open_shop(via, era, &db).await;
    let ordered = call(&client, "order_book", json!({"title": "Dune"})).await;
    assert_eq!(text(&ordered), "Ordered 'Dune'; it arrives tomorrow.");
    let backordered = call(&client, "order_book", json!({"title": "Neuromancer"})).await;
    assert_eq!(
        text(&backordered),
        "'Neuromancer' is on backorder; it would arrive in 2-3 weeks."
    );
    let orders: Vec<(String, bool, String)> = read(&db)
        .prepare("SELECT title, backordered, arrives FROM orders ORDER BY id")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        orders,
        [
            ("Dune".into(), false, "tomorrow".into()),
            ("Neuromancer".into(), true, "in 2-3 weeks".into())
        ]
    );
    assert_eq!(copies_in_file(&db, "Dune"), 7, "an order takes no copy");
}

async fn the_last_copy_is_reserved_once_then_refused(via: Via, era: EraChoice) {
    let (_dir, db) = shop_dir();
    let Connected { client, _server } = open_shop(via, era, &db).await;
    assert_eq!(copies_in_file(&db, "Solaris"), 1);
    let last = call(&client, "reserve_book", json!({"title": "Solaris"})).await;
    assert_eq!(text(&last), "Reserved 'Solaris' (0 copies left).");
    let refused = call(&client, "reserve_book", json!({"title": "Solaris"})).await;
    assert_eq!(text(&refused), "'Solaris' is out of stock.");
    assert_ne!(refused.is_error, Some(true));
    assert_eq!(copies_in_file(&db, "Solaris"), 0);
    assert_eq!(rows_for(&db, "reservations", "Solaris"), 1);
    assert_eq!(book_info_copies(&client, "Solaris").await, 0);
}

/// Many reservations of one title at once: exactly as many succeed as there were copies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_reservations_never_sell_a_copy_twice() {
    let (_dir, db) = shop_dir();
    let Connected { client, _server } = open_shop(Via::Http, EraChoice::Modern, &db).await;
    let copies = copies_in_file(&db, "Foundation");
    assert_eq!(copies, 4);
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let client = client.clone();
        calls.spawn(async move {
            let result = call(&client, "reserve_book", json!({"title": "Foundation"})).await;
            text(&result).to_owned()
        });
    }
    let answers = calls.join_all().await;
    let (mut reserved, refused): (Vec<String>, Vec<String>) =
        answers.into_iter().partition(|a| a.starts_with("Reserved"));
    reserved.sort();
    let expected: Vec<String> = (0..copies)
        .map(|left| format!("Reserved 'Foundation' ({left} copies left)."))
        .collect();
    assert_eq!(reserved, expected, "each count once, none below zero");
    assert_eq!(refused, ["'Foundation' is out of stock."; 8]);
    assert_eq!(copies_in_file(&db, "Foundation"), 0);
    assert_eq!(rows_for(&db, "reservations", "Foundation"), copies);
}

/// `--db` on a database the bookshop made before: its stock and orders are still there after a
/// restart (over HTTP the first server is killed; over stdio it ends with its client).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_keeps_the_shop_across_restarts() {
    let (_dir, db) = shop_dir();
    {
        let Connected { client, _server } = open_shop(Via::Http, EraChoice::Modern, &db).await;
        let reserved = call(&client, "reserve_book", json!({"title": "Dune"})).await;
        assert_eq!(text(&reserved), "Reserved 'Dune' (6 copies left).");
        call(&client, "order_book", json!({"title": "Dune"})).await;
    } // killed
    {
        let Connected { client, .. } = open_shop(Via::Stdio, EraChoice::Legacy, &db).await;
        assert_eq!(book_info_copies(&client, "Dune").await, 6);
        let reserved = call(&client, "reserve_book", json!({"title": "Dune"})).await;
        assert_eq!(text(&reserved), "Reserved 'Dune' (5 copies left).");
        client.close().await;
    }
    let Connected { client, _server } = open_shop(Via::Http, EraChoice::Legacy, &db).await;
    assert_eq!(book_info_copies(&client, "Dune").await, 5);
    assert_eq!(rows_for(&db, "orders", "Dune"), 1);
    assert_eq!(rows_for(&db, "reservations", "Dune"), 2);
    let stderr = _server.as_ref().unwrap().stderr();
    assert!(
        stderr.starts_with(&format!("Bookshop: 43 titles in {}\n", db.display())),
        "{stderr}"
    );
}

/// Orders are kept within `--keep-orders`: the newest, the oldest deleted as new ones come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_newest_orders_are_kept() {
    let (_dir, db) = shop_dir();
    let server = StdioServer::new(example_bin("bookshop"))
        .args(["--keep-orders", "3", "--db"])
        .arg(&db);
    let client = Client::builder()
        .era(EraChoice::Modern)
        .connect_stdio(server)
        .await
        .expect("connect");
    let titles = ["Dune", "Neuromancer", "Dune", "Foundation", "I, Robot"];
    for title in titles {
        call(&client, "order_book", json!({ "title": title })).await;
    }
    let kept: Vec<String> = read(&db)
        .prepare("SELECT title FROM orders ORDER BY id")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(kept, titles[2..]);
    client.close().await;
}

/// Without `--db`, each server has a temporary database of its own (SQLite's private one):
/// nothing shows in SQLite's temporary directory while it runs, nor after it is killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_db_each_server_has_its_own_temporary_database() {
    let temp = tempfile::tempdir().unwrap();
    let start = || {
        let mut command = Command::new(example_bin("bookshop"));
        command
            .args(["--http", "127.0.0.1:0"])
            .env("SQLITE_TMPDIR", temp.path());
        HttpExample::spawn(command, "the bookshop")
    };
    let (first, second) = (start(), start());
    assert!(
        first.stderr().starts_with(
            "Bookshop: 43 titles in a temporary database, removed when the server stops \
             (--db PATH keeps them in a file)\n"
        ),
        "{}",
        first.stderr()
    );
    let one = Client::builder().connect_http(&first.url).await.unwrap();
    let two = Client::builder().connect_http(&second.url).await.unwrap();
    for _ in 0..3 {
        call(&one, "reserve_book", json!({"title": "Dune"})).await;
    }
    assert_eq!(book_info_copies(&one, "Dune").await, 4);
    assert_eq!(book_info_copies(&two, "Dune").await, 7);
    let left = || std::fs::read_dir(temp.path()).unwrap().count();
    assert_eq!(left(), 0, "no file while in use");
    drop((first, second));
    assert_eq!(left(), 0);
}

/// `browse_catalog`: every title with its author, year, price and copies, as structured
/// content and as text; read-only; and it shows the shelf as it is now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_catalog_lists_every_title_as_data_and_as_text() {
    let (_dir, db) = shop_dir();
    let Connected { client, _server } = open_shop(Via::Stdio, EraChoice::Modern, &db).await;
    let tools = client.list_tools().await.unwrap();
    let browse = tools.iter().find(|t| t.name == "browse_catalog").unwrap();
    assert_eq!(
        browse.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );
    call(&client, "reserve_book", json!({"title": "Dune"})).await;
    let result = call(&client, "browse_catalog", json!({})).await;
    let books = result.structured_content.as_ref().unwrap()["books"]
        .as_array()
        .unwrap()
        .clone();
    let in_file: u32 = read(&db)
        .query_row("SELECT COUNT(*) FROM books", [], |row| row.get(0))
        .unwrap();
    assert_eq!(books.len(), in_file as usize);
    assert!(books.len() >= 24, "a few dozen titles: {}", books.len());
    assert_eq!(
        books[0],
        json!({"title": "Dune", "author": "Frank Herbert", "year": 1965,
               "price_cents": 1099, "copies": 6})
    );
    assert_eq!(
        books[1],
        json!({"title": "Neuromancer", "author": "William Gibson", "year": 1984,
               "price_cents": 999, "copies": 0})
    );
    let in_stock = books.iter().filter(|b| b["copies"] != 0).count();
    let text = text(&result);
    assert!(
        text.starts_with(&format!(
            "{} titles, {in_stock} in stock:\n\
             - Dune by Frank Herbert (1965): $10.99, 6 in stock\n\
             - Neuromancer by William Gibson (1984): $9.99, out of stock\n",
            books.len()
        )),
        "{text}"
    );
    assert_eq!(text.lines().count(), books.len() + 1, "{text}");
}

/// A title the shop does not carry is a tool error pointing at the catalog.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_title_is_refused_naming_the_catalog() {
    let (_dir, db) = shop_dir();
    let Connected { client, _server } = open_shop(Via::Stdio, EraChoice::Legacy, &db).await;
    for tool in ["reserve_book", "order_book", "book_info"] {
        let refused = call(&client, tool, json!({"title": "No Such Book"})).await;
        assert_eq!(refused.is_error, Some(true), "{tool}");
        assert_eq!(
            text(&refused),
            format!(
                "Error executing tool {tool}: 'No Such Book' is not in our catalog \
                 (browse_catalog lists every title)"
            )
        );
    }
    assert_eq!(rows_for(&db, "orders", "No Such Book"), 0);
}

/// Starts the bookshop on `db` (stdio, nothing to read) and returns how it ended.
fn start_on(db: &Path) -> common::Finished {
    let mut command = Command::new(example_bin("bookshop"));
    command.arg("--db").arg(db);
    run_with_deadline(command, Duration::from_secs(30))
}

/// A file that is not a bookshop database stops the start with one line naming the file; the
/// file is left as it was.
#[test]
fn a_file_that_is_not_a_bookshop_database_fails_the_start_naming_it() {
    let (dir, _) = shop_dir();
    let random = dir.path().join("random.bin");
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&random, &bytes).unwrap();
    let other = dir.path().join("notes.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE notes (body TEXT); CREATE TABLE tags (name TEXT);")
        .unwrap();
    let other_before = std::fs::read(&other).unwrap();
    for (file, why) in [
        (&random, "not a SQLite database at all"),
        (&other, "its tables are notes, tags"),
    ] {
        let run = start_on(file);
        assert_eq!(run.status.code(), Some(1), "{run:?}");
        assert_eq!(
            run.stderr,
            format!(
                "Error: start-up failed: {}: not a bookshop database ({why}); give --db a new \
                 file, or one this bookshop made\n",
                file.display()
            ),
        );
        assert_eq!(run.stdout, "");
    }
    assert_eq!(std::fs::read(&random).unwrap(), bytes);
    assert_eq!(std::fs::read(&other).unwrap(), other_before);
}
