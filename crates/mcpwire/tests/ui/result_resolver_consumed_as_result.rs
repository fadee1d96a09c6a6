use mcpwire::prelude::*;

#[resolver]
async fn parse(text: String) -> Result<u32, std::num::ParseIntError> {
    text.parse()
}

/// A fallible resolver's consumers get the success value, not the Result.
#[tool]
async fn show(text: String, #[resolve(parse)] value: Result<u32, std::num::ParseIntError>) -> String {
    format!("{text}: {value:?}")
}

fn main() {
    let _ = McpServer::new("t").tool(show);
}
