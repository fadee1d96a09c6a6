use mcpwire::prelude::*;

#[resolver]
async fn copies(title: String) -> u32 {
    title.len() as u32
}

/// The parameter wants a String, the resolver gives a u32.
#[tool]
async fn show(title: String, #[resolve(copies)] copies: String) -> String {
    format!("{title}: {copies}")
}

fn main() {
    let _ = McpServer::new("t").tool(show);
}
