//! Trusted proxies: behind a load balancer every request comes from the balancer's address, so
//! anonymous 2025-11-25 sessions would all count as one network. When the peer is a configured
//! trusted proxy, the client's address is taken from the one forwarding header the operator
//! chose ([`ForwardingHeader`]: `X-Forwarded-For` by default, or `Forwarded`, RFC 7239): the
//! right-most address that is not itself a trusted proxy (the one the nearest trusted proxy saw).
//! The other header is never read, not even as a fallback: a balancer sets or appends one of
//! them, and passes the other through from the client as it came. From any other peer both are
//! ignored: anyone can send them.

use http::HeaderMap;
use ipnet::IpNet;
use std::net::IpAddr;

/// The proxies whose forwarding header is believed, and which header that is.
#[derive(Clone, Debug, Default)]
pub(super) struct TrustedProxies {
    networks: Vec<IpNet>,
    header: ForwardingHeader,
}

/// The one header a trusted proxy names the client in
/// ([`HttpServer::forwarding_header`](super::HttpServer::forwarding_header)).
///
/// Only the header the balancer itself writes can be believed: it appends the address it saw to
/// that header, whatever the client put there before; any other header the client sent comes
/// through untouched. nginx (`proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`) and
/// HAProxy (`option forwardfor`) write `X-Forwarded-For`, the default.
///
/// # Examples
///
/// ```
/// use mcpwire::McpServer;
/// use mcpwire::transport::http::ForwardingHeader;
///
/// // Behind a proxy that appends `for=` to `Forwarded` (RFC 7239) instead.
/// let server = McpServer::new("demo")
///     .http()
///     .trusted_proxies(["10.0.0.0/8"])
///     .forwarding_header(ForwardingHeader::Forwarded);
/// # drop(server);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ForwardingHeader {
    /// `X-Forwarded-For: client, proxy1, …` (the default).
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client, for=proxy1` (RFC 7239).
    Forwarded,
}

impl ForwardingHeader {
    /// Reads the header's name: `x-forwarded-for` or `forwarded` (any case); `None` for
    /// anything else.
    ///
    /// ```
    /// use mcpwire::transport::http::ForwardingHeader;
    ///
    /// assert_eq!(ForwardingHeader::from_name("Forwarded"), Some(ForwardingHeader::Forwarded));
    /// assert_eq!(ForwardingHeader::from_name("x-real-ip"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("x-forwarded-for") {
            Some(Self::XForwardedFor)
        } else if name.eq_ignore_ascii_case("forwarded") {
            Some(Self::Forwarded)
        } else {
            None
        }
    }
}

/// An entry that is neither an address nor a network.
#[derive(Debug)]
pub(super) struct NotANetwork(pub(super) String);

impl TrustedProxies {
    /// Parses `entries`: addresses (`10.0.0.5`, `::1`) and networks (`10.0.0.0/8`, `fd00::/8`).
    pub(super) fn parse<I, S>(entries: I) -> Result<Self, NotANetwork>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let networks = entries
            .into_iter()
            .map(|entry| {
                let entry = entry.as_ref().trim();
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| NotANetwork(entry.to_owned()))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            networks,
            header: ForwardingHeader::default(),
        })
    }

    /// Names the client from `header` alone.
    pub(super) fn reading(mut self, header: ForwardingHeader) -> Self {
        self.header = header;
        self
    }

    /// The header the client is named in.
    pub(super) fn header(&self) -> ForwardingHeader {
        self.header
    }

    /// Whether `address` is one of the trusted proxies.
    pub(super) fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.networks
            .iter()
            .any(|network| network.contains(&address))
    }

    /// The client's address for a request from `peer` carrying `headers`.
    pub(super) fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let chain = match self.header {
            ForwardingHeader::XForwardedFor => x_forwarded_for(headers),
            ForwardingHeader::Forwarded => forwarded_for(headers),
        };
        // Right to left: the addresses our own proxies added, then the first one they did not.
        chain
            .into_iter()
            .rev()
            .find(|address| !self.trusts(*address))
            .unwrap_or(peer)
    }
}

/// The `for=` addresses of every `Forwarded` header, in order (unparsable or obfuscated ones
/// left out: `for=unknown`, `for=_hidden`).
fn forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    headers
        .get_all(http::header::FORWARDED)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .flat_map(|element| element.split(';'))
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            name.trim()
                .eq_ignore_ascii_case("for")
                .then(|| node_address(value.trim().trim_matches('"')))?
        })
        .collect()
}

/// The addresses of every `X-Forwarded-For` header, in order.
fn x_forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|node| node_address(node.trim()))
        .collect()
}

/// The address of a node as proxies write it: `192.0.2.1`, `192.0.2.1:8080`, `[2001:db8::1]`,
/// `[2001:db8::1]:8080`, `2001:db8::1`.
fn node_address(node: &str) -> Option<IpAddr> {
    if let Ok(address) = node.parse::<IpAddr>() {
        return Some(address);
    }
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    let (host, _port) = node.rsplit_once(':')?;
    host.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_peer_that_is_no_trusted_proxy_is_the_client_whatever_it_says() {
        let proxies = TrustedProxies::parse(["10.0.0.0/8"]).unwrap();
        let claims = headers(&[
            ("x-forwarded-for", "203.0.113.7"),
            ("forwarded", "for=198.51.100.1"),
        ]);
        assert_eq!(
            proxies.client_of(ip("192.0.2.50"), &claims),
            ip("192.0.2.50")
        );
        let none = TrustedProxies::default();
        assert_eq!(none.client_of(ip("10.0.0.1"), &claims), ip("10.0.0.1"));
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_address_is_the_client() {
        let proxies = TrustedProxies::parse(["10.0.0.0/8", "127.0.0.1"]).unwrap();
        // A spoofed first entry, then the client, then our own inner proxy.
        let chain = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.7, 10.1.1.1")]);
        assert_eq!(
            proxies.client_of(ip("127.0.0.1"), &chain),
            ip("203.0.113.7")
        );
        let split = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-for", "203.0.113.9"),
        ]);
        assert_eq!(proxies.client_of(ip("10.0.0.2"), &split), ip("203.0.113.9"));
        // Only trusted addresses, or nothing: the peer itself.
        let inner = headers(&[("x-forwarded-for", "10.2.2.2")]);
        assert_eq!(proxies.client_of(ip("127.0.0.1"), &inner), ip("127.0.0.1"));
        assert_eq!(
            proxies.client_of(ip("127.0.0.1"), &HeaderMap::new()),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn only_the_chosen_header_is_read_never_the_other_as_a_fallback() {
        let proxies = TrustedProxies::parse(["127.0.0.1"]).unwrap();
        // The balancer appended to X-Forwarded-For; the client's own Forwarded came through.
        let spoofed = headers(&[
            ("forwarded", "for=192.0.2.99"),
            ("x-forwarded-for", "203.0.113.7"),
        ]);
        assert_eq!(
            proxies.client_of(ip("127.0.0.1"), &spoofed),
            ip("203.0.113.7")
        );
        let only_forwarded = headers(&[("forwarded", "for=192.0.2.99")]);
        assert_eq!(
            proxies.client_of(ip("127.0.0.1"), &only_forwarded),
            ip("127.0.0.1")
        );
        let rfc = proxies.clone().reading(ForwardingHeader::Forwarded);
        assert_eq!(rfc.client_of(ip("127.0.0.1"), &spoofed), ip("192.0.2.99"));
        let only_x = headers(&[("x-forwarded-for", "203.0.113.7")]);
        assert_eq!(rfc.client_of(ip("127.0.0.1"), &only_x), ip("127.0.0.1"));
    }

    #[test]
    fn forwarded_reads_every_node_form() {
        let proxies = TrustedProxies::parse(["::1", "127.0.0.1"])
            .unwrap()
            .reading(ForwardingHeader::Forwarded);
        let both = headers(&[
            (
                "forwarded",
                r#"for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711""#,
            ),
            ("x-forwarded-for", "198.51.100.1"),
        ]);
        assert_eq!(proxies.client_of(ip("::1"), &both), ip("2001:db8:cafe::17"));
        let ported = headers(&[("forwarded", "For=\"192.0.2.43:47011\", for=unknown")]);
        assert_eq!(
            proxies.client_of(ip("::ffff:127.0.0.1"), &ported),
            ip("192.0.2.43")
        );
    }

    #[test]
    fn entries_are_addresses_or_networks() {
        assert!(TrustedProxies::parse(["10.0.0.1", "fd00::/8", " 192.168.0.0/16 "]).is_ok());
        let bad = TrustedProxies::parse(["10.0.0.1", "proxy.internal"]).unwrap_err();
        assert_eq!(bad.0, "proxy.internal");
    }
}
