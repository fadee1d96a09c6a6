//! The inventory: the shop's database, shared by every request (`ctx.state::<Inventory>()`).
//! Every statement runs on the blocking thread pool, never on the runtime's threads.

use crate::database::{self, Place};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::Serialize;
use std::fmt;
use std::sync::{Arc, Mutex};

/// What the shop has of one title.
#[derive(Clone, Debug, Serialize)]
pub struct Book {
    /// The book's title.
    pub title: String,
    /// Who wrote it.
    pub author: String,
    /// The year it was first published.
    pub year: u16,
    /// Its price, in cents.
    pub price_cents: u32,
    /// Copies on the shelf.
    pub copies: u32,
}

/// The shop's stock, reservations and orders, in its database.
pub struct Inventory {
    connection: Arc<Mutex<Connection>>,
    place: Place,
    created: bool,
    /// How many orders are kept: the newest.
    keep_orders: u32,
}

/// The database failed (it is locked by another process for too long, the disk is full, ...).
#[derive(Debug)]
pub struct DbError(String);

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the shop's database failed: {}", self.0)
    }
}

impl From<DbError> for mcpwire::ToolError {
    fn from(error: DbError) -> Self {
        mcpwire::ToolError::new(error.to_string())
    }
}

impl Inventory {
    /// Opens the database at `place` (see [`database::open`]).
    ///
    /// # Errors
    ///
    /// A start-up error, in one line naming the file, when it cannot be opened or is not a
    /// bookshop database.
    pub async fn open(place: Place, keep_orders: u32) -> mcpwire::Result<Self> {
        tokio::task::spawn_blocking(move || {
            let opened = database::open(&place).map_err(mcpwire::Error::Startup)?;
            Ok(Self {
                connection: Arc::new(Mutex::new(opened.connection)),
                place,
                created: opened.created,
                keep_orders,
            })
        })
        .await
        .map_err(|error| mcpwire::Error::Startup(error.to_string()))?
    }

    /// One line saying where the inventory is, for the server's first words.
    pub async fn describe(&self) -> Result<String, DbError> {
        let titles: u32 = self
            .run(|db| db.query_row("SELECT COUNT(*) FROM books", [], |row| row.get(0)))
            .await?;
        Ok(match (&self.place, self.created) {
            (Place::Temporary, _) => format!(
                "Bookshop: {titles} titles in a temporary database, removed when the server \
                 stops (--db PATH keeps them in a file)"
            ),
            (place, true) => format!("Bookshop: {titles} titles in {place} (a new database)"),
            (place, false) => format!("Bookshop: {titles} titles in {place}"),
        })
    }

    /// The copies of `title` on the shelf; `None` when the shop does not carry it.
    pub async fn copies(&self, title: String) -> Result<Option<u32>, DbError> {
        self.run(move |db| {
            db.prepare_cached("SELECT copies FROM books WHERE title = ?1")?
                .query_row([title], |row| row.get(0))
                .optional()
        })
        .await
    }

    /// Takes one copy of `title` off the shelf and records the reservation, in one transaction:
    /// the copies left, or `None` when there were none.
    pub async fn reserve(&self, title: String) -> Result<Option<u32>, DbError> {
        self.run(move |db| {
            let transaction = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let left: Option<u32> = transaction
                .query_row(
                    "UPDATE books SET copies = copies - 1 WHERE title = ?1 AND copies > 0
                     RETURNING copies",
                    [&title],
                    |row| row.get(0),
                )
                .optional()?;
            if left.is_some() {
                transaction.execute("INSERT INTO reservations (title) VALUES (?1)", [&title])?;
                transaction.commit()?;
            }
            Ok(left)
        })
        .await
    }

    /// Records an order of `title`, arriving `arrives` (backordered or from the shelf), and
    /// forgets the oldest orders beyond the newest `keep_orders`, in one transaction.
    pub async fn record_order(
        &self,
        title: String,
        backordered: bool,
        arrives: String,
    ) -> Result<(), DbError> {
        let keep = self.keep_orders;
        self.run(move |db| {
            let transaction = db.transaction()?;
            let id: i64 = transaction
                .prepare_cached(
                    "INSERT INTO orders (title, backordered, arrives) VALUES (?1, ?2, ?3)
                     RETURNING id",
                )?
                .query_row(params![title, backordered, arrives], |row| row.get(0))?;
            transaction
                .prepare_cached("DELETE FROM orders WHERE id <= ?1")?
                .execute([id - i64::from(keep)])?;
            transaction.commit()
        })
        .await
    }

    /// Every title the shop carries, in catalog order.
    pub async fn books(&self) -> Result<Vec<Book>, DbError> {
        self.run(|db| {
            db.prepare_cached(
                "SELECT title, author, year, price_cents, copies FROM books ORDER BY rowid",
            )?
            .query_map([], |row| {
                Ok(Book {
                    title: row.get(0)?,
                    author: row.get(1)?,
                    year: row.get(2)?,
                    price_cents: row.get(3)?,
                    copies: row.get(4)?,
                })
            })?
            .collect()
        })
        .await
    }

    /// Runs `work` on the connection, on the blocking pool.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, DbError> {
        let connection = self.connection.clone();
        tokio::task::spawn_blocking(move || {
            let mut connection = connection.lock().unwrap_or_else(|e| e.into_inner());
            work(&mut connection)
        })
        .await
        .map_err(|_| DbError("a statement panicked".into()))?
        .map_err(|error| DbError(error.to_string()))
    }
}
