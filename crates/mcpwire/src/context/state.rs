//! Shared state: values built once at start-up and reachable from every handler.

use std::any::{Any, TypeId};
use std::collections::HashMap;

/// A map from type to one value of that type, filled while the server is built and read-only
/// while it serves (so reads take no lock).
#[derive(Default)]
pub(crate) struct SharedState {
    values: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
}

impl SharedState {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Box::new(value));
    }

    pub(crate) fn insert_value(&mut self, value: SharedValue) {
        self.values.insert(value.type_id, value.value);
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.values
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref())
    }
}

/// One shared value with its type, built before it is stored.
pub(crate) struct SharedValue {
    type_id: TypeId,
    value: Box<dyn Any + Send + Sync>,
}

impl SharedValue {
    pub(crate) fn new<T: Send + Sync + 'static>(value: T) -> Self {
        Self {
            type_id: TypeId::of::<T>(),
            value: Box::new(value),
        }
    }
}
