// A parameter is a tool argument or the `Context`; nobody else implements `FromRequest`.
use mcpwire::resolve::FromRequest;

struct Token;

impl FromRequest for Token {}

fn main() {}
