//! The admission decision a WebSocket server takes on the HTTP upgrade request, before the
//! upgrade completes: the `Host` and `Origin` allow-lists, then the token, read where the
//! TypeScript WebSocket transport reads it (the `token` query parameter, else the first
//! `Sec-WebSocket-Protocol` value).

use alloc::borrow::Cow;
use alloc::string::String;

use super::credential::admission_admits;
use crate::transport::admission::TransportAdmission;

/// Host names that are always loopback, compared without their port and in any ASCII case.
const LOOPBACK_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "::1", "[::1]"];

/// The parts of an HTTP upgrade request that admission reads, borrowed from the carrier's
/// parsed request. Build it with [`UpgradeRequest::new`], then either hand it every header line
/// as the carrier parsed it ([`headers`](Self::headers) or [`header`](Self::header), which read
/// raw bytes and turn a value that is not visible ASCII into a refusal) or set the three headers
/// admission reads as text ([`host`](Self::host), [`origin`](Self::origin),
/// [`subprotocols`](Self::subprotocols)). A header the request did not carry stays absent.
///
/// Its `Debug` leaves out the query and the offered subprotocols: they may hold the token.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct UpgradeRequest<'a> {
    target: &'a str,
    host: Field<'a>,
    origin: Field<'a>,
    subprotocols: Field<'a>,
}

/// One header as admission sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Field<'a> {
    /// The request did not carry it.
    #[default]
    Absent,
    /// One line, its value visible ASCII.
    Text(&'a str),
    /// A value that is not visible ASCII, or a second line of a header read from one line only:
    /// present, and never read as absent.
    Unreadable,
}

impl<'a> Field<'a> {
    /// The field after one more line of its header, valued `value`.
    fn and_line(self, value: &'a [u8]) -> Self {
        match (self, visible_ascii(value)) {
            (Self::Absent, Some(text)) => Self::Text(text),
            _ => Self::Unreadable,
        }
    }
}

/// `value` as text when every byte is visible ASCII or a tab (what `http`'s `HeaderValue::to_str`
/// accepts); `None` otherwise.
fn visible_ascii(value: &[u8]) -> Option<&str> {
    value
        .iter()
        .all(|&byte| byte == b'\t' || (0x20..0x7f).contains(&byte))
        .then(|| core::str::from_utf8(value).ok())
        .flatten()
}

impl core::fmt::Debug for UpgradeRequest<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let path = self.target.split(['?', '#']).next().unwrap_or_default();
        let redacted = match self.subprotocols {
            Field::Text(_) => Field::Text("<redacted>"),
            other => other,
        };
        f.debug_struct("UpgradeRequest")
            .field("path", &path)
            .field("host", &self.host)
            .field("origin", &self.origin)
            .field("subprotocols", &redacted)
            .finish_non_exhaustive()
    }
}

impl<'a> UpgradeRequest<'a> {
    /// A request for `target`, the request-target of the request line (`/ws?token=…`), with no
    /// headers yet.
    #[must_use]
    pub const fn new(target: &'a str) -> Self {
        Self {
            target,
            host: Field::Absent,
            origin: Field::Absent,
            subprotocols: Field::Absent,
        }
    }

    /// The `Host` header's value, port included as sent.
    #[must_use]
    pub const fn host(mut self, host: &'a str) -> Self {
        self.host = Field::Text(host);
        self
    }

    /// The `Origin` header's value; browsers always send it, other clients usually do not.
    #[must_use]
    pub const fn origin(mut self, origin: &'a str) -> Self {
        self.origin = Field::Text(origin);
        self
    }

    /// The `Sec-WebSocket-Protocol` header's value: the offered subprotocols, comma-separated.
    #[must_use]
    pub const fn subprotocols(mut self, subprotocols: &'a str) -> Self {
        self.subprotocols = Field::Text(subprotocols);
        self
    }

    /// One header line as the carrier parsed it: `name` in any ASCII case, `value` its raw
    /// bytes. `Host`, `Origin` and `Sec-WebSocket-Protocol` are kept; every other name is
    /// ignored. A value that is not visible ASCII (a byte outside `0x20..=0x7E` other than tab),
    /// or a second line of one of the three, is kept as present but unreadable, and
    /// [`admit_upgrade`] refuses it (`ForbiddenHost`, `ForbiddenOrigin`, `InvalidSubprotocols`)
    /// instead of reading it as absent. Browsers send all three as one line of ASCII.
    #[must_use]
    pub fn header(mut self, name: &str, value: &'a [u8]) -> Self {
        let field = if name.eq_ignore_ascii_case("host") {
            &mut self.host
        } else if name.eq_ignore_ascii_case("origin") {
            &mut self.origin
        } else if name.eq_ignore_ascii_case("sec-websocket-protocol") {
            &mut self.subprotocols
        } else {
            return self;
        };
        *field = field.and_line(value);
        self
    }

    /// Every header line of the request, in order, each as [`header`](Self::header) takes it:
    /// the carrier's parsed header map handed over whole, so no header is read as absent
    /// because it was not text.
    #[must_use]
    pub fn headers<N, I>(self, headers: I) -> Self
    where
        N: AsRef<str>,
        I: IntoIterator<Item = (N, &'a [u8])>,
    {
        headers.into_iter().fold(self, |request, (name, value)| {
            request.header(name.as_ref(), value)
        })
    }

    /// The token the request presents, where the TypeScript WebSocket transport looks: the
    /// first `token` query parameter when it is not empty ([`query_token`]), else the first
    /// offered subprotocol ([`subprotocol_token`]). `Authorization` is not read here: the
    /// reference ignores it (use [`bearer_credential`](super::bearer_credential) for carriers
    /// that take it).
    #[must_use]
    pub fn presented_token(&self) -> Option<Cow<'a, str>> {
        query_token(self.target).or_else(|| match self.subprotocols {
            Field::Text(offered) => subprotocol_token(offered).map(Cow::Borrowed),
            Field::Absent | Field::Unreadable => None,
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
    /// A `Sec-WebSocket-Protocol` header given to [`UpgradeRequest::header`] was not visible
    /// ASCII, or came in more than one line. The TypeScript transport's `ws` server answers a
    /// header it cannot parse with this status and words, before any admission check.
    #[error("Invalid Sec-WebSocket-Protocol header")]
    InvalidSubprotocols,
    /// The admission takes a token and the request presented none, or another one.
    #[error("Unauthorized")]
    Unauthorized,
}

impl UpgradeRefusal {
    /// The HTTP status to answer: 403 for a host or origin, 400 for an unreadable subprotocol
    /// header, 401 for a token.
    #[must_use]
    pub const fn status(self) -> u16 {
        match self {
            Self::ForbiddenHost | Self::ForbiddenOrigin => 403,
            Self::InvalidSubprotocols => 400,
            Self::Unauthorized => 401,
        }
    }
}

/// The admission decision on an upgrade request, taken before the upgrade completes so a refused
/// peer gets an HTTP status (401, 403 or 400) rather than an upgrade and a close. In order: the
/// `Host`, the `Origin`, a `Sec-WebSocket-Protocol` header that could not be read, then the token
/// ([`UpgradeRequest::presented_token`], compared in constant time by [`admission_admits`]). An
/// open admission skips only the token.
///
/// # Example
///
/// A carrier hands over the request-target (path and query, as `http::Uri::path_and_query`
/// gives it) and every header line as raw bytes; with tokio-tungstenite this runs inside the
/// `accept_hdr_async` callback, which answers a refusal's status instead of upgrading (the
/// `ws_carrier` example in `hosted/examples/` does exactly that). Plain strings stand in for
/// the `http::Request` here. The `GET` method and the WebSocket headers themselves are the
/// WebSocket library's to check.
///
/// ```
/// use agent_interface::runtime::transport::admission::{
///     TransportAdmissionConfig, UpgradeAllowList, UpgradeRefusal, UpgradeRequest, admit_upgrade,
///     resolve_stated_admission,
/// };
///
/// let config = TransportAdmissionConfig { token: Some("s3cret".into()), ..Default::default() };
/// let admission = resolve_stated_admission(config)?;
/// let allow = UpgradeAllowList::loopback().origins(&["https://app.example"]);
///
/// // `request.uri().path_and_query()` and `request.headers().iter()`, name and bytes.
/// let target = "/ws";
/// let headers: [(&str, &[u8]); 4] = [
///     ("host", b"127.0.0.1:7070"),
///     ("origin", b"https://app.example"),
///     ("sec-websocket-protocol", b"s3cret, agent.v1"),
///     ("sec-websocket-version", b"13"),
/// ];
/// let request = UpgradeRequest::new(target).headers(headers);
/// let accepted = admit_upgrade(&admission, &request, &allow)?;
/// // Answer `Sec-WebSocket-Protocol: agent.v1`: the token is never echoed.
/// assert_eq!(accepted.subprotocol(), Some("agent.v1"));
///
/// // An `Origin` that is not ASCII is refused, never read as absent.
/// let foreign = request.header("origin", "https://\u{e9}vil.example".as_bytes());
/// let refusal = admit_upgrade(&admission, &foreign, &allow).unwrap_err();
/// assert_eq!((refusal, refusal.status()), (UpgradeRefusal::ForbiddenOrigin, 403));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
///
/// # Errors
///
/// The first check that fails, as an [`UpgradeRefusal`].
pub fn admit_upgrade<'a>(
    admission: &TransportAdmission,
    request: &UpgradeRequest<'a>,
    allow: &UpgradeAllowList<'_>,
) -> Result<UpgradeAccepted<'a>, UpgradeRefusal> {
    let host = match request.host {
        Field::Text(host) => allow.admits_host(Some(host)),
        Field::Absent | Field::Unreadable => false,
    };
    if !host {
        return Err(UpgradeRefusal::ForbiddenHost);
    }
    let origin = match request.origin {
        Field::Absent => allow.admits_origin(None),
        Field::Text(origin) => allow.admits_origin(Some(origin)),
        Field::Unreadable => false,
    };
    if !origin {
        return Err(UpgradeRefusal::ForbiddenOrigin);
    }
    let offered = match request.subprotocols {
        Field::Absent => None,
        Field::Text(offered) => Some(offered),
        Field::Unreadable => return Err(UpgradeRefusal::InvalidSubprotocols),
    };
    let presented = request.presented_token();
    if !admission_admits(admission, presented.as_deref()) {
        return Err(UpgradeRefusal::Unauthorized);
    }
    let subprotocol = offered.and_then(|offered| {
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

/// Why [`url_with_token`] or [`token_subprotocols`] refused to present a token: each is a
/// presentation the server would not read back as that token. None of them holds the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum TokenPresentationError {
    /// The token is empty: the server reads an empty token as none.
    #[error("the token is empty")]
    EmptyToken,
    /// The URL's query already has a `token` parameter, and the server reads the first one.
    #[error("the URL already has a token parameter")]
    UrlHasToken,
    /// The token is not an HTTP token (RFC 9110 `tchar`s only), so it cannot be offered as a
    /// subprotocol: a browser's `WebSocket` throws, the TypeScript transport's `ws` server
    /// answers 400, and a comma or space would split it. Present it with [`url_with_token`].
    #[error("the token cannot be offered as a subprotocol")]
    TokenNotSubprotocol,
    /// The named subprotocol is not an HTTP token.
    #[error("the named subprotocol is not an HTTP token")]
    NamedNotSubprotocol,
    /// The named subprotocol is the token: the server never answers with the token, so a
    /// browser would fail the connection for an offer that got no answer.
    #[error("the named subprotocol is the token")]
    NamedIsToken,
}

/// `url` (a `ws://` URL or a request-target such as `/ws`) with `token` added to its query as
/// `token=…`, before any fragment, encoded as `URLSearchParams` writes it
/// (`application/x-www-form-urlencoded`, by [`form_urlencoded`]: a space is `+`, every byte
/// outside `A-Z a-z 0-9 * - . _` is `%XX`). [`query_token`] reads the very token back, whatever
/// characters it holds.
///
/// ```
/// use agent_interface::runtime::transport::admission::{query_token, url_with_token};
///
/// let url = url_with_token("ws://127.0.0.1:7070/ws", "a&b c/é")?;
/// assert_eq!(url, "ws://127.0.0.1:7070/ws?token=a%26b+c%2F%C3%A9");
/// assert_eq!(query_token(&url).as_deref(), Some("a&b c/é"));
/// assert_eq!(url_with_token("/ws?v=1#top", "t")?, "/ws?v=1&token=t#top");
/// # Ok::<(), agent_interface::runtime::transport::admission::TokenPresentationError>(())
/// ```
///
/// # Errors
///
/// [`EmptyToken`](TokenPresentationError::EmptyToken) for an empty token;
/// [`UrlHasToken`](TokenPresentationError::UrlHasToken) when the query already has a `token`
/// parameter (even an empty one: the server would read that one).
pub fn url_with_token(url: &str, token: &str) -> Result<String, TokenPresentationError> {
    if token.is_empty() {
        return Err(TokenPresentationError::EmptyToken);
    }
    let (base, fragment) = url
        .split_once('#')
        .map_or((url, None), |(base, fragment)| (base, Some(fragment)));
    let separator = match base.split_once('?') {
        None => "?",
        Some((_, query)) => {
            if form_urlencoded::parse(query.as_bytes()).any(|(name, _)| name == "token") {
                return Err(TokenPresentationError::UrlHasToken);
            }
            if query.is_empty() || query.ends_with('&') {
                ""
            } else {
                "&"
            }
        }
    };
    let mut out = String::with_capacity(url.len() + token.len() * 3 + 8);
    out.push_str(base);
    out.push_str(separator);
    out.push_str("token=");
    out.extend(form_urlencoded::byte_serialize(token.as_bytes()));
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    Ok(out)
}

/// The subprotocols a client offers to present `token` the way a browser can:
/// `[token, named]`, the token first ([`subprotocol_token`] reads it) and a named protocol after
/// it, which [`admit_upgrade`] answers in its place (the token is never echoed, and a browser
/// fails a connection whose offer got no answer). Pass the pair to `new WebSocket(url, …)`, or
/// join it with `", "` for a `Sec-WebSocket-Protocol` header.
///
/// ```
/// use agent_interface::runtime::transport::admission::{
///     TokenPresentationError, subprotocol_token, token_subprotocols,
/// };
///
/// let offered = token_subprotocols("d7c1e0f4", "agent.v1")?;
/// let header = offered.join(", ");
/// assert_eq!(header, "d7c1e0f4, agent.v1");
/// assert_eq!(subprotocol_token(&header), Some("d7c1e0f4"));
/// // A token with characters a subprotocol cannot carry goes in the query instead.
/// assert_eq!(token_subprotocols("a/b=", "agent.v1"), Err(TokenPresentationError::TokenNotSubprotocol));
/// # Ok::<(), TokenPresentationError>(())
/// ```
///
/// # Errors
///
/// [`EmptyToken`](TokenPresentationError::EmptyToken),
/// [`TokenNotSubprotocol`](TokenPresentationError::TokenNotSubprotocol) or
/// [`NamedNotSubprotocol`](TokenPresentationError::NamedNotSubprotocol) when either is not an
/// HTTP token (RFC 9110: one or more letters, digits and ``!#$%&'*+-.^_`|~``), and
/// [`NamedIsToken`](TokenPresentationError::NamedIsToken) when they are the same.
pub fn token_subprotocols<'a>(
    token: &'a str,
    named: &'a str,
) -> Result<[&'a str; 2], TokenPresentationError> {
    if token.is_empty() {
        Err(TokenPresentationError::EmptyToken)
    } else if !is_http_token(token) {
        Err(TokenPresentationError::TokenNotSubprotocol)
    } else if !is_http_token(named) {
        Err(TokenPresentationError::NamedNotSubprotocol)
    } else if named == token {
        Err(TokenPresentationError::NamedIsToken)
    } else {
        Ok([token, named])
    }
}

/// True when `text` is an HTTP token: one or more `tchar`s (RFC 9110 §5.6.2), what a WebSocket
/// subprotocol must be.
fn is_http_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
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
