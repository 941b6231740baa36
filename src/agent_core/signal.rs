//! The one cancellation signal of the crate: a flag the host raises and a machine polls.

use core::cell::Cell;

/// Something a caller raises to cancel work it started: a submitted turn (the `signal` of
/// `ISubmitOptions`), a shared-memory read, a peer request.
///
/// The machine that was given it polls it (there is no callback); once it reports `true` it must
/// keep doing so. It cancels only the work it was passed with.
pub trait AbortSignal {
    /// True once the caller has asked to cancel.
    fn is_aborted(&self) -> bool;
}

impl<S: AbortSignal + ?Sized> AbortSignal for &S {
    fn is_aborted(&self) -> bool {
        (**self).is_aborted()
    }
}

/// A fixed answer: `true` is work cancelled before it started.
impl AbortSignal for bool {
    fn is_aborted(&self) -> bool {
        *self
    }
}

/// A signal in a single-threaded host: set the cell to abort.
impl AbortSignal for Cell<bool> {
    fn is_aborted(&self) -> bool {
        self.get()
    }
}

/// A signal shared across threads or with an interrupt handler: store `true` to abort.
#[cfg(target_has_atomic = "8")]
impl AbortSignal for core::sync::atomic::AtomicBool {
    fn is_aborted(&self) -> bool {
        self.load(core::sync::atomic::Ordering::Acquire)
    }
}

/// The same signal on targets without compare-and-swap (thumbv6m, riscv32imc), where core's
/// `AtomicBool` cannot be named on stable: portable-atomic's, a plain load there too.
#[cfg(not(target_has_atomic = "8"))]
impl AbortSignal for portable_atomic::AtomicBool {
    fn is_aborted(&self) -> bool {
        self.load(portable_atomic::Ordering::Acquire)
    }
}

/// The signal of work nobody can cancel: never aborted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NeverAborted;

impl AbortSignal for NeverAborted {
    fn is_aborted(&self) -> bool {
        false
    }
}
