use mcpwire::prelude::*;

fn plain() -> String {
    String::new()
}

fn main() {
    let _ = McpServer::new("t").prompt(plain);
    let _ = McpServer::new("t").resource(plain);
}
