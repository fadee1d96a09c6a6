use mcpwire::prelude::*;

async fn plain(title: String) -> String {
    title
}

/// A prompt, not a tool.
#[prompt]
async fn greeting(who: String) -> String {
    format!("Greet {who}.")
}

/// A type, where a function is expected.
struct Search;

fn main() {
    let _ = McpServer::new("t").tool(plain);
    let _ = McpServer::new("t").tool(greeting);
    let _ = McpServer::new("t").tool(Search);
    let _ = McpServer::new("t").catalog().add_tool(plain);
}
