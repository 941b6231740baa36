//! The admission decision a WebSocket server takes on the HTTP upgrade request, before the
//! upgrade completes: the `Host` and `Origin` allow-lists, then the token, read where the
//! TypeScript WebSocket transport reads it (the `token` query parameter, else the first
//! `Sec-WebSocket-Protocol` value).

use alloc::borrow::Cow;

use super::credential::admission_admits;
use crate::transport::admission::TransportAdmission;

/// Host names that are always loopback, compared without their port and in any ASCII case.
const LOOPBACK_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "::1", "[::1]"];

/// The parts of an HTTP upgrade request that admission reads, borrowed from the carrier's
/// parsed request. Build it with [`UpgradeRequest::new`] and the setters for the headers the
/// request carried; a header the request did not carry stays absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpgradeRequest<'a> {
    target: &'a str,
    host: Option<&'a str>,
    origin: Option<&'a str>,
    subprotocols: Option<&'a str>,
}

impl<'a> UpgradeRequest<'a> {
    /// A request for `target`, the request-target of the request line (`/ws?token=…`), with no
    /// headers yet.
    #[must_use]
    pub const fn new(target: &'a str) -> Self {
        Self {
            target,
            host: None,
            origin: None,
            subprotocols: None,
        }
    }

    /// The `Host` header's value, port included as sent.
    #[must_use]
    pub const fn host(mut self, host: &'a str) -> Self {
        self.host = Some(host);
        self
    }

    /// The `Origin` header's value; browsers always send it, other clients usually do not.
    #[must_use]
    pub const fn origin(mut self, origin: &'a str) -> Self {
        self.origin = Some(origin);
        self
    }

    /// The `Sec-WebSocket-Protocol` header's value: the offered subprotocols, comma-separated.
    #[must_use]
    pub const fn subprotocols(mut self, subprotocols: &'a str) -> Self {
        self.subprotocols = Some(subprotocols);
        self
    }

    /// The token the request presents, where the TypeScript WebSocket transport looks: the
    /// first `token` query parameter when it is not empty ([`query_token`]), else the first
    /// offered subprotocol ([`subprotocol_token`]). `Authorization` is not read here: the
    /// reference ignores it (use [`bearer_credential`](super::bearer_credential) for carriers
    /// that take it).
    #[must_use]
    pub fn presented_token(&self) -> Option<Cow<'a, str>> {
        query_token(self.target).or_else(|| {
            self.subprotocols
                .and_then(subprotocol_token)
                .map(Cow::Borrowed)
        })
    }
}

/// Which `Host` and `Origin` values a server admits besides loopback ones: exact host names
/// (without a port) and exact origins (`https://app.example`). The default admits loopback only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpgradeAllowList<'a> {
    hosts: &'a [&'a str],
    origins: &'a [&'a str],
}

impl<'a> UpgradeAllowList<'a> {
    /// Loopback only: `localhost`, `127.0.0.1` and `[::1]`, on any port.
    #[must_use]
    pub const fn loopback() -> Self {
        Self {
            hosts: &[],
            origins: &[],
        }
    }

    /// Also admits these host names (compared without the port, in any ASCII case).
    #[must_use]
    pub const fn hosts(mut self, hosts: &'a [&'a str]) -> Self {
        self.hosts = hosts;
        self
    }

    /// Also admits these origins (compared exactly, as the browser sends them).
    #[must_use]
    pub const fn origins(mut self, origins: &'a [&'a str]) -> Self {
        self.origins = origins;
        self
    }

    /// True when `host` (a `Host` header value) names a loopback host or an allowed one. A
    /// request without `Host` is refused: every HTTP/1.1 client sends one, and checking it is
    /// what closes DNS rebinding.
    #[must_use]
    pub fn admits_host(&self, host: Option<&str>) -> bool {
        host.and_then(host_name)
            .is_some_and(|name| self.is_loopback_or_allowed_host(name))
    }

    /// True when `origin` (an `Origin` header value) is absent (a client that is not a browser;
    /// the token is its gate), allowed exactly, or names a loopback host. An origin that does
    /// not parse (`null` included) is refused.
    #[must_use]
    pub fn admits_origin(&self, origin: Option<&str>) -> bool {
        let Some(origin) = origin else {
            return true;
        };
        self.origins.contains(&origin) || origin_host(origin).is_some_and(is_loopback)
    }

    fn is_loopback_or_allowed_host(&self, name: &str) -> bool {
        is_loopback(name)
            || self
                .hosts
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(name))
    }
}

/// What a server answers when [`admit_upgrade`] lets a request in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpgradeAccepted<'a> {
    subprotocol: Option<&'a str>,
}

impl<'a> UpgradeAccepted<'a> {
    /// The subprotocol to answer in `Sec-WebSocket-Protocol`: the first offered one that is not
    /// the presented token, or `None` (answer no subprotocol). The token is never echoed back. A
    /// browser that presents its token as a subprotocol should offer a named protocol after it
    /// (`new WebSocket(url, [token, "agent"])`): browsers fail a connection whose offered
    /// protocols got no answer.
    #[must_use]
    pub const fn subprotocol(&self) -> Option<&'a str> {
        self.subprotocol
    }
}

/// Why [`admit_upgrade`] refused a request, with the HTTP status and reason phrase to answer
/// instead of upgrading. None of them holds the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum UpgradeRefusal {
    /// The `Host` is missing, or neither loopback nor allowed.
    #[error("Forbidden host")]
    ForbiddenHost,
    /// The `Origin` is present and neither loopback nor allowed, or does not parse.
    #[error("Forbidden origin")]
    ForbiddenOrigin,
    /// The admission takes a token and the request presented none, or another one.
    #[error("Unauthorized")]
    Unauthorized,
}

impl UpgradeRefusal {
    /// The HTTP status to answer: 403 for a host or origin, 401 for a token.
    #[must_use]
    pub const fn status(self) -> u16 {
        match self {
            Self::ForbiddenHost | Self::ForbiddenOrigin => 403,
            Self::Unauthorized => 401,
        }
    }
}

/// The admission decision on an upgrade request, taken before the upgrade completes so a refused
/// peer gets an HTTP status (401 or 403) rather than an upgrade and a close. In order: the
/// `Host`, the `Origin`, then the token ([`UpgradeRequest::presented_token`], compared in
/// constant time by [`admission_admits`]). An open admission skips only the token.
///
/// # Errors
///
/// The first check that fails, as an [`UpgradeRefusal`].
pub fn admit_upgrade<'a>(
    admission: &TransportAdmission,
    request: &UpgradeRequest<'a>,
    allow: &UpgradeAllowList<'_>,
) -> Result<UpgradeAccepted<'a>, UpgradeRefusal> {
    if !allow.admits_host(request.host) {
        return Err(UpgradeRefusal::ForbiddenHost);
    }
    if !allow.admits_origin(request.origin) {
        return Err(UpgradeRefusal::ForbiddenOrigin);
    }
    let presented = request.presented_token();
    if !admission_admits(admission, presented.as_deref()) {
        return Err(UpgradeRefusal::Unauthorized);
    }
    let subprotocol = request.subprotocols.and_then(|offered| {
        offered
            .split(',')
            .map(str::trim)
            .find(|protocol| !protocol.is_empty() && Some(*protocol) != presented.as_deref())
    });
    Ok(UpgradeAccepted { subprotocol })
}

/// The first `token` parameter of `target`'s query, decoded as a URL query is
/// (`application/x-www-form-urlencoded`, by [`form_urlencoded`]: `+` is a space, `%XX` a byte, a
/// malformed escape kept as written, bytes that are not UTF-8 replaced by U+FFFD). `None` when
/// there is no query, no `token` parameter, or the first one is empty.
#[must_use]
pub fn query_token(target: &str) -> Option<Cow<'_, str>> {
    let target = target.split_once('#').map_or(target, |(target, _)| target);
    let query = target.split_once('?')?.1;
    form_urlencoded::parse(query.as_bytes())
        .find(|(name, _)| name == "token")
        .map(|(_, value)| value)
        .filter(|value| !value.is_empty())
}

/// The first offered subprotocol of a `Sec-WebSocket-Protocol` value, trimmed; `None` when it
/// is empty.
#[must_use]
pub fn subprotocol_token(header: &str) -> Option<&str> {
    header
        .split(',')
        .next()
        .map(str::trim)
        .filter(|token| !token.is_empty())
}

/// A `Host` value without its port: `[::1]:7070` is `[::1]`, `localhost:7070` is `localhost`.
/// `None` when empty or an unclosed bracket.
fn host_name(host: &str) -> Option<&str> {
    let name = if host.starts_with('[') {
        &host[..=host.find(']')?]
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    (!name.is_empty()).then_some(name)
}

/// The host of an origin (`scheme://host[:port]`), or `None` when it does not parse as one.
fn origin_host(origin: &str) -> Option<&str> {
    let (scheme, rest) = origin.split_once("://")?;
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    scheme_ok.then(|| host_name(authority)).flatten()
}

fn is_loopback(name: &str) -> bool {
    LOOPBACK_HOSTS
        .iter()
        .any(|loopback| loopback.eq_ignore_ascii_case(name))
}
