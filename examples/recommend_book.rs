//! Asking the client's LLM: `suggest_title` returns a `Sample`, and the tool receives the
//! client's `CreateMessageResult`.
//!
//! Run: `cargo run --example recommend_book` (stdio), or `-- --http 127.0.0.1:8000` for HTTP.

mod support;

use mcpwire::prelude::*;
use support::ServeFromArgs;

#[resolver]
fn suggest_title(genre: String) -> Sample {
    let prompt = format!("Suggest one {genre} book title. Answer with the title only.");
    Sample::prompt(prompt, 50)
}

/// Recommend a book in the given genre.
#[tool]
async fn recommend_book(
    genre: String,
    #[resolve(suggest_title)] suggestion: CreateMessageResult,
) -> String {
    let title = suggestion.content.text().unwrap_or("the classics");
    format!("Today's {genre} pick: {title}")
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    McpServer::new("Bookshop")
        .tool(recommend_book)?
        .serve_from_args()
        .await
}
