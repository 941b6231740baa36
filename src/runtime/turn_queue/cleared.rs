//! The report of a clear: how many pending submissions it cancelled and the distinct drivers they
//! were attributed to, in a fixed-capacity set (no allocation).

use core::fmt;

use heapless::Vec;

/// What [`clear`](super::TurnQueue::clear) or [`shutdown`](super::TurnQueue::shutdown) cancelled:
/// the number of pending submissions (each settled `cancelled`) and the distinct drivers whose
/// inputs were cleared, in the order their first input was queued, for attributed notices.
///
/// The set holds at most `N` drivers inline (a queue of depth `N` never holds more pending
/// inputs), so building it allocates nothing. Drivers are told apart with `D`'s `PartialEq`; a
/// host whose `D` can mean "no driver" (for example `Option<_>`) filters that value out itself.
pub struct Cleared<D, const N: usize> {
    drivers: Vec<D, N>,
    cancelled: usize,
}

impl<D, const N: usize> Cleared<D, N> {
    /// Nothing cleared.
    pub(super) const fn new() -> Self {
        Self {
            drivers: Vec::new(),
            cancelled: 0,
        }
    }

    /// Counts one cancelled submission from `driver`, keeping the driver if it is new. (`None`
    /// never comes: a clear waits while a driver is lent out.)
    pub(super) fn note(&mut self, driver: Option<D>)
    where
        D: PartialEq,
    {
        self.cancelled += 1;
        if let Some(driver) = driver
            && !self.drivers.contains(&driver)
        {
            // At most `N` pending submissions, so at most `N` distinct drivers.
            let _ = self.drivers.push(driver);
        }
    }

    /// How many pending submissions were cancelled.
    #[must_use]
    pub const fn cancelled(&self) -> usize {
        self.cancelled
    }

    /// True when nothing was pending.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.cancelled == 0
    }

    /// The distinct drivers whose inputs were cancelled, each once, in queue order.
    pub fn drivers(&self) -> impl Iterator<Item = &D> + '_ {
        self.drivers.iter()
    }
}

impl<D: fmt::Debug, const N: usize> fmt::Debug for Cleared<D, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cleared")
            .field("cancelled", &self.cancelled)
            .field("drivers", &self.drivers)
            .finish()
    }
}
