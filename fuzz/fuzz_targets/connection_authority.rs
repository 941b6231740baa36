//! The per-connection authority (`session_mobility::authority::ConnectionAuthority`), driven by arbitrary
//! interleavings of concurrent calls, operator answers, aborts, drops and the end of the
//! connection, on a hand-rolled executor that polls a call only when it was woken (or, as a
//! host may, spuriously).
//!
//! Properties (the type's guarantees):
//! - nothing panics;
//! - a capability outside the grant is `not-granted` and nobody is asked; `presence` and
//!   `message` are allowed with no question; no approver gives `no-approver`;
//! - request-scoped capabilities ask on every call, with the call's summary; a call is allowed
//!   only when its own question was answered yes;
//! - connection-scoped capabilities: at most one question outstanding at a time, asked without a
//!   summary; a kept answer is only ever the operator's (yes kept as allowed, no or an error as
//!   declined), never changes, and is what every later call gets at once;
//! - after the end nobody is asked and every call that completes is `not-granted`;
//! - a delegated turn is attributed from the admitted peer only;
//! - liveness: once every question is answered, every call completes through its own wakes.
#![no_main]

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

use agent_interface::agent_core::AbortSignal;
use agent_interface::agent_core::{ErrorValue, PeerReach};
use agent_interface::session_mobility::{
    authority::{
        AuthorizeOptions, CapabilityApprovalRequest, CapabilityApprovalScope, CapabilityDecision,
        CapabilityRefusal, ConnectionAuthority, ConnectionEnd, ConnectionPeer, DelegationDecision,
        DelegationRequest, OperatorApprover, capability_approval,
    },
    mesh::{MeshCapabilities, MeshCapability},
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

const MAX_CALLS: usize = 12;

/// One question the operator was asked.
struct Question {
    request: CapabilityApprovalRequest,
    answer: RefCell<Option<Result<bool, ErrorValue>>>,
    /// The answer given, kept for the checks.
    given: Cell<Option<bool>>,
    waker: RefCell<Option<Waker>>,
    /// The asking future was dropped (the question withdrawn).
    withdrawn: Cell<bool>,
}

#[derive(Default)]
struct Operator {
    questions: RefCell<Vec<Rc<Question>>>,
}

struct Withdraw(Rc<Question>);

impl Drop for Withdraw {
    fn drop(&mut self) {
        self.0.withdrawn.set(true);
    }
}

impl OperatorApprover for Operator {
    async fn approve(
        &self,
        request: &CapabilityApprovalRequest,
        _signal: Option<&dyn AbortSignal>,
    ) -> Result<bool, ErrorValue> {
        let question = Rc::new(Question {
            request: request.clone(),
            answer: RefCell::new(None),
            given: Cell::new(None),
            waker: RefCell::new(None),
            withdrawn: Cell::new(false),
        });
        self.questions.borrow_mut().push(question.clone());
        let guard = Withdraw(question.clone());
        let answer = std::future::poll_fn(|cx| match question.answer.borrow_mut().take() {
            Some(answer) => Poll::Ready(answer),
            None => {
                *question.waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        })
        .await;
        drop(guard);
        answer
    }
}

impl Question {
    fn outstanding(&self) -> bool {
        self.given.get().is_none() && !self.withdrawn.get()
    }
}

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Start {
        capability: u8,
        delegation: bool,
        aborted: bool,
    },
    /// Poll call `n` if it was woken.
    Poll(u8),
    /// Poll call `n` whether or not it was woken (a host may).
    SpuriousPoll(u8),
    /// Answer the `n`-th outstanding question: yes, no, or fail.
    Answer {
        n: u8,
        answer: u8,
    },
    /// Raise call `n`'s signal and wake it, as a host does.
    Abort(u8),
    Drop(u8),
    End(u8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    capabilities: u8,
    device: Option<u8>,
    session: Option<u8>,
    approver: bool,
    ops: Vec<Op>,
}

type Outcome = (CapabilityDecision, Option<(String, String, String)>);

struct Call<'a> {
    capability: MeshCapability,
    summary: String,
    /// A delegation (refused `not-granted` without a peer session to answer).
    delegation: bool,
    future: Option<Pin<Box<dyn Future<Output = Outcome> + 'a>>>,
    flag: Arc<Flag>,
    polled: bool,
    result: Option<CapabilityDecision>,
}

fuzz_target!(|input: Input| {
    let granted: Vec<MeshCapability> = MeshCapability::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| input.capabilities & (1 << i) != 0)
        .map(|(_, c)| *c)
        .collect();
    let peer = ConnectionPeer {
        device_id: input.device.map(|d| format!("device-{d}")),
        session_id: input.session.map(|s| format!("peer-session-{s}")),
        locality: PeerReach::AnotherHost,
        capabilities: MeshCapabilities::from_ascending(&granted).unwrap(),
    };
    let operator = Operator::default();
    let signals: Vec<Cell<bool>> = (0..MAX_CALLS).map(|_| Cell::new(false)).collect();
    let summaries: Vec<String> = (0..MAX_CALLS)
        .map(|i| format!("task of call {i}"))
        .collect();
    let requests: Vec<DelegationRequest> = (0..MAX_CALLS)
        .map(|i| DelegationRequest::new(format!("req-{i}"), summaries[i].clone()))
        .collect();
    let authority = ConnectionAuthority::new(peer.clone(), input.approver.then_some(&operator));
    let mut calls: Vec<Call<'_>> = Vec::new();
    let mut kept: Vec<Option<CapabilityDecision>> = vec![None; MeshCapability::ALL.len()];
    let mut asked_at_end: Option<usize> = None;

    let poll = |calls: &mut Vec<Call<'_>>, i: usize, authority: &ConnectionAuthority<&Operator>| {
        let call = &mut calls[i];
        let Some(future) = call.future.as_mut() else {
            return;
        };
        let started = !call.polled;
        let kept_at_start = authority.connection_answer(call.capability);
        let ended_before = authority.ended().is_some();
        call.polled = true;
        call.flag.0.store(false, Ordering::SeqCst);
        let waker = Waker::from(call.flag.clone());
        let mut cx = Context::from_waker(&waker);
        if let Poll::Ready((decision, turn)) = future.as_mut().poll(&mut cx) {
            call.future = None;
            call.result = Some(decision);
            let capability = call.capability;
            let approval = capability_approval(capability);
            let nowhere = call.delegation && peer.session_id.is_none();
            if nowhere
                || !peer.capabilities.contains(capability)
                || ended_before
                || authority.ended().is_some()
            {
                assert_eq!(
                    decision,
                    CapabilityDecision::Refused(CapabilityRefusal::NotGranted),
                    "{capability} outside the grant or after the end"
                );
            } else if approval.scope().is_none() {
                assert_eq!(
                    decision,
                    CapabilityDecision::Allowed,
                    "{capability} needs no question"
                );
                assert!(started, "{capability} waited for nothing");
            } else if !input.approver {
                assert_eq!(
                    decision,
                    CapabilityDecision::Refused(CapabilityRefusal::NoApprover)
                );
            }
            if started
                && !ended_before
                && approval.scope() == Some(CapabilityApprovalScope::Connection)
                && let Some(kept) = kept_at_start
            {
                assert_eq!(
                    decision, kept,
                    "a call ignored the kept answer of {capability}"
                );
            }
            if decision == CapabilityDecision::Allowed && approval.scope().is_some() {
                let questions = operator.questions.borrow();
                let yes = questions.iter().any(|q| {
                    q.request.capability() == capability
                        && q.given.get() == Some(true)
                        && match approval.scope() {
                            Some(CapabilityApprovalScope::Request) => {
                                q.request.summary() == Some(call.summary.as_str())
                            }
                            _ => true,
                        }
                });
                assert!(yes, "{capability} allowed without a yes to its question");
            }
            if let Some((driver, message, reply_to)) = turn {
                let reply = peer
                    .session_id
                    .clone()
                    .expect("a turn only with a peer session");
                let attributed = peer.device_id.clone().unwrap_or(reply.clone());
                assert_eq!(driver, format!("peer:{attributed}"));
                assert_eq!(reply_to, reply);
                assert!(message.starts_with("req-"));
            }
        }
    };

    for op in input.ops.into_iter().take(128) {
        match op {
            Op::Start {
                capability,
                delegation,
                aborted,
            } => {
                if calls.len() == MAX_CALLS {
                    continue;
                }
                let i = calls.len();
                let capability = if delegation {
                    MeshCapability::Delegate
                } else {
                    MeshCapability::ALL[usize::from(capability) % MeshCapability::ALL.len()]
                };
                signals[i].set(aborted);
                let signal: &dyn AbortSignal = &signals[i];
                let authority = &authority;
                let future: Pin<Box<dyn Future<Output = Outcome> + '_>> = if delegation {
                    let request = &requests[i];
                    Box::pin(async move {
                        match authority.authorize_delegation(request, Some(signal)).await {
                            DelegationDecision::Allowed { turn } => (
                                CapabilityDecision::Allowed,
                                Some((
                                    turn.driver_id().to_owned(),
                                    turn.peer().message_id.clone(),
                                    turn.peer().reply_to.clone(),
                                )),
                            ),
                            DelegationDecision::Refused(refusal) => {
                                (CapabilityDecision::Refused(refusal), None)
                            }
                        }
                    })
                } else {
                    let summary = summaries[i].as_str();
                    Box::pin(async move {
                        let options = AuthorizeOptions::default()
                            .with_summary(summary)
                            .with_signal(signal);
                        (authority.authorize(capability, options).await, None)
                    })
                };
                calls.push(Call {
                    capability,
                    summary: summaries[i].clone(),
                    delegation,
                    future: Some(future),
                    flag: Arc::new(Flag(AtomicBool::new(true))),
                    polled: false,
                    result: None,
                });
                if delegation && peer.session_id.is_none() {
                    // Refused before anything is asked.
                    poll(&mut calls, i, &authority);
                    assert_eq!(
                        calls[i].result,
                        Some(CapabilityDecision::Refused(CapabilityRefusal::NotGranted))
                    );
                }
            }
            Op::Poll(n) | Op::SpuriousPoll(n) if calls.is_empty() => {
                let _ = n;
            }
            Op::Poll(n) => {
                let i = usize::from(n) % calls.len();
                if calls[i].flag.0.load(Ordering::SeqCst) {
                    poll(&mut calls, i, &authority);
                }
            }
            Op::SpuriousPoll(n) => {
                let i = usize::from(n) % calls.len();
                poll(&mut calls, i, &authority);
            }
            Op::Answer { n, answer } => {
                let questions = operator.questions.borrow();
                let open: Vec<&Rc<Question>> =
                    questions.iter().filter(|q| q.outstanding()).collect();
                if open.is_empty() {
                    continue;
                }
                let question = open[usize::from(n) % open.len()];
                let reply = match answer % 3 {
                    0 => Ok(true),
                    1 => Ok(false),
                    _ => Err(ErrorValue::new("Error", "approver failed")),
                };
                question.given.set(Some(matches!(reply, Ok(true))));
                *question.answer.borrow_mut() = Some(reply);
                if let Some(waker) = question.waker.borrow_mut().take() {
                    waker.wake();
                }
            }
            Op::Abort(n) => {
                if calls.is_empty() {
                    continue;
                }
                let i = usize::from(n) % calls.len();
                signals[i].set(true);
                calls[i].flag.0.store(true, Ordering::SeqCst);
            }
            Op::Drop(n) => {
                if calls.is_empty() {
                    continue;
                }
                let i = usize::from(n) % calls.len();
                calls[i].future = None;
            }
            Op::End(how) => {
                authority.end(
                    [
                        ConnectionEnd::Closed,
                        ConnectionEnd::Replaced,
                        ConnectionEnd::Revoked,
                    ][usize::from(how) % 3],
                );
                asked_at_end.get_or_insert(operator.questions.borrow().len());
            }
        }
        check_invariants(&authority, &operator, &mut kept, asked_at_end);
    }

    // Liveness: answer every question and poll what was woken, until nothing is pending.
    for _ in 0..4 * MAX_CALLS {
        for question in operator
            .questions
            .borrow()
            .iter()
            .filter(|q| q.outstanding())
        {
            question.given.set(Some(true));
            *question.answer.borrow_mut() = Some(Ok(true));
            if let Some(waker) = question.waker.borrow_mut().take() {
                waker.wake();
            }
        }
        for i in 0..calls.len() {
            if calls[i].future.is_some() && calls[i].flag.0.load(Ordering::SeqCst) {
                poll(&mut calls, i, &authority);
            }
        }
        check_invariants(&authority, &operator, &mut kept, asked_at_end);
    }
    for (i, call) in calls.iter().enumerate() {
        assert!(
            call.future.is_none(),
            "call {i} ({}) is stuck: nobody asks and nobody wakes it",
            call.capability
        );
    }
});

fn check_invariants(
    authority: &ConnectionAuthority<&Operator>,
    operator: &Operator,
    kept: &mut [Option<CapabilityDecision>],
    asked_at_end: Option<usize>,
) {
    let questions = operator.questions.borrow();
    if let Some(asked) = asked_at_end {
        assert_eq!(questions.len(), asked, "a question was asked after the end");
    }
    for (index, &capability) in MeshCapability::ALL.iter().enumerate() {
        let scope = capability_approval(capability).scope();
        let mine = || {
            questions
                .iter()
                .filter(move |q| q.request.capability() == capability)
        };
        for question in mine() {
            assert_eq!(
                Some(question.request.scope()),
                scope,
                "a question with another scope"
            );
            if scope == Some(CapabilityApprovalScope::Connection) {
                assert_eq!(
                    question.request.summary(),
                    None,
                    "a connection question with a summary"
                );
            }
        }
        if scope == Some(CapabilityApprovalScope::Connection) {
            let open = mine().filter(|q| q.outstanding()).count();
            assert!(
                open <= 1,
                "{open} questions outstanding at once for {capability}"
            );
        }
        let answer = authority.connection_answer(capability);
        if let Some(before) = kept[index] {
            assert_eq!(
                answer,
                Some(before),
                "the kept answer of {capability} changed"
            );
        }
        match answer {
            None => {}
            Some(CapabilityDecision::Allowed) => {
                assert!(
                    mine().any(|q| q.given.get() == Some(true)),
                    "{capability} kept as allowed without a yes"
                );
            }
            Some(CapabilityDecision::Refused(CapabilityRefusal::Declined)) => {
                assert!(
                    mine().any(|q| q.given.get() == Some(false)),
                    "{capability} kept as declined without a no"
                );
            }
            Some(other) => panic!("kept {other:?} for {capability}"),
        }
        if answer.is_some() {
            assert_eq!(
                scope,
                Some(CapabilityApprovalScope::Connection),
                "an answer kept for {capability}"
            );
        }
        kept[index] = answer;
    }
}
