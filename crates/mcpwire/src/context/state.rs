//! Shared state: values built once at start-up and reachable from every handler.

use crate::wire::fast_map::FastMap;
use std::any::{Any, TypeId};

/// A map from type to one value of that type, filled while the server is built and read-only
/// while it serves (so reads take no lock).
#[derive(Default)]
pub(crate) struct SharedState {
    values: FastMap<TypeId, Box<dyn Any + Send + Sync>>,
}

impl SharedState {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Box::new(value));
    }

    /// Takes the values of `other` that this state has no value of the type of; `false` (and
    /// nothing taken) when both hold a value of one type.
    pub(crate) fn absorb(&mut self, other: SharedState) -> bool {
        if other
            .values
            .keys()
            .any(|type_id| self.values.contains_key(type_id))
        {
            return false;
        }
        self.values.extend(other.values);
        true
    }

    /// Takes the value of type `T` out.
    pub(crate) fn take<T: Send + Sync + 'static>(&mut self) -> Option<T> {
        let value = self.values.remove(&TypeId::of::<T>())?;
        value.downcast().ok().map(|value| *value)
    }

    /// The value of type `T`, to change before serving.
    pub(crate) fn get_mut<T: Send + Sync + 'static>(&mut self) -> Option<&mut T> {
        self.values
            .get_mut(&TypeId::of::<T>())
            .and_then(|v| v.downcast_mut())
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
