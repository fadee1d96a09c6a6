//! [`FastMap`]: a `HashMap` hashed with foldhash instead of SipHash, for the maps a call looks
//! something up in on its way (its tool by name, its pending entry by id, a shared value by
//! type). foldhash costs a fraction of SipHash on short keys, and is seeded at random per
//! process, as std's `RandomState` is: a peer that chooses keys cannot aim them at one bucket.

use std::collections::HashMap;

/// A `HashMap` hashed with foldhash, seeded at random per process.
pub(crate) type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
