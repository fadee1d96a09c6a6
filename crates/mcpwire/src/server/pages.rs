//! Paginated list results (`tools/list`, `prompts/list`, `resources/list`,
//! `resources/templates/list`), each page serialized once when the server starts.

use serde::Serialize;
use serde_json::value::RawValue;

/// How many items one page holds by default.
pub(crate) const DEFAULT_PAGE_SIZE: usize = 100;

/// The pages of one list: `{"<key>":[…],"nextCursor":"…"}`.
pub(crate) struct Pages {
    pages: Vec<Box<RawValue>>,
}

impl Default for Pages {
    /// No page at all: what a view holds before the server starts.
    fn default() -> Self {
        Self { pages: Vec::new() }
    }
}

impl Pages {
    /// Splits `items` into pages of `page_size` under `key`.
    pub(crate) fn new<T: Serialize>(key: &str, items: &[T], page_size: usize) -> Self {
        let chunks: Vec<&[T]> = if items.is_empty() {
            vec![&[]]
        } else {
            items.chunks(page_size.max(1)).collect()
        };
        let last = chunks.len() - 1;
        let pages = chunks
            .into_iter()
            .enumerate()
            .map(|(index, chunk)| {
                let mut json = format!(r#"{{"{key}":"#);
                json.push_str(&serde_json::to_string(chunk).expect("list items serialize"));
                if index < last {
                    json.push_str(&format!(r#","nextCursor":"{}""#, index + 1));
                }
                json.push('}');
                RawValue::from_string(json).expect("valid JSON")
            })
            .collect();
        Self { pages }
    }

    /// The page a cursor points at; `None` for a cursor this server did not issue.
    pub(crate) fn page(&self, cursor: Option<&str>) -> Option<&RawValue> {
        let index = match cursor {
            None => 0,
            Some(cursor) => cursor.parse::<usize>().ok()?,
        };
        self.pages.get(index).map(|page| &**page)
    }
}
