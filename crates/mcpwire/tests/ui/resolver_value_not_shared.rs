use mcpwire::prelude::*;
use std::rc::Rc;

/// Its value is given to every consumer, across threads: an `Rc` cannot be.
#[resolver]
async fn shelf() -> Rc<String> {
    Rc::new("A1".to_owned())
}

fn main() {}
