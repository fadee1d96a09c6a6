//! A request's own queue over HTTP ([`Sink::Own`]): what the handler sends before its answer,
//! kept in the request's [`Exchange`] (no allocation of its own) and read by its response.

use crate::context::{HoldsChannel, LazyChannel, LazyLines};
use crate::dispatch::exchange::{Exchange, Sink};
use std::sync::Arc;

impl Sink {
    /// A queue of at most `capacity` lines, made by the request's first one; `closable` when
    /// the handler may end the stream early (a 2025-11-25 request).
    pub(super) fn own(capacity: usize, closable: bool) -> Self {
        Sink::Own {
            channel: LazyChannel::new(capacity),
            closable,
        }
    }
}

impl Exchange {
    /// The receiving end of the request's own queue, which the response reads (one per
    /// exchange). Nothing ever comes through it when the request's lines go to a sink given.
    pub(super) fn lines(self: &Arc<Self>) -> LazyLines {
        LazyLines::of(Arc::clone(self) as Arc<dyn HoldsChannel>)
    }
}

impl HoldsChannel for Exchange {
    fn lazy_channel(&self) -> &LazyChannel {
        /// What a request whose lines go to a sink given holds: no queue of its own.
        static NONE: LazyChannel = LazyChannel::gone();
        match &self.sink {
            Sink::Own { channel, .. } => channel,
            Sink::Given(_) => &NONE,
        }
    }
}
