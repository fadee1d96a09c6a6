//! A resolver returning an alias of `Result<T, ToolError>` gives its consumers `T`.
use mcpwire::prelude::*;

type Fallible<T> = Result<T, ToolError>;

#[resolver]
async fn parse(text: String) -> Fallible<u32> {
    text.parse().map_err(|_| ToolError::new("not a number"))
}

/// Doubles a number given as text.
#[tool]
async fn double(text: String, #[resolve(parse)] value: u32) -> String {
    format!("{text} doubled is {}", value * 2)
}

fn main() {
    McpServer::new("t").tool(double).unwrap();
}
