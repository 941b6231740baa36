//! The wakers of futures waiting on a single-threaded state change.

use alloc::vec::Vec;
use core::cell::RefCell;
use core::task::Waker;

/// Wakers to wake when shared state changes. Single-threaded (`RefCell`), like the state it
/// guards; a waker is kept once however often its task polls.
#[derive(Default)]
pub(crate) struct WakerSet(RefCell<Vec<Waker>>);

impl WakerSet {
    /// Keeps `waker` until the next [`wake_all`](Self::wake_all).
    pub(crate) fn register(&self, waker: &Waker) {
        let mut wakers = self.0.borrow_mut();
        if !wakers.iter().any(|kept| kept.will_wake(waker)) {
            wakers.push(waker.clone());
        }
    }

    /// Wakes every kept waker and forgets them.
    pub(crate) fn wake_all(&self) {
        let wakers = core::mem::take(&mut *self.0.borrow_mut());
        for waker in wakers {
            waker.wake();
        }
    }
}
