//! The bookshop's own options, `--db PATH` and `--keep-orders N`, taken out of the command
//! line before the options every example reads (`--http`, `--auth-*`; `examples/support`).

use std::path::PathBuf;

/// How many orders the shop keeps by default: the newest; older ones are deleted as new ones
/// come, so that no caller can grow the database without bound.
pub const KEEP_ORDERS: u32 = 10_000;

/// `--keep-orders N` (or `--keep-orders=N`, `N` at least 1) out of `args`: the number, or
/// [`KEEP_ORDERS`], and the other arguments.
///
/// # Errors
///
/// `--keep-orders` without a number, or with one that is not a whole number from 1 up.
pub fn take_keep_orders(
    args: impl IntoIterator<Item = String>,
) -> mcpwire::Result<(u32, Vec<String>)> {
    let bad = || {
        mcpwire::Error::Startup("--keep-orders needs a whole number of orders, at least 1".into())
    };
    let (mut keep, mut rest) = (KEEP_ORDERS, Vec::new());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let value = match arg.strip_prefix("--keep-orders=") {
            Some(value) => value.to_owned(),
            None if arg == "--keep-orders" => args.next().ok_or_else(bad)?,
            None => {
                rest.push(arg);
                continue;
            }
        };
        keep = value.parse().ok().filter(|n| *n >= 1).ok_or_else(bad)?;
    }
    Ok((keep, rest))
}

/// `--db PATH` (or `--db=PATH`) out of `args`: the path, when given, and the other arguments.
///
/// # Errors
///
/// `--db` without a path.
pub fn take_db(
    args: impl IntoIterator<Item = String>,
) -> mcpwire::Result<(Option<PathBuf>, Vec<String>)> {
    let (mut db, mut rest) = (None, Vec::new());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if let Some(path) = arg.strip_prefix("--db=") {
            db = Some(PathBuf::from(path));
        } else if arg == "--db" {
            let path = args.next().ok_or_else(|| {
                mcpwire::Error::Startup("--db needs a path (the database file)".into())
            })?;
            db = Some(PathBuf::from(path));
        } else {
            rest.push(arg);
        }
    }
    Ok((db, rest))
}

#[cfg(test)]
mod tests {
    use super::{KEEP_ORDERS, take_db, take_keep_orders};
    use std::path::PathBuf;

    fn take(args: &[&str]) -> Option<(Option<PathBuf>, Vec<String>)> {
        take_db(args.iter().map(|a| a.to_string())).ok()
    }

    #[test]
    fn takes_the_db_path_and_leaves_the_rest() {
        let rest = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        assert_eq!(take(&[]), Some((None, vec![])));
        assert_eq!(
            take(&["--http", "127.0.0.1:0", "--db", "shop.db"]),
            Some((Some("shop.db".into()), rest(&["--http", "127.0.0.1:0"])))
        );
        assert_eq!(
            take(&["--db=shop.db", "--http=x"]),
            Some((Some("shop.db".into()), rest(&["--http=x"])))
        );
        assert_eq!(take(&["--http", "x", "--db"]), None);
    }

    #[test]
    fn takes_how_many_orders_to_keep() {
        let keep = |args: &[&str]| {
            take_keep_orders(args.iter().map(|a| a.to_string()))
                .ok()
                .map(|(keep, rest)| (keep, rest.len()))
        };
        assert_eq!(keep(&["--db", "x"]), Some((KEEP_ORDERS, 2)));
        assert_eq!(keep(&["--keep-orders", "3", "--http=x"]), Some((3, 1)));
        assert_eq!(keep(&["--keep-orders=12"]), Some((12, 0)));
        assert_eq!(keep(&["--keep-orders", "0"]), None);
        assert_eq!(keep(&["--keep-orders", "-1"]), None);
        assert_eq!(keep(&["--keep-orders"]), None);
    }
}
