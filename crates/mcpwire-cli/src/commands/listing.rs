//! A paginated listing as the server sent it: every page's items in one result, for `--json`
//! and for printing.

use crate::exit::Failure;
use mcpwire::client::Client;
use serde_json::{Map, Value, json};

/// The most pages one listing follows.
const MAX_PAGES: usize = 64;

/// `{key: [every item of every page]}` of `method`.
pub async fn list(client: &Client, method: &str, key: &str) -> Result<Value, Failure> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let mut params = Map::new();
        if let Some(cursor) = cursor.take() {
            params.insert("cursor".into(), json!(cursor));
        }
        let mut page = client.request(method, Value::Object(params)).await?;
        match page.get_mut(key).map(Value::take) {
            Some(Value::Array(page_items)) => items.extend(page_items),
            _ => {
                return Err(Failure::usage(format!(
                    "the {method} result has no {key} list"
                )));
            }
        }
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_owned()),
            None => return Ok(json!({ key: items })),
        }
    }
    Err(Failure::usage(format!(
        "{method} has more than {MAX_PAGES} pages"
    )))
}

/// The items of a listing made by [`list`].
pub fn items<'a>(listing: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    listing
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// A string field of an item, or "".
pub fn text<'a>(item: &'a Value, key: &str) -> &'a str {
    item.get(key).and_then(Value::as_str).unwrap_or("")
}
