//! The gateway's built-in layers, from its command line: a rate limit per caller (shared by a
//! fleet's replicas through Redis), a bound on requests in flight, a time limit per request, and
//! a log line per request.

use crate::cli::Limits;
use mcpwire::McpServer;
use mcpwire::layer::{ConcurrencyLimit, RateLimit, RequestLog, Timeout};
use mcpwire::transport::http::RedisBackend;
use std::time::Duration;

/// `--rate-limit N/PERIOD`: `N` requests per `PERIOD` for each caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests per period (at least one).
    pub requests: u32,
    /// The period (more than zero).
    pub per: Duration,
}

impl std::str::FromStr for Rate {
    type Err = String;

    /// `600/min`, `10/s`, `5000/1h`, `3/30s`: a count, then a period, a unit alone meaning one
    /// of it (`s`, `sec`, `min`, `m`, `h`, `hour`, … as `humantime` reads them).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let usage = || format!("`{text}` is not N/PERIOD, such as 600/min or 10/s");
        let (count, period) = text.split_once('/').ok_or_else(usage)?;
        let requests: u32 = count.trim().parse().map_err(|_| usage())?;
        let period = period.trim();
        let period = match period.starts_with(|c: char| c.is_ascii_digit()) {
            true => period.to_owned(),
            false => format!("1{period}"),
        };
        let per = humantime::parse_duration(&period).map_err(|_| usage())?;
        if requests == 0 || per.is_zero() {
            return Err(format!(
                "`{text}`: the count and the period must be more than zero"
            ));
        }
        Ok(Self { requests, per })
    }
}

/// Adds the layers `limits` asks for to `server`, outermost first: the request log (it times
/// everything below it), the rate limit (in `fleet`'s Redis when the gateway is a replica), the
/// bound on requests in flight, the time limit.
pub fn apply(mut server: McpServer, limits: &Limits, fleet: Option<&RedisBackend>) -> McpServer {
    if limits.log_requests {
        server = server.layer(RequestLog::new());
    }
    if let Some(rate) = limits.rate_limit {
        let mut limit = RateLimit::per_principal(rate.requests, rate.per);
        if let Some(burst) = limits.rate_burst {
            limit = limit.burst(burst);
        }
        if let Some(fleet) = fleet {
            limit = limit.buckets(fleet.rate_limit_buckets("gateway"));
        }
        server = server.layer(limit);
    }
    if let Some(places) = limits.max_in_flight {
        server = server.layer(ConcurrencyLimit::new(places));
    }
    if let Some(after) = limits.request_timeout {
        server = server.layer(Timeout::new(after.into()));
    }
    server
}

#[cfg(test)]
mod tests {
    use super::Rate;
    use std::time::Duration;

    #[test]
    fn rates_read_as_a_count_per_period() {
        let rate = |text: &str| text.parse::<Rate>();
        let of = |requests, seconds| Rate {
            requests,
            per: Duration::from_secs(seconds),
        };
        assert_eq!(rate("600/min"), Ok(of(600, 60)));
        assert_eq!(rate("10/s"), Ok(of(10, 1)));
        assert_eq!(rate("5000/1h"), Ok(of(5000, 3600)));
        assert_eq!(rate("3/30s"), Ok(of(3, 30)));
        assert_eq!(rate(" 7 / hour "), Ok(of(7, 3600)));
        for bad in [
            "",
            "600",
            "x/min",
            "600/",
            "600/fortnights",
            "0/min",
            "5/0s",
            "-1/s",
        ] {
            let error = rate(bad).expect_err(bad);
            assert!(error.contains(&format!("`{bad}`")), "{bad}: {error}");
        }
    }
}
