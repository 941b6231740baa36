//! The one shape every conformance suite of this crate has (feature `testing`), and the small
//! helper that runs a suite in it.
//!
//! A conformance suite is what a third party runs against its own implementation of one of the
//! crate's ports (a transport adapter, a policy store, a record store, a session cache, a
//! shared-memory provider). Every suite keeps the same conventions:
//!
//! - **Runner-agnostic and `no_std`.** A suite is an `async fn` that returns a typed failure;
//!   it assumes no test harness, no executor and no clock, so it runs under `cargo test`, in a
//!   wasm runner and on a microcontroller alike.
//! - **A fresh instance per case.** The host's fixture makes a new implementation for every
//!   case, so no case can pass or fail because of what an earlier one left behind.
//! - **Every case is mandatory.** A suite's case list is a closed enum with an `ALL` table and
//!   there is no skip hook, so a passing run always means every case passed, never "most of it".
//! - **An optional per-case wrapper.** By default a suite runs its cases in order and stops at
//!   the first failure ([`StopAtFirst`]). A harness that wants one reported result per case
//!   (one test each, or a log line each) passes its own [`CaseHarness`], for example
//!   [`EveryCase`], which runs them all and keeps every result.
//!
//! [`run_suite`] is the single loop every suite uses: it walks the case table of a
//! [`SuiteCase`] type and hands each case's future to the harness.
//!
//! # The shape of a suite
//!
//! Each suite `x` is written the same way, so a host that has run one knows them all:
//!
//! - a case enum implementing [`SuiteCase`] (its `ALL` is the only case list),
//! - a fixture trait the host implements (it makes a fresh instance per case),
//! - `run_x_case(fixture, case)`: one case on a fresh instance, returning a typed failure that
//!   names the case,
//! - `run_x_conformance(fixture, harness)`: `run_suite(harness, async |case| run_x_case(..))`.
//!
//! A host that wants the default passes `&mut StopAtFirst`.
//!
//! # Suites with profiles
//!
//! One port can come in declared profiles that owe different cases (the transport lifecycle
//! suite has services and runners; only a runner has a completion to hold pending). Such a
//! suite keeps one case enum whose `ALL` is every case, declares each profile's table as a
//! constant next to it, and runs a profile through [`run_cases`], the same loop over that
//! table. The table is the suite's, fixed at compile time, never the host's choice: it is not a
//! skip hook.

use alloc::vec::Vec;
use core::fmt::Debug;
use core::future::Future;

/// The closed list of cases of one conformance suite.
pub trait SuiteCase: Copy + Debug + Eq + 'static {
    /// Every case, in the order a run takes them. A suite has no other list and no skip hook.
    const ALL: &'static [Self];
}

/// Wraps the run of each case: the optional per-case hook a harness supplies.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait CaseHarness<C: SuiteCase, F> {
    /// Runs one case. Returning `Err` ends the suite with that failure; returning `Ok` goes on to
    /// the next case (a harness that records failures and continues returns `Ok`).
    async fn case(&mut self, case: C, run: impl Future<Output = Result<(), F>>) -> Result<(), F>;
}

/// The default harness: runs the cases in order and ends the suite at the first failure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StopAtFirst;

impl<C: SuiteCase, F> CaseHarness<C, F> for StopAtFirst {
    async fn case(&mut self, _case: C, run: impl Future<Output = Result<(), F>>) -> Result<(), F> {
        run.await
    }
}

/// A harness that runs every case whatever the earlier ones did and keeps each result, in case
/// order: one reported result per case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EveryCase<C, F> {
    /// Each case run so far with its result.
    pub results: Vec<(C, Result<(), F>)>,
}

impl<C, F> EveryCase<C, F> {
    /// A harness that has run nothing yet.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            results: Vec::new(),
        }
    }

    /// The failed cases with their failures, in case order.
    pub fn failures(&self) -> impl Iterator<Item = (&C, &F)> {
        self.results
            .iter()
            .filter_map(|(case, result)| result.as_ref().err().map(|failure| (case, failure)))
    }

    /// True when at least one case ran and none failed.
    #[must_use]
    pub fn all_passed(&self) -> bool {
        !self.results.is_empty() && self.results.iter().all(|(_, result)| result.is_ok())
    }

    /// The result of `case`, if it ran (the first run, should a case be listed twice).
    #[must_use]
    pub fn result_of(&self, case: C) -> Option<&Result<(), F>>
    where
        C: PartialEq,
    {
        self.results
            .iter()
            .find(|(ran, _)| *ran == case)
            .map(|(_, result)| result)
    }
}

impl<C, F> Default for EveryCase<C, F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: SuiteCase, F> CaseHarness<C, F> for EveryCase<C, F> {
    async fn case(&mut self, case: C, run: impl Future<Output = Result<(), F>>) -> Result<(), F> {
        let result = run.await;
        self.results.push((case, result));
        Ok(())
    }
}

/// Runs every case of `C` in table order through `harness`; `run_case` runs one case on a fresh
/// instance (the suite's own code makes the instance from the host's fixture).
///
/// # Errors
/// The failure the harness ended the run with (with [`StopAtFirst`], the first failed case).
pub async fn run_suite<C: SuiteCase, F>(
    harness: &mut impl CaseHarness<C, F>,
    run_case: impl AsyncFnMut(C) -> Result<(), F>,
) -> Result<(), F> {
    run_cases(harness, C::ALL, run_case).await
}

/// Runs the cases of one declared profile table (see "Suites with profiles" above) in table
/// order through `harness`; [`run_suite`] is this loop over `C::ALL`.
///
/// # Errors
/// The failure the harness ended the run with (with [`StopAtFirst`], the first failed case).
pub async fn run_cases<C: SuiteCase, F>(
    harness: &mut impl CaseHarness<C, F>,
    cases: &[C],
    mut run_case: impl AsyncFnMut(C) -> Result<(), F>,
) -> Result<(), F> {
    for &case in cases {
        harness.case(case, run_case(case)).await?;
    }
    Ok(())
}
