//! What `browse_catalog` answers: every title as structured content (for programs, and the
//! view an MCP Apps host shows), and the same as lines of text for the model.

use crate::inventory::Book;
use mcpwire::server::IntoCallToolResult;
use mcpwire::{CallToolResult, Content, ToolError};
use serde::Serialize;
use std::fmt;

/// The shop's catalog: `{"books": [{title, author, year, price_cents, copies}, ...]}`.
#[derive(Debug, Serialize)]
pub struct Catalog {
    /// Every title, in catalog order.
    pub books: Vec<Book>,
}

impl fmt::Display for Catalog {
    /// `N titles, M in stock:`, then one line per title.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let in_stock = self.books.iter().filter(|book| book.copies > 0).count();
        write!(f, "{} titles, {in_stock} in stock:", self.books.len())?;
        for book in &self.books {
            let Book {
                title,
                author,
                year,
                price_cents,
                copies,
            } = book;
            let price = format!("${}.{:02}", price_cents / 100, price_cents % 100);
            let stock = match copies {
                0 => "out of stock".to_owned(),
                copies => format!("{copies} in stock"),
            };
            write!(f, "\n- {title} by {author} ({year}): {price}, {stock}")?;
        }
        Ok(())
    }
}

impl IntoCallToolResult for Catalog {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        let structured = serde_json::to_value(&self)
            .map_err(|error| ToolError::new(format!("the catalog did not serialize: {error}")))?;
        Ok(CallToolResult {
            content: vec![Content::text(self.to_string())],
            structured_content: Some(structured),
            is_error: None,
        })
    }
}
