//! The bookshop's own option, `--db PATH`, taken out of the command line before the options
//! every example reads (`--http`, `--auth-*`; `examples/support`).

use std::path::PathBuf;

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
    use super::take_db;
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
}
