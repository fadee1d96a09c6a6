//! How many connections the accept loop holds, and from whom.
//!
//! - **In total**, at most [`ConnectionLimits::max`]: beyond it the loop accepts nothing until
//!   a connection ends, and new ones wait in the listener's backlog (the kernel's, not ours).
//! - **Per peer network** (an IPv4 address, an IPv6 /64: what one host is usually given, as
//!   anonymous sessions are counted), at most [`ConnectionLimits::max_per_peer`]: a connection
//!   beyond it is answered `503 Service Unavailable` (`Retry-After: 1`) and closed at once,
//!   before anything of it is read. A trusted proxy's connections count in the total only:
//!   every client behind it shares its address.
//!
//! What a connection may then hold is bounded where it is served: how long its request head
//! and a stalled body may wait ([`ConnectionLimits::header_read_timeout`], in
//! [`super::serve`]), and what its
//! requests make (sessions, streams) by their own limits. A trusted proxy's connections are not
//! timed out: the proxy reads each request's head whole before it forwards it, and closes the
//! connections it keeps idle on its own terms (closing one here would race the proxy's next
//! request on it, which it does not retry for a POST).

use super::caller::network;
use super::proxies::TrustedProxies;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The accept loop's bounds ([`HttpServer::max_connections`] and the settings beside it).
///
/// [`HttpServer::max_connections`]: super::HttpServer::max_connections
#[derive(Clone, Copy, Debug)]
pub(super) struct ConnectionLimits {
    /// The most connections held at once.
    pub(super) max: usize,
    /// The most connections held at once from one peer network (trusted proxies excepted).
    pub(super) max_per_peer: usize,
    /// How long a connection may take to send a request's head, counted from when it waits
    /// for one (so also how long it may stay idle between requests), and how long a request's
    /// body may go without a byte.
    pub(super) header_read_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            max: 1024,
            max_per_peer: 256,
            header_read_timeout: Duration::from_secs(30),
        }
    }
}

/// What a peer over its bound is told before its connection is closed.
pub(super) const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\n\
    content-type: text/plain\r\ncontent-length: 38\r\nconnection: close\r\n\r\n\
    too many connections from this address";

/// Who holds the accept loop's connections: a permit each, out of the total, and a count per
/// peer network.
pub(super) struct Admissions {
    total: Arc<Semaphore>,
    max_per_peer: usize,
    per_peer: Mutex<HashMap<IpAddr, usize>>,
    exempt: TrustedProxies,
}

/// One connection's room, given back when it is dropped (when its connection ends).
pub(super) struct Admitted {
    _permit: OwnedSemaphorePermit,
    /// The network it counts against, unless it comes from a trusted proxy.
    counted: Option<(IpAddr, Arc<Admissions>)>,
}

impl Admitted {
    /// Whether the connection comes from a trusted proxy (is not counted per peer).
    pub(super) fn is_proxied(&self) -> bool {
        self.counted.is_none()
    }
}

impl Admissions {
    /// The bounds `limits` sets, `trusted` proxies counted in the total only.
    pub(super) fn new(limits: &ConnectionLimits, trusted: TrustedProxies) -> Arc<Self> {
        Arc::new(Self {
            total: Arc::new(Semaphore::new(limits.max.max(1))),
            max_per_peer: limits.max_per_peer.max(1),
            per_peer: Mutex::new(HashMap::new()),
            exempt: trusted,
        })
    }

    /// Room for one more connection in the total, once there is some.
    pub(super) async fn room(&self) -> OwnedSemaphorePermit {
        Arc::clone(&self.total)
            .acquire_owned()
            .await
            .expect("the connection semaphore is never closed")
    }

    /// Admits a connection from `peer` into the `room` it was accepted with, unless its network
    /// holds as many as it may (`None`: the room is given back).
    pub(super) fn admit(
        self: &Arc<Self>,
        peer: IpAddr,
        room: OwnedSemaphorePermit,
    ) -> Option<Admitted> {
        if self.exempt.trusts(peer) {
            return Some(Admitted {
                _permit: room,
                counted: None,
            });
        }
        let network = network(peer);
        let mut per_peer = self.per_peer.lock().unwrap_or_else(PoisonError::into_inner);
        let held = per_peer.entry(network).or_insert(0);
        if *held >= self.max_per_peer {
            return None;
        }
        *held += 1;
        Some(Admitted {
            _permit: room,
            counted: Some((network, Arc::clone(self))),
        })
    }

    /// How many connections `peer`'s network holds (tests).
    #[cfg(test)]
    fn held_by(&self, peer: IpAddr) -> usize {
        let per_peer = self.per_peer.lock().unwrap_or_else(PoisonError::into_inner);
        per_peer.get(&network(peer)).copied().unwrap_or(0)
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let Some((network, admissions)) = self.counted.take() else {
            return;
        };
        let mut per_peer = (admissions.per_peer.lock()).unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = per_peer.get_mut(&network) {
            *held -= 1;
            if *held == 0 {
                per_peer.remove(&network);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admissions(max: usize, max_per_peer: usize, trusted: &[&str]) -> Arc<Admissions> {
        let limits = ConnectionLimits {
            max,
            max_per_peer,
            ..ConnectionLimits::default()
        };
        let trusted = TrustedProxies::parse(trusted).unwrap();
        Admissions::new(&limits, trusted)
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[tokio::test]
    async fn a_network_holds_at_most_its_share_and_gets_room_back_as_connections_end() {
        let admissions = admissions(10, 2, &[]);
        let first = admissions.admit(ip("192.0.2.1"), admissions.room().await);
        let second = admissions.admit(ip("192.0.2.1"), admissions.room().await);
        assert!(first.is_some() && second.is_some());
        assert!(
            (admissions.admit(ip("192.0.2.1"), admissions.room().await)).is_none(),
            "a third from one address"
        );
        // One IPv6 host's /64 is one network, whatever the address in it.
        let v6 = admissions.admit(ip("2001:db8::1"), admissions.room().await);
        let v6_again = admissions.admit(ip("2001:db8::ffff:2"), admissions.room().await);
        assert!(v6.is_some() && v6_again.is_some());
        assert!(
            (admissions.admit(ip("2001:db8::3"), admissions.room().await)).is_none(),
            "a third from one /64"
        );
        // Another network has its own share.
        assert!(
            (admissions.admit(ip("198.51.100.7"), admissions.room().await)).is_some(),
            "another address"
        );
        drop(first);
        assert_eq!(admissions.held_by(ip("192.0.2.1")), 1);
        assert!((admissions.admit(ip("192.0.2.1"), admissions.room().await)).is_some());
        drop(second);
        // Refused and ended connections gave their room back: the /64's two are held.
        assert_eq!(admissions.total.available_permits(), 8);
    }

    #[tokio::test]
    async fn a_network_with_nothing_left_is_forgotten() {
        let admissions = admissions(10, 2, &[]);
        let held = admissions.admit(ip("192.0.2.1"), admissions.room().await);
        drop(held);
        let per_peer = admissions.per_peer.lock().unwrap();
        assert!(per_peer.is_empty(), "{per_peer:?}");
    }

    #[tokio::test]
    async fn a_trusted_proxy_counts_in_the_total_only() {
        let admissions = admissions(3, 1, &["127.0.0.1"]);
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(admissions.admit(ip("127.0.0.1"), admissions.room().await));
        }
        assert!(held.iter().all(Option::is_some));
        assert_eq!(admissions.total.available_permits(), 0);
        // The total is reached: no room until one ends.
        let waiting = tokio::time::timeout(Duration::from_millis(50), admissions.room()).await;
        assert!(waiting.is_err(), "room beyond the total");
        held.pop();
        let room = tokio::time::timeout(Duration::from_secs(10), admissions.room()).await;
        assert!(room.is_ok(), "no room after a connection ended");
    }
}
