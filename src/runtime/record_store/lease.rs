//! Leases on writer markers: how long a claim holds without its writer renewing it, so that a
//! crashed writer's records can be taken over once its lease lapses, and the text a leased
//! marker is stored as.

use alloc::boxed::Box;
use alloc::format;
use core::fmt;

use super::medium::{WriterId, WriterIdError};

/// The tag that starts a lease's end in a marker's text: `<writer> lease-until=<ms>`.
const LEASE_TAG: &str = " lease-until=";

/// The longest a leased marker's suffix is: the tag and the 20 digits of a `u64`.
const LEASE_SUFFIX_MAX: usize = LEASE_TAG.len() + 20;

/// A store's lease on the records it claims ([`RecordStore::with_lease`](super::RecordStore::with_lease)):
/// every marker it writes says until when it holds, and another store may take the record over
/// once that time has passed without a renewal.
///
/// The crate reads no clock: `now_ms` is the host's, in milliseconds on a clock every writer of
/// the medium shares (the Unix epoch on a host's wall clock, for processes over one directory or
/// one database). A store renews its lease whenever it marks a record (every claiming load and
/// every save) once half of it has run, so a writer that saves more often than every half lease
/// never loses its records; one that may sit idle longer renews with
/// [`RecordStore::renew`](super::RecordStore::renew).
///
/// The lease holds the host's clock because the store reads the time inside its port's `load`
/// and `save`, whose contract carries none; every call of the crate's own machines takes the
/// host's `now_ms` instead (`docs/decisions/host-tasks.md`).
pub struct Lease {
    duration_ms: u64,
    now_ms: Box<dyn Fn() -> u64 + Send + Sync>,
}

impl fmt::Debug for Lease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lease")
            .field("duration_ms", &self.duration_ms)
            .finish_non_exhaustive()
    }
}

impl Lease {
    /// A lease of `duration_ms` milliseconds, timed by the host's clock `now_ms`: any function
    /// or closure (`Send + Sync`, so that a store with a lease can still be shared by threads).
    #[must_use]
    pub fn new(duration_ms: u64, now_ms: impl Fn() -> u64 + Send + Sync + 'static) -> Self {
        Self {
            duration_ms,
            now_ms: Box::new(now_ms),
        }
    }

    /// How long a marker holds without a renewal, in milliseconds.
    #[must_use]
    pub const fn duration_ms(&self) -> u64 {
        self.duration_ms
    }

    /// The host's clock, read now.
    pub(crate) fn now_ms(&self) -> u64 {
        (self.now_ms)()
    }

    /// The longest writer id a leased store may have: its markers carry the lease's end too,
    /// and a marker is at most [`WriterId::MAX_LEN`] bytes.
    pub const MAX_WRITER_LEN: usize = WriterId::MAX_LEN - LEASE_SUFFIX_MAX;
}

/// What a writer marker's text says: who writes the record, and until when its lease runs
/// (`None`: a marker without a lease, which never lapses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Marker {
    pub(crate) writer: WriterId,
    pub(crate) until: Option<u64>,
}

impl Marker {
    /// Reads a marker's text. Never fails: a text without a well-formed lease suffix (or whose
    /// writer part would not be a writer id) is a writer without a lease.
    pub(crate) fn parse(text: &WriterId) -> Self {
        let leased = text
            .as_str()
            .rsplit_once(LEASE_TAG)
            .and_then(|(writer, until)| {
                let digits = !until.is_empty() && until.bytes().all(|byte| byte.is_ascii_digit());
                let until = until.parse::<u64>().ok().filter(|_| digits)?;
                Some(Self {
                    writer: WriterId::new(writer).ok()?,
                    until: Some(until),
                })
            });
        leased.unwrap_or_else(|| Self {
            writer: text.clone(),
            until: None,
        })
    }

    /// The marker's text, as a medium stores it.
    ///
    /// # Errors
    /// When the writer id is too long to carry a lease ([`Lease::MAX_WRITER_LEN`]).
    pub(crate) fn text(&self) -> Result<WriterId, WriterIdError> {
        match self.until {
            None => Ok(self.writer.clone()),
            Some(until) => WriterId::new(format!("{}{LEASE_TAG}{until}", self.writer)),
        }
    }

    /// True when the marker's lease has run out at `now_ms` (a marker without one never does).
    pub(crate) fn lapsed(&self, now_ms: u64) -> bool {
        self.until.is_some_and(|until| now_ms >= until)
    }

    /// True when the marker still holds for more than half of `lease` at `now_ms`: a store
    /// renewing its own marker leaves it as it is.
    pub(crate) fn fresh(&self, lease: &Lease, now_ms: u64) -> bool {
        self.until
            .is_some_and(|until| until.saturating_sub(now_ms) > lease.duration_ms / 2)
    }
}

/// True when `held` names an earlier boot of the host `writer` names: both ids were made by
/// [`WriterId::for_boot`] with the same host and different boots. The host guarantees that one
/// process at a time runs under a host id, so that earlier boot is over and its markers are
/// dead.
pub(crate) fn earlier_boot(held: &WriterId, writer: &WriterId) -> bool {
    match (held.boot(), writer.boot()) {
        (Some((held_host, held_boot)), Some((host, boot))) => {
            held_host == host && held_boot != boot
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> WriterId {
        WriterId::new(text).unwrap()
    }

    #[test]
    fn a_marker_reads_back_what_it_wrote() {
        let leased = Marker {
            writer: id("host-a#00000000000000ff"),
            until: Some(1_700_000_000_000),
        };
        assert_eq!(
            leased.text().unwrap().as_str(),
            "host-a#00000000000000ff lease-until=1700000000000"
        );
        assert_eq!(Marker::parse(&leased.text().unwrap()), leased);
        let plain = Marker {
            writer: id("a"),
            until: None,
        };
        assert_eq!(Marker::parse(&plain.text().unwrap()), plain);
    }

    #[test]
    fn a_malformed_lease_suffix_is_part_of_the_writer() {
        for text in [
            "a lease-until=",
            "a lease-until=12x",
            "a lease-until=-1",
            "a lease-until=99999999999999999999",
            " lease-until=5",
        ] {
            let marker = Marker::parse(&id(text));
            assert_eq!(marker.writer.as_str(), text, "{text}");
            assert_eq!(marker.until, None, "{text}");
        }
    }

    #[test]
    fn a_lease_lapses_at_its_end_and_is_fresh_for_its_first_half() {
        let lease = Lease::new(100, || 0);
        let marker = Marker {
            writer: id("a"),
            until: Some(1_000),
        };
        assert!(!marker.lapsed(999));
        assert!(marker.lapsed(1_000));
        assert!(marker.fresh(&lease, 949));
        assert!(!marker.fresh(&lease, 950));
        assert!(!Marker::parse(&id("a")).lapsed(u64::MAX));
    }

    #[test]
    fn the_longest_leased_writer_fits_a_marker() {
        let writer = id(&"w".repeat(Lease::MAX_WRITER_LEN));
        let marker = Marker {
            writer,
            until: Some(u64::MAX),
        };
        assert_eq!(marker.text().unwrap().as_str().len(), WriterId::MAX_LEN);
        let longer = Marker {
            writer: id(&"w".repeat(Lease::MAX_WRITER_LEN + 1)),
            until: Some(u64::MAX),
        };
        assert_eq!(longer.text(), Err(WriterIdError::TooLong));
    }

    #[test]
    fn only_another_boot_of_the_same_host_is_an_earlier_boot() {
        let a1 = WriterId::for_boot("host-a", 1).unwrap();
        let a2 = WriterId::for_boot("host-a", 2).unwrap();
        let b1 = WriterId::for_boot("host-b", 1).unwrap();
        assert!(earlier_boot(&a1, &a2));
        assert!(!earlier_boot(&a2, &a2));
        assert!(!earlier_boot(&b1, &a2));
        assert!(!earlier_boot(&id("host-a"), &a2));
        assert!(!earlier_boot(&a1, &id("host-a")));
    }
}
