//! Who sends a request: the principal the application's authentication set (see
//! [`Principal`]), and the peer address when the server knows it. A 2025-11-25 session belongs
//! to its caller: only the principal that opened it may use it, and the table shares its room
//! out per [`Owner`].

use super::proxies::TrustedProxies;
use crate::context::{Grant, Identity, Issuer, Principal};
use axum::extract::ConnectInfo;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The caller of one HTTP request.
#[derive(Clone, Debug, Default)]
pub(super) struct Caller {
    /// Who the application's middleware authenticated, if anyone, as sessions and
    /// `requestState` are bound to: the [`Principal`], with its [`Issuer`] when one is known.
    pub(super) principal: Option<Arc<str>>,
    /// The [`Principal`] and its [`Issuer`] as handlers see them (`Context::principal`).
    pub(super) subject: Option<Identity>,
    /// What its token grants, when the authorization says.
    pub(super) grant: Option<Arc<Grant>>,
    /// The peer's address: known when the server was started by this SDK, or by the
    /// application with `into_make_service_with_connect_info::<SocketAddr>()`.
    pub(super) peer: Option<IpAddr>,
}

/// What the authorization in front of the endpoint decided about a request (`mcpwire::auth`'s
/// guard), as one request extension (`Arc<Admitted>`): made once per verified token and shared
/// by every request that token admits. When present it is the caller, whatever `Principal`,
/// `Issuer` or `Grant` other middleware inserted.
#[derive(Debug)]
#[cfg_attr(not(feature = "auth"), allow(dead_code))]
pub(crate) struct Admitted {
    /// The issuer and subject's binding (sessions, `requestState`, tasks are bound to it).
    pub(crate) principal: Arc<str>,
    /// The subject and its issuer, as handlers see them.
    pub(crate) subject: Identity,
    /// What the token grants.
    pub(crate) grant: Arc<Grant>,
}

/// Whom a session counts against when the session table shares out its room.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Owner {
    /// An authenticated principal.
    Principal(Arc<str>),
    /// Anonymous clients of one network: an IPv4 address, or an IPv6 /64 (what one host is
    /// usually given); `None` when the peer is unknown.
    Anonymous(Option<IpAddr>),
}

impl Caller {
    /// The caller of the request with `parts`: its peer address is the client's as the
    /// `trusted` proxies forward it, when the peer is one of them.
    pub(super) fn of(parts: &http::request::Parts, trusted: &TrustedProxies) -> Self {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| *addr);
        Self::of_peer(parts, peer, trusted)
    }

    /// The caller of the request with `parts`, which came from `peer` (when the server knows
    /// it; else the request's extensions are not looked at for it).
    pub(super) fn of_peer(
        parts: &http::request::Parts,
        peer: Option<SocketAddr>,
        trusted: &TrustedProxies,
    ) -> Self {
        let extensions = &parts.extensions;
        let peer = peer.map(|addr| trusted.client_of(addr.ip(), &parts.headers));
        if let Some(admitted) = extensions.get::<Arc<Admitted>>() {
            return Self {
                principal: Some(Arc::clone(&admitted.principal)),
                subject: Some(admitted.subject.clone()),
                grant: Some(Arc::clone(&admitted.grant)),
                peer,
            };
        }
        let subject = extensions.get::<Principal>().map(|p| p.0.as_str());
        let issuer = extensions.get::<Issuer>();
        let principal = match (subject, issuer) {
            (Some(subject), Some(issuer)) => Some(Arc::from(issuer.binding(subject))),
            (subject, _) => subject.map(Arc::from),
        };
        let identity = subject.map(|subject| match issuer {
            Some(issuer) => Identity::new(subject).with_issuer(issuer.0.as_str()),
            None => Identity::new(subject),
        });
        Self {
            principal,
            subject: identity,
            grant: extensions.get::<Grant>().cloned().map(Arc::new),
            peer,
        }
    }

    /// Whom a session this caller opens belongs to.
    pub(super) fn owner(&self) -> Owner {
        match &self.principal {
            Some(principal) => Owner::Principal(principal.clone()),
            None => Owner::Anonymous(self.peer.map(network)),
        }
    }
}

impl Owner {
    /// The principal that alone may use the session.
    pub(super) fn principal(&self) -> Option<&str> {
        match self {
            Owner::Principal(principal) => Some(principal),
            Owner::Anonymous(_) => None,
        }
    }

    pub(super) fn is_anonymous(&self) -> bool {
        matches!(self, Owner::Anonymous(_))
    }

    /// The network of an anonymous owner whose peer is known, as text: `192.0.2.7`,
    /// `2001:db8:1:2::/64`.
    pub(super) fn network(&self) -> Option<String> {
        match self {
            Owner::Anonymous(Some(IpAddr::V4(v4))) => Some(v4.to_string()),
            Owner::Anonymous(Some(IpAddr::V6(v6))) => Some(format!("{v6}/64")),
            _ => None,
        }
    }
}

/// The network an address stands for: IPv4 as is (IPv4-mapped IPv6 included), IPv6 by /64.
pub(super) fn network(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(prefix))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anonymous(peer: &str) -> Owner {
        Caller {
            principal: None,
            peer: Some(peer.parse().unwrap()),
            ..Caller::default()
        }
        .owner()
    }

    #[test]
    fn anonymous_callers_are_grouped_by_network() {
        assert_eq!(anonymous("10.0.0.1"), anonymous("::ffff:10.0.0.1"));
        assert_ne!(anonymous("10.0.0.1"), anonymous("10.0.0.2"));
        assert_eq!(
            anonymous("2001:db8:1:2::1"),
            anonymous("2001:db8:1:2:ffff::9"),
            "one /64"
        );
        assert_ne!(anonymous("2001:db8:1:2::1"), anonymous("2001:db8:1:3::1"));
    }

    #[test]
    fn a_principal_owns_its_sessions_wherever_it_calls_from() {
        let alice = |peer: &str| Caller {
            principal: Some(Arc::from("alice")),
            peer: Some(peer.parse().unwrap()),
            ..Caller::default()
        };
        assert_eq!(alice("10.0.0.1").owner(), alice("10.9.9.9").owner());
        assert_eq!(alice("10.0.0.1").owner().principal(), Some("alice"));
        assert!(!alice("10.0.0.1").owner().is_anonymous());
        assert_eq!(Caller::default().owner(), Owner::Anonymous(None));
        assert_eq!(Caller::default().owner().network(), None);
        assert_eq!(
            anonymous("::ffff:10.0.0.1").network().as_deref(),
            Some("10.0.0.1")
        );
        assert_eq!(
            anonymous("2001:db8:1:2::9").network().as_deref(),
            Some("2001:db8:1:2::/64")
        );
    }
}
