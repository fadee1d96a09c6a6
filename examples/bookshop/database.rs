//! The shop's database: where it lives, and opening it. A new (or empty) file gets the schema
//! and the opening stock; a bookshop database is recognised by its `application_id` and its
//! schema version (`user_version`); any other file is refused, naming it.

use crate::catalog::OPENING_STOCK;
use rusqlite::{Connection, ErrorCode, TransactionBehavior, params};
use std::fmt;
use std::path::PathBuf;

/// `PRAGMA application_id` of a bookshop database ("BkSh").
const APPLICATION_ID: i32 = 0x426b_5368;

/// `PRAGMA user_version` of a bookshop database: the version of [`SCHEMA`].
const SCHEMA_VERSION: i32 = 1;

/// The tables of a bookshop database.
const SCHEMA: &str = "
    CREATE TABLE books (
        title TEXT PRIMARY KEY,
        author TEXT NOT NULL,
        year INTEGER NOT NULL,
        price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
        copies INTEGER NOT NULL CHECK (copies >= 0)
    );
    CREATE TABLE reservations (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL REFERENCES books (title),
        reserved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL REFERENCES books (title),
        backordered INTEGER NOT NULL CHECK (backordered IN (0, 1)),
        arrives TEXT NOT NULL,
        ordered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
";

/// Where the database lives.
pub enum Place {
    /// SQLite's private temporary database: held in SQLite's page cache, spilled to a
    /// temporary file only when it grows (a file SQLite unlinks as soon as it makes it), and
    /// gone when the connection closes, even when the server is killed.
    Temporary,
    /// A file the user named (`--db PATH`), kept across restarts.
    File(PathBuf),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Temporary => f.write_str("a temporary database"),
            Place::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// An open bookshop database.
pub struct Opened {
    /// The connection every statement goes through.
    pub connection: Connection,
    /// Whether it was made (and stocked) just now.
    pub created: bool,
}

/// Opens the bookshop database at `place`, creating and stocking it when the file is new or
/// empty. Fails, in one line naming the file, on a file that is not a bookshop database.
pub fn open(place: &Place) -> Result<Opened, String> {
    let failed = |why: String| format!("{place}: {why}");
    let mut connection = match place {
        // The empty name is SQLite's private temporary database.
        Place::Temporary => Connection::open(""),
        Place::File(path) => Connection::open(path),
    }
    .map_err(|error| failed(format!("cannot open it ({error})")))?;
    let created = stock_or_recognise(&mut connection).map_err(|refusal| match refusal {
        Refusal::NotOurs(why) => failed(format!(
            "not a bookshop database ({why}); give --db a new file, or one this bookshop made"
        )),
        Refusal::Sqlite(error) => failed(error.to_string()),
    })?;
    if let Place::File(_) = place {
        // Readers (a second process, `sqlite3`) do not wait for writers, nor writers for them.
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))
            .map_err(|error| failed(error.to_string()))?;
    }
    connection
        .pragma_update(None, "foreign_keys", true)
        .map_err(|error| failed(error.to_string()))?;
    Ok(Opened {
        connection,
        created,
    })
}

/// Why a database was refused.
enum Refusal {
    /// Not a bookshop database (a file of something else); why we think so.
    NotOurs(String),
    /// SQLite failed.
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for Refusal {
    /// A file that is no database at all fails at its first statement.
    fn from(error: rusqlite::Error) -> Self {
        match error.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => {
                Refusal::NotOurs("not a SQLite database at all".into())
            }
            _ => Refusal::Sqlite(error),
        }
    }
}

/// Creates and stocks an empty database, or recognises a bookshop's, in one transaction (two
/// servers starting on one new file do not both stock it). `true` when it created it.
fn stock_or_recognise(connection: &mut Connection) -> Result<bool, Refusal> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let application_id: i32 =
        transaction.pragma_query_value(None, "application_id", |row| row.get(0))?;
    let version: i32 = transaction.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let tables: Vec<String> = transaction
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    match (application_id, version) {
        (APPLICATION_ID, SCHEMA_VERSION) => return Ok(false),
        (APPLICATION_ID, other) => {
            return Err(Refusal::NotOurs(format!(
                "schema version {other}, and this bookshop reads version {SCHEMA_VERSION}"
            )));
        }
        (0, 0) if tables.is_empty() => {}
        _ if tables.is_empty() => {
            return Err(Refusal::NotOurs(format!(
                "application_id {application_id:#x}, user_version {version}"
            )));
        }
        _ => {
            return Err(Refusal::NotOurs(format!(
                "its tables are {}",
                tables.join(", ")
            )));
        }
    }
    transaction.execute_batch(SCHEMA)?;
    {
        let mut insert = transaction.prepare(
            "INSERT INTO books (title, author, year, price_cents, copies)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for book in OPENING_STOCK {
            insert.execute(params![
                book.title,
                book.author,
                book.year,
                book.price_cents,
                book.copies
            ])?;
        }
    }
    transaction.pragma_update(None, "application_id", APPLICATION_ID)?;
    transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    transaction.commit()?;
    Ok(true)
}
