// An extension method is an async function of the `ExtensionRequest`; this one returns a bare
// string instead of `Result<Value, ErrorObject>`.
use mcpwire::prelude::*;
use mcpwire::extension::ExtensionRequest;
use mcpwire::server::{Extension, Install};

struct Greeter;

impl Extension for Greeter {
    const ID: &'static str = "example.com/greeter";

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        install.method("greeter/hello", |_request: ExtensionRequest| async move { "hello" });
        Ok(())
    }
}

fn main() {
    let _ = McpServer::new("shop").extension(Greeter);
}
