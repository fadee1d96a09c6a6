//! [`ResolvedValue`]: a resolver's output as the engine holds it.

use std::any::Any;
use std::sync::Arc;

/// A value computed by a resolver, shared by all its consumers within one round.
#[doc(hidden)]
pub type ResolvedValue = Arc<dyn Any + Send + Sync>;
