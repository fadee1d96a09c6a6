use mcpwire::McpServer;

struct Logging;

fn main() {
    let _ = McpServer::new("demo").layer(Logging);
}
