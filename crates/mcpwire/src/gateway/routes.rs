//! The gateway's routing tables: each name (or URI) shown in front, and the backend and name
//! it stands for. A name is claimed once; a second claim is a collision, named with both.

use crate::wire::fast_map::FastMap;
use std::sync::Mutex;

/// Where a front name leads.
#[derive(Clone, Debug)]
pub(crate) struct Route {
    /// The backend's index.
    pub(crate) backend: usize,
    /// The name (or URI) on the backend.
    pub(crate) name: String,
}

/// The front names of one kind of entry.
#[derive(Default)]
pub(crate) struct Table {
    routes: Mutex<FastMap<String, Route>>,
}

impl Table {
    fn routes(&self) -> std::sync::MutexGuard<'_, FastMap<String, Route>> {
        self.routes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where `front` leads.
    pub(crate) fn route(&self, front: &str) -> Option<Route> {
        self.routes().get(front).cloned()
    }

    /// Claims `front` for `route`; the route that holds it already, when taken.
    pub(crate) fn claim(&self, front: &str, route: Route) -> Result<(), Route> {
        let mut routes = self.routes();
        if let Some(taken) = routes.get(front) {
            return Err(taken.clone());
        }
        routes.insert(front.to_owned(), route);
        Ok(())
    }

    /// Gives up `front` (a claim whose registration failed).
    pub(crate) fn unclaim(&self, front: &str) {
        self.routes().remove(front);
    }

    /// Gives up every name of `backend`; the names given up.
    pub(crate) fn release(&self, backend: usize) -> Vec<String> {
        let mut routes = self.routes();
        let names: Vec<String> = (routes.iter())
            .filter(|(_, route)| route.backend == backend)
            .map(|(name, _)| name.clone())
            .collect();
        for name in &names {
            routes.remove(name);
        }
        names
    }
}
