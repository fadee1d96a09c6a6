// `McpServer::extension` takes a type that implements `Extension`, not the settings of one.
use mcpwire::prelude::*;

fn main() {
    let _ = McpServer::new("shop").extension(serde_json::json!({ "skills": {} }));
}
