use mcpwire::prelude::*;

async fn plain(title: String) -> String {
    title
}

fn main() {
    let _ = McpServer::new("t").tool(plain);
}
