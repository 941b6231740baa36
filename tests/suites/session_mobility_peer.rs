//! Cases of the session-mobility family's peer half: peer messaging (admission, messages,
//! acknowledgements, predicates), device-mesh admission, the per-connection authority (approval
//! table, once-per-connection questions shared by concurrent callers, aborts, the end of a
//! connection, delegated turns, file offers) and seeded property tests over the authority.
//!
//! Parts, one firmware image each: `wire` (golden JSON both ways, decoders refusing what the
//! contract forbids), `admission` (evidence, predicates, mesh admission, file offers), `authority`
//! (the connection authority case by case, including wake-up discipline with a real waker) and
//! `properties` (seeded random operation sequences). Uses only `core`, `alloc`, serde_json and the
//! crate, so it also runs on the firmware and wasm.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::task::Wake;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::future::{Future, poll_fn};
use core::pin::Pin;
use core::sync::atomic::{AtomicBool, Ordering};
use core::task::{Context, Poll, Waker};

use agent_interface::agent_core::{AbortSignal, ErrorValue, PeerReach};
use agent_interface::session::{
    records::{InvalidSha256Digest, Sha256Digest},
    turns::{PeerTurnContext, TurnSource},
};
use agent_interface::session_mobility::{
    authority::{
        ApprovalRequestError, AuthorizeOptions, CapabilityApproval, CapabilityApprovalRequest,
        CapabilityApprovalScope, CapabilityDecision, CapabilityRefusal, ConnectionAuthority,
        ConnectionEnd, ConnectionPeer, DelegatedTurn, DelegationDecision, DelegationRequest,
        NoOperator, OperatorApprover, capability_approval,
    },
    files::{
        FileCloseHandler, FileFrameChannel, FileFrameHandler, FileOffer, FileVerificationError,
    },
    mesh::{
        MeshAdmission, MeshAdmissionError, MeshCapabilities, MeshCapabilitiesNotAscending,
        MeshCapability, MeshTrust,
    },
    peers::{
        AdmittedPeerTrust, PeerAckReasonOnState, PeerAdmission, PeerAdmissionEvidence,
        PeerDelivery, PeerDeliveryState, PeerEnvironmentProof, PeerMessage, PeerMessageAck,
        PeerMessageIngress, PeerOrigin, PeerPresentation, PeerTrust, WorkspaceRelation,
        is_same_environment_peer, is_terminal_peer_delivery,
    },
};

use crate::support::{block_on, golden, rejects, s, to_json};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

// ---- shorthands ---------------------------------------------------------------------------

use MeshCapability::{Delegate, Drive, File, Handoff, Message, Observe, Presence};

const ALLOWED: CapabilityDecision = CapabilityDecision::Allowed;
const NOT_GRANTED: CapabilityDecision = CapabilityDecision::Refused(CapabilityRefusal::NotGranted);
const NO_APPROVER: CapabilityDecision = CapabilityDecision::Refused(CapabilityRefusal::NoApprover);
const DECLINED: CapabilityDecision = CapabilityDecision::Refused(CapabilityRefusal::Declined);

const HASH_A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

/// The laptop of the reference tests: both ids, another host, `granted`.
fn laptop(granted: MeshCapabilities) -> ConnectionPeer {
    ConnectionPeer {
        device_id: Some(s("dev-laptop")),
        session_id: Some(s("session-laptop")),
        locality: PeerReach::AnotherHost,
        capabilities: granted,
    }
}

fn all_granted() -> ConnectionPeer {
    laptop(MeshCapabilities::ALL)
}

fn offer(name: &str, size: u64) -> FileOffer {
    FileOffer::new("t1", name, size, HASH_A.parse().expect("a valid sha256"))
}

fn options(summary: Option<&str>) -> AuthorizeOptions<'_> {
    let mut options = AuthorizeOptions::new();
    options.summary = summary;
    options
}

// ---- a scripted operator ------------------------------------------------------------------

/// How the scripted operator answers one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    /// An explicit yes.
    Yes,
    /// An explicit no.
    No,
    /// The approver fails (the TypeScript "throws").
    Fails,
    /// The approver raises the armed signal while asking, then answers yes/no.
    AbortThen(bool),
    /// The approver answers yes only once the signal is raised (it raises the armed signal the
    /// first time it is polled, as the harness aborts after the question).
    YesAfterAbort,
    /// The question stays open until the test answers it ([`Approver::answer`]); a raised
    /// signal withdraws it (resolving `false`).
    Wait,
}

/// One question the operator was asked.
#[derive(Clone, Debug)]
struct Question {
    request: CapabilityApprovalRequest,
    signal_passed: bool,
    aborted_at_ask: bool,
}

/// An open question of [`Reply::Wait`].
#[derive(Default)]
struct OpenQuestion {
    answer: Cell<Option<Result<bool, ()>>>,
    waker: RefCell<Option<Waker>>,
    /// The approve future settled (answered or withdrawn).
    resolved: Cell<bool>,
    /// The approve future was dropped before settling (its caller went away).
    dropped: Cell<bool>,
}

impl OpenQuestion {
    fn outstanding(&self) -> bool {
        !self.resolved.get() && !self.dropped.get()
    }
}

/// Marks an open question dropped when its approve future is dropped unsettled.
struct AliveGuard(Rc<OpenQuestion>);

impl Drop for AliveGuard {
    fn drop(&mut self) {
        if !self.0.resolved.get() {
            self.0.dropped.set(true);
        }
    }
}

#[derive(Default)]
struct Approver {
    /// Replies for the next questions, in order; then `default`.
    script: RefCell<Vec<Reply>>,
    default: Cell<Option<Reply>>,
    questions: RefCell<Vec<Question>>,
    /// The open question of each question asked (`None` when it did not wait).
    open: RefCell<Vec<Option<Rc<OpenQuestion>>>>,
    /// The signal the scripted aborts raise.
    armed: RefCell<Option<Rc<Cell<bool>>>>,
}

impl Approver {
    fn replying(reply: Reply) -> Self {
        let approver = Self::default();
        approver.default.set(Some(reply));
        approver
    }

    fn then(self, reply: Reply) -> Self {
        self.script.borrow_mut().push(reply);
        self
    }

    fn arm(&self, signal: &Rc<Cell<bool>>) {
        *self.armed.borrow_mut() = Some(signal.clone());
    }

    fn raise_armed(&self) {
        if let Some(signal) = self.armed.borrow().as_ref() {
            signal.set(true);
        }
    }

    fn asked(&self) -> usize {
        self.questions.borrow().len()
    }

    fn question(&self, index: usize) -> Question {
        self.questions.borrow()[index].clone()
    }

    fn questions_json(&self) -> Vec<serde_json::Value> {
        let questions = self.questions.borrow();
        questions.iter().map(|q| to_json(&q.request)).collect()
    }

    /// Answers the open question `index` and wakes its caller.
    fn answer(&self, index: usize, answer: Result<bool, ()>) {
        let open = self.open.borrow()[index].clone().expect("an open question");
        open.answer.set(Some(answer));
        if let Some(waker) = open.waker.borrow_mut().take() {
            waker.wake();
        }
    }

    fn open_question(&self, index: usize) -> Option<Rc<OpenQuestion>> {
        self.open.borrow()[index].clone()
    }

    /// Forgets the questions asked so far (the firmware heap is small).
    fn forget(&self) {
        self.questions.borrow_mut().clear();
        self.open.borrow_mut().clear();
    }

    /// How many open questions about `capability` are still being asked.
    fn outstanding(&self, capability: MeshCapability) -> usize {
        let questions = self.questions.borrow();
        let open = self.open.borrow();
        questions
            .iter()
            .zip(open.iter())
            .filter(|(question, open)| {
                question.request.capability() == capability
                    && open.as_ref().is_some_and(|open| open.outstanding())
            })
            .count()
    }

    fn next_reply(&self) -> Reply {
        let mut script = self.script.borrow_mut();
        if script.is_empty() {
            self.default.get().expect("the approver has no reply left")
        } else {
            script.remove(0)
        }
    }
}

impl OperatorApprover for Approver {
    async fn approve(
        &self,
        request: &CapabilityApprovalRequest,
        signal: Option<&dyn AbortSignal>,
    ) -> Result<bool, ErrorValue> {
        let reply = self.next_reply();
        self.questions.borrow_mut().push(Question {
            request: request.clone(),
            signal_passed: signal.is_some(),
            aborted_at_ask: signal.is_some_and(|signal| signal.is_aborted()),
        });
        let failure = || ErrorValue::from_message("the approver failed");
        if reply != Reply::Wait {
            self.open.borrow_mut().push(None);
        }
        match reply {
            Reply::Yes => Ok(true),
            Reply::No => Ok(false),
            Reply::Fails => Err(failure()),
            Reply::AbortThen(answer) => {
                self.raise_armed();
                Ok(answer)
            }
            Reply::YesAfterAbort => {
                poll_fn(|cx| {
                    if signal.is_some_and(|signal| signal.is_aborted()) {
                        Poll::Ready(Ok(true))
                    } else {
                        self.raise_armed();
                        cx.waker().wake_by_ref();
                        Poll::Pending
                    }
                })
                .await
            }
            Reply::Wait => {
                let open = Rc::new(OpenQuestion::default());
                self.open.borrow_mut().push(Some(open.clone()));
                let _alive = AliveGuard(open.clone());
                let answer = poll_fn(|cx| {
                    if let Some(answer) = open.answer.get() {
                        Poll::Ready(answer)
                    } else if signal.is_some_and(|signal| signal.is_aborted()) {
                        // The peer is gone: the question is withdrawn.
                        Poll::Ready(Ok(false))
                    } else {
                        *open.waker.borrow_mut() = Some(cx.waker().clone());
                        Poll::Pending
                    }
                })
                .await;
                open.resolved.set(true);
                answer.map_err(|()| failure())
            }
        }
    }
}

// ---- a tiny executor that polls a task only when it was woken -----------------------------

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// One task: its future is polled only after its waker was called (or [`Task::nudge`]), so a
/// call that is never woken stays pending: a lost wake-up shows as a hang.
struct Task<'a, T> {
    future: Option<Pin<Box<dyn Future<Output = T> + 'a>>>,
    output: Option<T>,
    flag: Arc<Flag>,
    waker: Waker,
}

impl<'a, T> Task<'a, T> {
    fn spawn(future: impl Future<Output = T> + 'a) -> Self {
        let flag = Arc::new(Flag(AtomicBool::new(true)));
        Self {
            future: Some(Box::pin(future)),
            output: None,
            waker: Waker::from(flag.clone()),
            flag,
        }
    }

    fn woken(&self) -> bool {
        self.flag.0.load(Ordering::SeqCst)
    }

    /// Wakes the task from outside (what a host does after raising its signal).
    fn nudge(&self) {
        self.flag.0.store(true, Ordering::SeqCst);
    }

    fn pending(&self) -> bool {
        self.future.is_some()
    }

    /// Polls the task if it was woken; true when it made a poll.
    fn run(&mut self) -> bool {
        if self.future.is_none() || !self.flag.0.swap(false, Ordering::SeqCst) {
            return false;
        }
        let mut cx = Context::from_waker(&self.waker);
        if let Some(future) = self.future.as_mut()
            && let Poll::Ready(output) = future.as_mut().poll(&mut cx)
        {
            self.future = None;
            self.output = Some(output);
        }
        true
    }
}

/// Polls every woken task until none is woken (bounded: a task that keeps waking itself fails).
fn settle_tasks<T>(tasks: &mut [Task<'_, T>]) {
    for _ in 0..256 {
        let mut polled = false;
        for task in tasks.iter_mut() {
            polled |= task.run();
        }
        if !polled {
            return;
        }
    }
    panic!("tasks kept waking each other");
}

/// Runs the futures of one "concurrent" step with a no-op waker, each polled in turn, until all
/// are done.
fn run_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..64 {
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none()
                && let Poll::Ready(done) = future.as_mut().poll(&mut cx)
            {
                *output = Some(done);
            }
        }
        if outputs.iter().all(Option::is_some) {
            return outputs.into_iter().flatten().collect();
        }
    }
    panic!("concurrent callers did not complete");
}

// ---- a file channel double (shows the port is implementable and object-safe) --------------

#[derive(Default)]
struct LoopbackChannel {
    frames: RefCell<Vec<FileFrameHandler>>,
    closes: RefCell<Vec<FileCloseHandler>>,
    closed: Cell<bool>,
}

#[derive(Debug)]
struct ChannelClosed;

impl core::fmt::Display for ChannelClosed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the file channel is closed")
    }
}

impl core::error::Error for ChannelClosed {}

impl FileFrameChannel for LoopbackChannel {
    type Error = ChannelClosed;

    fn send(&self, frame: &str) -> Result<(), ChannelClosed> {
        if self.closed.get() {
            return Err(ChannelClosed);
        }
        let handlers = self.frames.borrow().clone();
        for handler in handlers {
            handler(frame);
        }
        Ok(())
    }

    fn on_frame(&self, handler: FileFrameHandler) {
        self.frames.borrow_mut().push(handler);
    }

    fn off_frame(&self, handler: &FileFrameHandler) {
        self.frames.borrow_mut().retain(|h| !Rc::ptr_eq(h, handler));
    }

    fn on_close(&self, handler: FileCloseHandler) {
        self.closes.borrow_mut().push(handler);
    }

    fn off_close(&self, handler: &FileCloseHandler) {
        self.closes.borrow_mut().retain(|h| !Rc::ptr_eq(h, handler));
    }

    fn close(&self) {
        if !self.closed.replace(true) {
            let handlers = core::mem::take(&mut *self.closes.borrow_mut());
            for handler in handlers {
                handler();
            }
        }
    }
}

cases! {
    mod wire {
        fn literal_sets_round_trip() {
            literal_round_trip!(PeerTrust);
            literal_round_trip!(AdmittedPeerTrust);
            literal_round_trip!(PeerDeliveryState);
            literal_round_trip!(MeshCapability);
            literal_round_trip!(MeshTrust);
            literal_round_trip!(CapabilityApproval);
            literal_round_trip!(CapabilityApprovalScope);
            literal_round_trip!(CapabilityRefusal);
            literal_round_trip!(WorkspaceRelation);
            assert_eq!(
                PeerTrust::LITERALS,
                &["same-user-same-host", "same-user-different-host", "token-only", "unproven"]
            );
            assert_eq!(
                MeshCapability::LITERALS,
                &["delegate", "drive", "file", "handoff", "message", "observe", "presence"]
            );
            assert_eq!(
                CapabilityRefusal::LITERALS,
                &["not-granted", "no-approver", "declined"]
            );
        }

        fn peer_admissions_golden() {
            let same: PeerAdmission = golden(
                "admission_same_environment",
                include_str!("../golden/session_mobility/peer/admission_same_environment.json"),
            );
            assert_eq!(
                same,
                PeerAdmission::Admitted {
                    trust: AdmittedPeerTrust::SameUserSameHost,
                    origin: PeerOrigin::new("session_peer_1"),
                }
            );
            let token: PeerAdmission = golden(
                "admission_token_only_claiming_owner",
                include_str!(
                    "../golden/session_mobility/peer/admission_token_only_claiming_owner.json"
                ),
            );
            assert_eq!(token.trust(), PeerTrust::TokenOnly);
            assert_eq!(
                token.origin().and_then(|o| o.driver_id.as_deref()),
                Some("owner")
            );
            let remote: PeerAdmission = golden(
                "admission_different_host",
                include_str!("../golden/session_mobility/peer/admission_different_host.json"),
            );
            assert_eq!(remote.trust(), PeerTrust::SameUserDifferentHost);
            let refused: PeerAdmission = golden(
                "admission_refused",
                include_str!("../golden/session_mobility/peer/admission_refused.json"),
            );
            assert_eq!(refused, PeerAdmission::refused("no"));
            assert_eq!(refused.trust(), PeerTrust::Unproven);
            assert_eq!(refused.origin(), None);
        }

        fn peer_admission_decoder_refuses_what_the_contract_forbids() {
            type A = PeerAdmission;
            rejects::<A>(
                r#"{"admitted":true,"trust":"same-user-same-host"}"#,
                "must have an `origin`",
            );
            rejects::<A>(
                r#"{"admitted":true,"trust":"same-user-same-host","origin":null}"#,
                "must have an `origin`",
            );
            rejects::<A>(
                r#"{"admitted":true,"trust":"unproven","origin":{"sessionId":"s"}}"#,
                "cannot be `unproven`",
            );
            rejects::<A>(
                r#"{"admitted":true,"trust":"token-only","origin":{"sessionId":"s"},"reason":"x"}"#,
                "has no `reason`",
            );
            rejects::<A>(
                r#"{"admitted":false,"trust":"token-only","reason":"no"}"#,
                "is `unproven`, not `token-only`",
            );
            rejects::<A>(
                r#"{"admitted":false,"trust":"unproven","origin":{"sessionId":"s"},"reason":"no"}"#,
                "a refused peer has no `origin`",
            );
            rejects::<A>(r#"{"admitted":false,"trust":"unproven"}"#, "needs a `reason`");
            rejects::<A>(r#"{"admitted":1,"trust":"unproven","reason":"no"}"#, "boolean");
            rejects::<A>(r#"{"admitted":true,"trust":"trusted","origin":{"sessionId":"s"}}"#, "unknown variant");
            rejects::<A>(r#"{"admitted":true,"trust":"token-only","origin":{}}"#, "sessionId");
        }

        fn messages_and_acks_golden() {
            let message: PeerMessage = golden(
                "message",
                include_str!("../golden/session_mobility/peer/message.json"),
            );
            let retry: PeerMessage = golden(
                "message_retry",
                include_str!("../golden/session_mobility/peer/message_retry.json"),
            );
            assert_eq!(message.retry(2), retry);
            assert_eq!((retry.id.as_str(), retry.sequence), ("msg_1", 1));
            let delivered: PeerMessageAck = golden(
                "ack_delivered",
                include_str!("../golden/session_mobility/peer/ack_delivered.json"),
            );
            assert_eq!(delivered, PeerMessageAck::of(&message, PeerDelivery::Delivered));
            let duplicate: PeerMessageAck = golden(
                "ack_duplicate",
                include_str!("../golden/session_mobility/peer/ack_duplicate.json"),
            );
            assert_eq!(duplicate.state(), PeerDeliveryState::Duplicate);
            assert_ne!(duplicate.state(), delivered.state());
            let refused: PeerMessageAck = golden(
                "ack_refused",
                include_str!("../golden/session_mobility/peer/ack_refused.json"),
            );
            assert_eq!(refused.delivery.reason(), Some("over the rate limit"));
            let failed: PeerMessageAck = golden(
                "ack_failed_without_reason",
                include_str!("../golden/session_mobility/peer/ack_failed_without_reason.json"),
            );
            assert_eq!(failed.delivery, PeerDelivery::Failed { reason: None });
            let ingress: PeerMessageIngress = golden(
                "ingress",
                include_str!("../golden/session_mobility/peer/ingress.json"),
            );
            assert!(is_same_environment_peer(&ingress.admission));
            assert_eq!(ingress.message.sent_at, 1_700_000_000_000);
        }

        fn message_and_ack_decoders_refuse_bad_input() {
            rejects::<PeerMessage>(
                r#"{"id":"m","sequence":-1,"origin":{"sessionId":"s"},"text":"t","sentAt":1}"#,
                "invalid value",
            );
            rejects::<PeerMessage>(
                r#"{"id":"m","sequence":1.5,"origin":{"sessionId":"s"},"text":"t","sentAt":1}"#,
                "invalid type",
            );
            rejects::<PeerMessage>(
                r#"{"id":"m","sequence":1,"origin":{"sessionId":"s"},"text":"t"}"#,
                "sentAt",
            );
            rejects::<PeerMessageAck>(
                r#"{"id":"m","sequence":1,"state":"delivered","reason":"x"}"#,
                "state `delivered` has no `reason`",
            );
            rejects::<PeerMessageAck>(
                r#"{"id":"m","sequence":1,"state":"lost"}"#,
                "unknown variant",
            );
            rejects::<PeerMessageAck>(r#"{"id":"m","state":"pending"}"#, "sequence");
        }

        fn mesh_admission_golden() {
            let remote: MeshAdmission = golden(
                "mesh_admission",
                include_str!("../golden/session_mobility/peer/mesh_admission.json"),
            );
            assert_eq!(remote.trust(), MeshTrust::SameUserDifferentHost);
            assert_eq!(remote.locality(), PeerReach::AnotherHost);
            assert_eq!(remote.workspace_claim(), Some("robota"));
            assert_eq!(remote.capabilities().to_vec(), vec![Delegate, File, Message, Presence]);
            let local: MeshAdmission = golden(
                "mesh_admission_same_host",
                include_str!("../golden/session_mobility/peer/mesh_admission_same_host.json"),
            );
            assert_eq!(local.workspace_claim(), None);
            assert_eq!(local.trust(), MeshTrust::SameUserSameHost);
        }

        fn mesh_admission_decoder_refuses_what_the_contract_forbids() {
            let shape = |trust: &str, locality: &str, capabilities: &str| {
                format!(
                    r#"{{"trust":"{trust}","locality":"{locality}","deviceId":"d","sessionId":"s","capabilities":{capabilities}}}"#
                )
            };
            rejects::<MeshAdmission>(
                &shape("same-user-different-host", "another-host", r#"["message","delegate"]"#),
                "strictly ascending: `delegate` follows `message`",
            );
            rejects::<MeshAdmission>(
                &shape("same-user-different-host", "another-host", r#"["drive","drive"]"#),
                "strictly ascending: `drive` follows `drive`",
            );
            rejects::<MeshAdmission>(
                &shape("same-user-different-host", "another-host", "[]"),
                "at least one capability",
            );
            rejects::<MeshAdmission>(
                &shape("same-user-same-host", "another-host", r#"["message"]"#),
                "cannot come with the locality `another-host`",
            );
            rejects::<MeshAdmission>(
                &shape("token-only", "another-host", r#"["message"]"#),
                "unknown variant `token-only`",
            );
            rejects::<MeshAdmission>(
                &shape("same-user-same-host", "same-host", r#"["message","teleport"]"#),
                "unknown variant `teleport`",
            );
            rejects::<MeshAdmission>(
                r#"{"trust":"same-user-same-host","locality":"same-host","sessionId":"s","capabilities":["message"]}"#,
                "deviceId",
            );
        }

        fn authority_shapes_golden() {
            let peer: ConnectionPeer = golden(
                "connection_peer",
                include_str!("../golden/session_mobility/peer/connection_peer.json"),
            );
            assert_eq!(peer, all_granted());
            let anonymous: ConnectionPeer = golden(
                "connection_peer_anonymous",
                include_str!("../golden/session_mobility/peer/connection_peer_anonymous.json"),
            );
            assert_eq!((anonymous.device_id, anonymous.session_id), (None, None));
            assert!(anonymous.capabilities.is_empty());
            let connection: CapabilityApprovalRequest = golden(
                "approval_request_connection",
                include_str!("../golden/session_mobility/peer/approval_request_connection.json"),
            );
            assert_eq!(connection.scope(), CapabilityApprovalScope::Connection);
            assert_eq!(connection.summary(), None);
            let delegate: CapabilityApprovalRequest = golden(
                "approval_request_delegate",
                include_str!("../golden/session_mobility/peer/approval_request_delegate.json"),
            );
            assert_eq!(delegate.summary(), Some("run the tests"));
            assert_eq!(delegate.device_id(), Some("dev-laptop"));
            let file: CapabilityApprovalRequest = golden(
                "approval_request_file_without_device",
                include_str!(
                    "../golden/session_mobility/peer/approval_request_file_without_device.json"
                ),
            );
            assert_eq!(file.device_id(), None);
            assert_eq!(file.locality(), PeerReach::SameHost);
            let allowed: CapabilityDecision = golden(
                "decision_allowed",
                include_str!("../golden/session_mobility/peer/decision_allowed.json"),
            );
            assert_eq!(allowed, ALLOWED);
            let refused: CapabilityDecision = golden(
                "decision_refused",
                include_str!("../golden/session_mobility/peer/decision_refused.json"),
            );
            assert_eq!(refused, NO_APPROVER);
            let request: DelegationRequest = golden(
                "delegation_request",
                include_str!("../golden/session_mobility/peer/delegation_request.json"),
            );
            assert_eq!((request.request_id.as_str(), request.task.as_str()), ("r1", "run the tests"));
            let approved: DelegationDecision = golden(
                "delegation_allowed",
                include_str!("../golden/session_mobility/peer/delegation_allowed.json"),
            );
            let turn = approved.turn().expect("an approved delegation");
            assert_eq!(turn.driver_id(), "peer:dev-laptop");
            assert_eq!(turn.peer().reach, None);
            let declined: DelegationDecision = golden(
                "delegation_refused",
                include_str!("../golden/session_mobility/peer/delegation_refused.json"),
            );
            assert_eq!(declined.refusal(), Some(CapabilityRefusal::Declined));
            let file_offer: FileOffer = golden(
                "file_offer",
                include_str!("../golden/session_mobility/peer/file_offer.json"),
            );
            assert_eq!(file_offer, offer("report.pdf", 1_048_576));
        }

        fn authority_decoders_refuse_what_the_contract_forbids() {
            type Q = CapabilityApprovalRequest;
            rejects::<Q>(
                r#"{"capability":"observe","scope":"connection","locality":"same-host","summary":"x"}"#,
                "carries no `summary`",
            );
            rejects::<Q>(
                r#"{"capability":"observe","scope":"request","locality":"same-host"}"#,
                "`observe` is approved every-connection, not with the scope `request`",
            );
            rejects::<Q>(
                r#"{"capability":"delegate","scope":"connection","locality":"same-host"}"#,
                "not with the scope `connection`",
            );
            rejects::<Q>(
                r#"{"capability":"presence","scope":"request","locality":"same-host"}"#,
                "`presence` needs no approval",
            );
            rejects::<Q>(
                r#"{"capability":"drive","scope":"always","locality":"same-host"}"#,
                "unknown variant `always`",
            );
            rejects::<CapabilityDecision>(r#"{"allowed":true,"reason":"declined"}"#, "has no `reason`");
            rejects::<CapabilityDecision>(r#"{"allowed":false}"#, "needs a `reason`");
            rejects::<CapabilityDecision>(r#"{"allowed":false,"reason":"busy"}"#, "unknown variant");
            rejects::<CapabilityDecision>(r#"{"reason":"declined"}"#, "allowed");
            let turn = |source: &str, driver: &str| {
                format!(
                    r#"{{"allowed":true,"turn":{{"input":"t","options":{{"turnSource":"{source}","driverId":"{driver}","peer":{{"messageId":"r1","replyTo":"s"}}}}}}}}"#
                )
            };
            rejects::<DelegationDecision>(&turn("user", "peer:x"), "is `peer`, not `user`");
            rejects::<DelegationDecision>(&turn("peer", "owner"), "starts with `peer:`");
            rejects::<DelegationDecision>(r#"{"allowed":true}"#, "needs its `turn`");
            rejects::<DelegationDecision>(
                r#"{"allowed":false,"reason":"declined","turn":{"input":"t","options":{"turnSource":"peer","driverId":"peer:x","peer":{"messageId":"r","replyTo":"s"}}}}"#,
                "has no `turn`",
            );
            rejects::<DelegationDecision>(r#"{"allowed":false}"#, "needs a `reason`");
            rejects::<ConnectionPeer>(
                r#"{"locality":"same-host","capabilities":["observe","message"]}"#,
                "strictly ascending",
            );
            rejects::<ConnectionPeer>(r#"{"locality":"nearby","capabilities":[]}"#, "unknown variant");
            rejects::<DelegationRequest>(r#"{"requestId":"r1"}"#, "task");
        }

        fn file_offer_decoder_refuses_bad_input() {
            let offer_json = |size: &str, sha: &str| {
                format!(r#"{{"transferId":"t","name":"n","size":{size},"sha256":"{sha}"}}"#)
            };
            let upper = HASH_A.to_uppercase();
            rejects::<FileOffer>(&offer_json("1", &upper), "lowercase hex");
            rejects::<FileOffer>(&offer_json("1", "abc"), "found 3 bytes");
            rejects::<FileOffer>(&offer_json("1", &format!("{HASH_A}0")), "found 65 bytes");
            let with_g = format!("g{}", &HASH_A[1..]);
            rejects::<FileOffer>(&offer_json("1", &with_g), "lowercase hex");
            rejects::<FileOffer>(&offer_json("-1", HASH_A), "invalid value");
            rejects::<FileOffer>(&offer_json("1.5", HASH_A), "invalid type");
        }
    }

    mod admission {
        fn evidence_axes_classify_separately() {
            use PeerEnvironmentProof::{SameUserDifferentHost, SameUserSameHost};
            use PeerPresentation::{Open, Token};
            let cases = [
                (None, None, PeerTrust::Unproven),
                (Some(Token), None, PeerTrust::TokenOnly),
                (Some(Open), None, PeerTrust::TokenOnly),
                (None, Some(SameUserSameHost), PeerTrust::SameUserSameHost),
                (Some(Token), Some(SameUserSameHost), PeerTrust::SameUserSameHost),
                (Some(Open), Some(SameUserSameHost), PeerTrust::SameUserSameHost),
                (None, Some(SameUserDifferentHost), PeerTrust::SameUserDifferentHost),
                (Some(Token), Some(SameUserDifferentHost), PeerTrust::SameUserDifferentHost),
                (Some(Open), Some(SameUserDifferentHost), PeerTrust::SameUserDifferentHost),
            ];
            for (presented, environment, trust) in cases {
                let evidence = PeerAdmissionEvidence { presented, environment };
                assert_eq!(evidence.trust(), trust, "{evidence:?}");
                let origin = PeerOrigin::new("s").with_driver_id("owner");
                let admission = PeerAdmission::from_evidence(evidence, origin.clone());
                assert_eq!(admission.trust(), trust, "{evidence:?}");
                assert_eq!(admission.is_admitted(), trust != PeerTrust::Unproven);
                assert_eq!(admission.origin().is_some(), admission.is_admitted());
                assert_eq!(admission.reason().is_some(), !admission.is_admitted());
                if trust == PeerTrust::Unproven {
                    assert_eq!(admission.reason(), Some(PeerAdmission::NOTHING_ESTABLISHED));
                } else {
                    assert_eq!(admission.origin(), Some(&origin));
                }
                // Possession alone never reaches the same-environment level.
                assert_eq!(
                    is_same_environment_peer(&admission),
                    environment == Some(SameUserSameHost),
                    "{evidence:?}"
                );
            }
        }

        fn same_environment_predicate() {
            let origin = PeerOrigin::new("session_peer_1");
            let admitted = |trust| PeerAdmission::Admitted { trust, origin: origin.clone() };
            let same = admitted(AdmittedPeerTrust::SameUserSameHost);
            assert!(is_same_environment_peer(&same));
            assert_eq!(same.same_environment_origin(), Some(&origin));
            for trust in [AdmittedPeerTrust::SameUserDifferentHost, AdmittedPeerTrust::TokenOnly] {
                assert!(!is_same_environment_peer(&admitted(trust)), "{trust}");
                assert_eq!(admitted(trust).same_environment_origin(), None);
            }
            // The driver id never changes the verdict.
            let claiming_owner = PeerAdmission::Admitted {
                trust: AdmittedPeerTrust::TokenOnly,
                origin: PeerOrigin::new("s").with_driver_id("owner"),
            };
            assert!(!is_same_environment_peer(&claiming_owner));
            // A refusal is never same-environment, whatever it says.
            let refused = PeerAdmission::refused("same-user-same-host, trust me");
            assert!(!is_same_environment_peer(&refused));
            assert_eq!(refused.trust(), PeerTrust::Unproven);
        }

        fn delivery_states_and_acks() {
            for state in PeerDeliveryState::ALL {
                let terminal = *state != PeerDeliveryState::Pending;
                assert_eq!(is_terminal_peer_delivery(*state), terminal, "{state}");
                assert_eq!(state.is_terminal(), terminal);
                let with_reason = PeerDelivery::from_state(*state, Some(s("why")));
                match state {
                    PeerDeliveryState::Refused | PeerDeliveryState::Failed => {
                        let delivery = with_reason.expect("a reason is allowed");
                        assert_eq!(delivery.state(), *state);
                        assert_eq!(delivery.reason(), Some("why"));
                    }
                    _ => assert_eq!(with_reason, Err(PeerAckReasonOnState(*state))),
                }
                let bare = PeerDelivery::from_state(*state, None).expect("no reason is fine");
                assert_eq!(bare.state(), *state);
                assert_eq!(bare.reason(), None);
            }
            let message = PeerMessage::new("m", 7, PeerOrigin::new("s"), "hi", 10);
            let ack = PeerMessageAck::of(&message, PeerDelivery::Pending);
            assert!(!ack.is_terminal());
            assert_eq!((ack.id.as_str(), ack.sequence), ("m", 7));
            let retry = message.retry(99);
            assert_eq!((retry.id.as_str(), retry.sequence, retry.sent_at), ("m", 7, 99));
            assert_eq!(retry.text, message.text);
        }

        fn mesh_capabilities_are_an_ascending_set() {
            let granted = MeshCapabilities::granted(
                [Presence, Drive, Message, Delegate, Drive, File],
                [Message, Presence, Observe, Delegate, Handoff],
            );
            assert_eq!(granted.to_vec(), vec![Delegate, Message, Presence]);
            assert_eq!(granted.len(), 3);
            assert!(granted.contains(Message) && !granted.contains(Drive));
            assert_eq!(granted.without(Message).to_vec(), vec![Delegate, Presence]);
            assert_eq!(MeshCapabilities::ALL.len(), MeshCapability::ALL.len());
            assert_eq!(MeshCapabilities::ALL.to_vec(), MeshCapability::ALL.to_vec());
            assert!(MeshCapabilities::EMPTY.is_empty());
            assert!(MeshCapabilities::granted([Drive], [Observe]).is_empty());
            // The order of the variants is the order of their literals (the wire's rule).
            let mut literals = MeshCapability::LITERALS.to_vec();
            literals.sort_unstable();
            assert_eq!(literals, MeshCapability::LITERALS);
            assert_eq!(
                MeshCapabilities::from_ascending(&[Drive, Delegate]),
                Err(MeshCapabilitiesNotAscending { previous: Drive, found: Delegate })
            );
            assert_eq!(
                MeshCapabilities::from_ascending(&[Delegate, File, File]),
                Err(MeshCapabilitiesNotAscending { previous: File, found: File })
            );
            assert_eq!(MeshCapabilities::from_ascending(&[Delegate, File]), Ok(MeshCapabilities::granted([File, Delegate], [Delegate, File])));
            assert_eq!(format!("{granted:?}"), "{Delegate, Message, Presence}");
        }

        fn mesh_admission_keeps_its_axes_apart() {
            let caps = MeshCapabilities::granted([Delegate, Message], MeshCapabilities::ALL.iter());
            assert_eq!(
                MeshAdmission::new(MeshTrust::SameUserDifferentHost, PeerReach::AnotherHost, "d", "s", MeshCapabilities::EMPTY),
                Err(MeshAdmissionError::NoCapabilities)
            );
            assert_eq!(
                MeshAdmission::new(MeshTrust::SameUserSameHost, PeerReach::AnotherHost, "d", "s", caps),
                Err(MeshAdmissionError::SameHostTrustOnAnotherHost)
            );
            let admission = MeshAdmission::new(MeshTrust::SameUserDifferentHost, PeerReach::SameHost, "d", "s", caps)
                .expect("a device grant says nothing about the machine")
                .with_workspace_claim("repo");
            assert_eq!(PeerTrust::from(admission.trust()), PeerTrust::SameUserDifferentHost);
            assert_eq!(AdmittedPeerTrust::from(MeshTrust::SameUserSameHost), AdmittedPeerTrust::SameUserSameHost);
            let peer = ConnectionPeer::from(&admission);
            assert_eq!(peer.device_id.as_deref(), Some("d"));
            assert_eq!(peer.session_id.as_deref(), Some("s"));
            assert_eq!(peer.locality, PeerReach::SameHost);
            assert_eq!(peer.capabilities, caps);
            assert!(!to_json(&peer).to_string().contains("repo"), "the workspace claim stays behind");
            assert_eq!(ConnectionPeer::from(admission.clone()), peer);
        }

        fn authority_comes_from_capabilities_not_locality_or_workspace() {
            // Two admissions that differ only in locality and workspace decide alike.
            let caps = MeshCapabilities::granted([Delegate, Drive, Message], MeshCapabilities::ALL.iter());
            let near = MeshAdmission::new(MeshTrust::SameUserDifferentHost, PeerReach::SameHost, "d", "s", caps)
                .expect("valid")
                .with_workspace_claim("this-repo");
            let far = MeshAdmission::new(MeshTrust::SameUserDifferentHost, PeerReach::AnotherHost, "d", "s", caps)
                .expect("valid");
            for capability in MeshCapability::ALL {
                let a = Approver::replying(Reply::Yes);
                let b = Approver::replying(Reply::Yes);
                let near_authority = ConnectionAuthority::new(ConnectionPeer::from(&near), Some(&a));
                let far_authority = ConnectionAuthority::new(ConnectionPeer::from(&far), Some(&b));
                let x = block_on(near_authority.authorize(*capability, options(Some("x"))));
                let y = block_on(far_authority.authorize(*capability, options(Some("x"))));
                assert_eq!(x, y, "{capability}");
                assert_eq!(x.is_allowed(), caps.contains(*capability), "{capability}");
                assert_eq!(a.asked(), b.asked(), "{capability}");
            }
        }

        fn approval_table_and_questions() {
            let table = [
                (Presence, CapabilityApproval::Never),
                (Message, CapabilityApproval::Never),
                (Delegate, CapabilityApproval::EveryRequest),
                (File, CapabilityApproval::EveryRequest),
                (Handoff, CapabilityApproval::EveryRequest),
                (Observe, CapabilityApproval::EveryConnection),
                (Drive, CapabilityApproval::EveryConnection),
            ];
            assert_eq!(table.len(), MeshCapability::ALL.len());
            for (capability, approval) in table {
                assert_eq!(capability_approval(capability), approval, "{capability}");
                let question = CapabilityApprovalRequest::new(capability, Some(s("d")), PeerReach::SameHost, None);
                match approval.scope() {
                    None => assert_eq!(question, Err(ApprovalRequestError::NotAsked(capability))),
                    Some(scope) => assert_eq!(question.expect("asked").scope(), scope),
                }
            }
            assert_eq!(
                CapabilityApprovalRequest::new(Observe, None, PeerReach::SameHost, Some(s("x"))),
                Err(ApprovalRequestError::SummaryOnConnectionScope)
            );
            let question = CapabilityApprovalRequest::new(File, None, PeerReach::AnotherHost, Some(s("f")))
                .expect("a request question");
            assert_eq!((question.capability(), question.summary(), question.device_id()), (File, Some("f"), None));
        }

        fn file_offers_and_verification() {
            let report = offer("report.pdf", 1_048_576);
            assert_eq!(
                report.approval_summary(),
                format!("report.pdf (1048576 bytes, sha256 {HASH_A})")
            );
            let hostile = offer("../../etc/passwd", 3);
            assert_eq!(hostile.approval_summary(), format!("../../etc/passwd (3 bytes, sha256 {HASH_A})"));
            let digest = Sha256Digest([0xab; 32]);
            assert_eq!(format!("{digest}"), "ab".repeat(32));
            assert_eq!("ab".repeat(32).parse(), Ok(digest));
            assert_eq!("AB".repeat(32).parse::<Sha256Digest>(), Err(InvalidSha256Digest::NotLowercaseHex));
            assert_eq!("".parse::<Sha256Digest>(), Err(InvalidSha256Digest::Length(0)));
            assert_eq!(format!("{}", InvalidSha256Digest::Length(3)), "a sha256 is 64 lowercase hex characters, found 3 bytes");
            let approved = report.sha256;
            assert_eq!(report.verify_received(1_048_576, &approved), Ok(()));
            assert_eq!(
                report.verify_received(1_048_575, &approved),
                Err(FileVerificationError::SizeMismatch { offered: 1_048_576, received: 1_048_575 })
            );
            assert_eq!(report.verify_received(1_048_576, &digest), Err(FileVerificationError::DigestMismatch));
        }

        fn file_channel_port_is_object_safe() {
            let channel = LoopbackChannel::default();
            let port: &dyn FileFrameChannel<Error = ChannelClosed> = &channel;
            let seen = Rc::new(RefCell::new(Vec::<String>::new()));
            let closes = Rc::new(Cell::new(0));
            let sink = seen.clone();
            let on_frame: FileFrameHandler = Rc::new(move |frame| sink.borrow_mut().push(String::from(frame)));
            let counter = closes.clone();
            let on_close: FileCloseHandler = Rc::new(move || counter.set(counter.get() + 1));
            port.on_frame(on_frame.clone());
            port.on_close(on_close);
            port.send("chunk-1").expect("open");
            port.off_frame(&on_frame);
            port.send("chunk-2").expect("open");
            port.close();
            port.close();
            assert_eq!(*seen.borrow(), vec![s("chunk-1")]);
            assert_eq!(closes.get(), 1);
            assert!(port.send("late").is_err());
        }
    }

    mod authority {
        fn never_capabilities_ask_nobody() {
            let approver = Approver::replying(Reply::No);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let raised = Cell::new(true);
            for capability in [Presence, Message] {
                assert_eq!(block_on(authority.authorize(capability, options(None))), ALLOWED);
                let aborted = AuthorizeOptions::default().with_summary("s").with_signal(&raised);
                assert_eq!(block_on(authority.authorize(capability, aborted)), ALLOWED);
            }
            let unattended: ConnectionAuthority<NoOperator> = ConnectionAuthority::unattended(all_granted());
            assert!(!unattended.has_approver());
            assert_eq!(block_on(unattended.authorize(Message, options(None))), ALLOWED);
            assert_eq!(approver.asked(), 0);
        }

        fn ungranted_capabilities_are_refused_without_a_question() {
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(laptop(MeshCapabilities::EMPTY.with(Presence)), Some(&approver));
            for capability in [Message, Drive, Observe, Delegate, File, Handoff] {
                assert_eq!(block_on(authority.authorize(capability, options(Some("x")))), NOT_GRANTED, "{capability}");
            }
            let request = DelegationRequest::new("r1", "t");
            assert_eq!(block_on(authority.authorize_delegation(&request, None)), DelegationDecision::Refused(CapabilityRefusal::NotGranted));
            assert_eq!(block_on(authority.authorize_file(&offer("f", 1), None)), NOT_GRANTED);
            assert_eq!(approver.asked(), 0);
        }

        fn connection_questions_are_asked_once_and_kept() {
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            assert_eq!(block_on(authority.authorize(Drive, options(Some("ignored")))), ALLOWED);
            assert_eq!(block_on(authority.authorize(Drive, options(None))), ALLOWED);
            assert_eq!(approver.asked(), 1);
            assert_eq!(
                approver.questions_json()[0],
                serde_json::json!({"capability": "drive", "scope": "connection", "deviceId": "dev-laptop", "locality": "another-host"})
            );
            assert!(!approver.question(0).signal_passed);
            assert_eq!(authority.connection_answer(Drive), Some(ALLOWED));
            assert_eq!(authority.connection_answer(Observe), None);
            // Observe is its own question.
            assert_eq!(block_on(authority.authorize(Observe, options(None))), ALLOWED);
            assert_eq!(approver.asked(), 2);
            // A new connection asks again, however recently the device was allowed.
            let again = ConnectionAuthority::new(all_granted(), Some(&approver));
            assert_eq!(again.connection_answer(Drive), None);
            assert_eq!(block_on(again.authorize(Drive, options(None))), ALLOWED);
            assert_eq!(approver.asked(), 3);
        }

        fn a_declined_connection_stays_declined() {
            for reply in [Reply::No, Reply::Fails] {
                let approver = Approver::replying(reply).then(reply);
                let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
                approver.default.set(Some(Reply::Yes));
                assert_eq!(block_on(authority.authorize(Observe, options(None))), DECLINED, "{reply:?}");
                assert_eq!(block_on(authority.authorize(Observe, options(None))), DECLINED, "{reply:?}");
                assert_eq!(approver.asked(), 1, "{reply:?}: declined is kept");
                assert_eq!(authority.connection_answer(Observe), Some(DECLINED));
            }
        }

        fn no_operator_is_no_approver_and_nothing_is_kept() {
            let authority = ConnectionAuthority::unattended(all_granted());
            let raised = Cell::new(true);
            for capability in [Drive, Observe, Delegate, File, Handoff] {
                assert_eq!(block_on(authority.authorize(capability, options(None))), NO_APPROVER);
                let aborted = AuthorizeOptions::default().with_signal(&raised);
                assert_eq!(block_on(authority.authorize(capability, aborted)), NO_APPROVER, "{capability}");
                assert_eq!(authority.connection_answer(capability), None);
            }
            let with_none: ConnectionAuthority<&Approver> = ConnectionAuthority::new(all_granted(), None);
            assert_eq!(block_on(with_none.authorize(Drive, options(None))), NO_APPROVER);
        }

        fn an_abort_declines_only_its_own_call() {
            // Departure 6: the reference keeps an aborted first ask for the whole connection.
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let raised = Cell::new(true);
            let aborted = AuthorizeOptions::default().with_signal(&raised);
            assert_eq!(block_on(authority.authorize(Drive, aborted)), DECLINED);
            assert_eq!(approver.asked(), 0, "an already-aborted call asks nobody");
            assert_eq!(authority.connection_answer(Drive), None);
            assert_eq!(block_on(authority.authorize(Drive, options(None))), ALLOWED);
            assert_eq!(approver.asked(), 1);

            // Aborted while asking, whatever the answer: declined, nothing kept.
            for reply in [Reply::AbortThen(true), Reply::AbortThen(false), Reply::YesAfterAbort] {
                let approver = Approver::replying(reply).then(reply);
                approver.default.set(Some(Reply::Yes));
                let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
                let signal = Rc::new(Cell::new(false));
                approver.arm(&signal);
                let live = AuthorizeOptions::default().with_signal(&*signal);
                assert_eq!(block_on(authority.authorize(Observe, live)), DECLINED, "{reply:?}");
                let question = approver.question(0);
                assert!(question.signal_passed && !question.aborted_at_ask, "{reply:?}");
                assert_eq!(authority.connection_answer(Observe), None, "{reply:?}");
                assert_eq!(block_on(authority.authorize(Observe, options(None))), ALLOWED, "{reply:?}");
                assert_eq!(approver.asked(), 2, "{reply:?}: the next call asks again");
                // The same for a request-scoped question.
                let approver = Approver::replying(reply);
                let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
                let signal = Rc::new(Cell::new(false));
                approver.arm(&signal);
                let live = AuthorizeOptions::default().with_summary("s").with_signal(&*signal);
                assert_eq!(block_on(authority.authorize(Handoff, live)), DECLINED, "{reply:?}");
            }
        }

        fn request_questions_are_asked_every_time() {
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            assert_eq!(block_on(authority.authorize(Delegate, options(Some("a")))), ALLOWED);
            assert_eq!(block_on(authority.authorize(Delegate, options(Some("a")))), ALLOWED);
            let both = run_all(vec![
                authority.authorize(Handoff, options(None)),
                authority.authorize(Handoff, options(None)),
            ]);
            assert_eq!(both, vec![ALLOWED, ALLOWED]);
            assert_eq!(block_on(authority.authorize(File, options(None))), ALLOWED);
            assert_eq!(approver.asked(), 5);
            let json = approver.questions_json();
            assert_eq!(json[0], serde_json::json!({"capability": "delegate", "scope": "request", "deviceId": "dev-laptop", "locality": "another-host", "summary": "a"}));
            assert_eq!(json[2], serde_json::json!({"capability": "handoff", "scope": "request", "deviceId": "dev-laptop", "locality": "another-host"}));
            assert_eq!(authority.connection_answer(Delegate), None);
            let declining = Approver::replying(Reply::No);
            let authority = ConnectionAuthority::new(all_granted(), Some(&declining));
            assert_eq!(block_on(authority.authorize(File, options(None))), DECLINED);
            assert_eq!(block_on(authority.authorize(File, options(None))), DECLINED);
            assert_eq!(declining.asked(), 2, "a request-scoped no is not kept");
        }

        fn a_question_without_device_id_names_only_the_locality() {
            let approver = Approver::replying(Reply::Yes);
            let peer = ConnectionPeer { device_id: None, session_id: None, locality: PeerReach::SameHost, capabilities: MeshCapabilities::ALL };
            let authority = ConnectionAuthority::new(peer, Some(&approver));
            assert_eq!(block_on(authority.authorize(Observe, options(Some("x")))), ALLOWED);
            assert_eq!(block_on(authority.authorize(Delegate, options(Some("x")))), ALLOWED);
            assert_eq!(
                approver.questions_json(),
                vec![
                    serde_json::json!({"capability": "observe", "scope": "connection", "locality": "same-host"}),
                    serde_json::json!({"capability": "delegate", "scope": "request", "locality": "same-host", "summary": "x"}),
                ]
            );
        }

        fn concurrent_callers_share_one_question() {
            let approver = Approver::replying(Reply::Wait);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let mut tasks: Vec<Task<'_, CapabilityDecision>> =
                (0..3).map(|_| Task::spawn(authority.authorize(Observe, options(None)))).collect();
            settle_tasks(&mut tasks);
            assert_eq!(approver.asked(), 1, "one question for three callers");
            assert!(tasks.iter().all(Task::pending));
            approver.answer(0, Ok(true));
            assert!(tasks[0].woken(), "the approver wakes the caller asking");
            settle_tasks(&mut tasks);
            for task in &tasks {
                assert_eq!(task.output, Some(ALLOWED), "every caller gets the one answer");
            }
            assert_eq!(approver.asked(), 1);
            // Three more later: the kept answer, no question.
            let more = run_all((0..3).map(|_| authority.authorize(Observe, options(None))).collect());
            assert_eq!(more, vec![ALLOWED; 3]);
            assert_eq!(approver.asked(), 1);
        }

        fn a_dropped_asker_hands_the_question_over() {
            let approver = Approver::replying(Reply::Wait);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let mut asker = Task::spawn(authority.authorize(Drive, options(None)));
            let mut waiter = Task::spawn(authority.authorize(Drive, options(None)));
            asker.run();
            waiter.run();
            assert_eq!(approver.asked(), 1);
            assert!(!waiter.woken());
            drop(asker);
            assert!(approver.open_question(0).expect("open").dropped.get(), "the question is withdrawn");
            assert!(waiter.woken(), "dropping the asker wakes the waiter");
            waiter.run();
            assert_eq!(approver.asked(), 2, "the waiter asks again");
            approver.answer(1, Ok(false));
            assert!(waiter.woken());
            waiter.run();
            assert_eq!(waiter.output, Some(DECLINED));
            assert_eq!(authority.connection_answer(Drive), Some(DECLINED));
        }

        fn an_interrupted_asker_hands_the_question_over() {
            let approver = Approver::replying(Reply::Wait);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let authority = &authority;
            let signal = Rc::new(Cell::new(false));
            let first_signal = signal.clone();
            let mut asker = Task::spawn(async move {
                let signal = first_signal;
                authority.authorize(Observe, AuthorizeOptions::default().with_signal(&*signal)).await
            });
            let waiter_signal = Rc::new(Cell::new(false));
            let second = waiter_signal.clone();
            let mut waiter = Task::spawn(async move {
                let signal = second;
                authority.authorize(Observe, AuthorizeOptions::default().with_signal(&*signal)).await
            });
            asker.run();
            waiter.run();
            signal.set(true);
            asker.nudge();
            asker.run();
            assert_eq!(asker.output, Some(DECLINED), "the interrupted call is declined");
            assert_eq!(authority.connection_answer(Observe), None, "and nothing is kept");
            assert!(waiter.woken());
            waiter.run();
            assert_eq!(approver.asked(), 2, "the waiter asks again with its own signal");
            assert!(approver.question(1).signal_passed);
            approver.answer(1, Ok(true));
            waiter.run();
            assert_eq!(waiter.output, Some(ALLOWED));
            // A waiter's own abort ends only its own wait.
            let approver = Approver::replying(Reply::Wait);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let authority = &authority;
            let mut asker = Task::spawn(authority.authorize(Drive, options(None)));
            let raised = Rc::new(Cell::new(false));
            let held = raised.clone();
            let mut waiter = Task::spawn(async move {
                let signal = held;
                authority.authorize(Drive, AuthorizeOptions::default().with_signal(&*signal)).await
            });
            asker.run();
            waiter.run();
            raised.set(true);
            waiter.nudge();
            waiter.run();
            assert_eq!(waiter.output, Some(DECLINED));
            assert!(asker.pending());
            approver.answer(0, Ok(true));
            asker.run();
            assert_eq!(asker.output, Some(ALLOWED));
            assert_eq!(approver.asked(), 1);
        }

        fn ending_the_connection_refuses_everything() {
            for how in [ConnectionEnd::Closed, ConnectionEnd::Replaced, ConnectionEnd::Revoked] {
                let approver = Approver::replying(Reply::Wait);
                let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
                let mut pending: Vec<Task<'_, CapabilityDecision>> = vec![
                    Task::spawn(authority.authorize(Drive, options(None))),
                    Task::spawn(authority.authorize(Drive, options(None))),
                    Task::spawn(authority.authorize(Delegate, options(Some("t")))),
                ];
                settle_tasks(&mut pending);
                assert_eq!(approver.asked(), 2);
                assert_eq!(authority.ended(), None);
                authority.end(how);
                assert_eq!(authority.ended(), Some(how));
                assert!(pending.iter().all(Task::woken), "{how}: every pending call is woken");
                // The operator says yes too late: it changes nothing.
                approver.answer(0, Ok(true));
                approver.answer(1, Ok(true));
                settle_tasks(&mut pending);
                for task in &pending {
                    assert_eq!(task.output, Some(NOT_GRANTED), "{how}");
                }
                let before = format!("{authority:?}");
                for capability in MeshCapability::ALL {
                    assert_eq!(block_on(authority.authorize(*capability, options(None))), NOT_GRANTED, "{how} {capability}");
                }
                let request = DelegationRequest::new("r", "t");
                assert_eq!(block_on(authority.authorize_delegation(&request, None)).refusal(), Some(CapabilityRefusal::NotGranted));
                assert_eq!(block_on(authority.authorize_file(&offer("f", 1), None)), NOT_GRANTED);
                assert_eq!(format!("{authority:?}"), before, "{how}: a refused call changes nothing");
                assert_eq!(approver.asked(), 2, "{how}: nobody is asked after the end");
                assert_eq!(authority.connection_answer(Drive), None);
                authority.end(ConnectionEnd::Closed);
                assert_eq!(authority.ended(), Some(how), "the first end is kept");
            }
            // An end also overrides a kept yes.
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            assert_eq!(block_on(authority.authorize(Observe, options(None))), ALLOWED);
            authority.end(ConnectionEnd::Revoked);
            assert_eq!(block_on(authority.authorize(Observe, options(None))), NOT_GRANTED);
            assert_eq!(block_on(authority.authorize(Presence, options(None))), NOT_GRANTED);
        }

        fn a_yes_given_as_the_connection_ends_allows_nothing() {
            /// An operator whose answer comes with the end of the connection (its UI closed it).
            struct Ending<'a> {
                target: Cell<Option<&'a ConnectionAuthority<&'a Ending<'a>>>>,
            }
            impl OperatorApprover for Ending<'_> {
                async fn approve(
                    &self,
                    _request: &CapabilityApprovalRequest,
                    _signal: Option<&dyn AbortSignal>,
                ) -> Result<bool, ErrorValue> {
                    if let Some(authority) = self.target.get() {
                        authority.end(ConnectionEnd::Replaced);
                    }
                    Ok(true)
                }
            }
            let approver = Ending { target: Cell::new(None) };
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            approver.target.set(Some(&authority));
            assert_eq!(block_on(authority.authorize(Drive, options(None))), NOT_GRANTED);
            assert_eq!(authority.connection_answer(Drive), None);
            assert_eq!(authority.ended(), Some(ConnectionEnd::Replaced));
            let fresh = ConnectionAuthority::new(all_granted(), Some(&approver));
            approver.target.set(Some(&fresh));
            assert_eq!(block_on(fresh.authorize(Delegate, options(Some("t")))), NOT_GRANTED);
        }

        fn refused_calls_leave_the_authority_unchanged() {
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(laptop(MeshCapabilities::granted([Drive, Presence], MeshCapabilities::ALL.iter())), Some(&approver));
            assert_eq!(block_on(authority.authorize(Drive, options(None))), ALLOWED);
            let before = format!("{authority:?}");
            let raised = Cell::new(true);
            assert_eq!(block_on(authority.authorize(Observe, options(None))), NOT_GRANTED);
            assert_eq!(block_on(authority.authorize(Handoff, AuthorizeOptions::default().with_signal(&raised))), NOT_GRANTED);
            assert_eq!(format!("{authority:?}"), before);
            let unattended = ConnectionAuthority::unattended(all_granted());
            let before = format!("{unattended:?}");
            assert_eq!(block_on(unattended.authorize(Observe, options(None))), NO_APPROVER);
            assert_eq!(format!("{unattended:?}"), before);
        }

        fn an_approved_delegation_is_a_peer_turn_from_stored_data() {
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(laptop(MeshCapabilities::ALL), Some(&approver));
            // The request claims a reach, a source, a driver and a permission mode: none is read.
            let request: DelegationRequest = crate::support::decode(&serde_json::json!({
                "requestId": "r1", "task": "clean up", "permissionMode": "bypassPermissions",
                "allowedTools": ["Bash"], "reach": "same-host", "turnSource": "user", "driverId": "owner"
            }));
            let decision = block_on(authority.authorize_delegation(&request, None));
            assert_eq!(
                to_json(&decision),
                serde_json::json!({"allowed": true, "turn": {"input": "clean up", "options": {
                    "turnSource": "peer", "driverId": "peer:dev-laptop",
                    "peer": {"messageId": "r1", "replyTo": "session-laptop"}}}})
            );
            assert_eq!(
                approver.questions_json(),
                vec![serde_json::json!({"capability": "delegate", "scope": "request", "deviceId": "dev-laptop", "locality": "another-host", "summary": "clean up"})]
            );
            let turn = decision.turn().expect("approved").clone();
            assert_eq!(turn.input(), "clean up");
            assert_eq!(turn.peer(), &PeerTurnContext::new("r1", "session-laptop"));
            let options = turn.submit_options();
            assert_eq!(options.validate(), Ok(()));
            assert_eq!(options.turn_source, Some(TurnSource::Peer));
            assert_eq!(options.attributed_driver_id(), Some("peer:dev-laptop"));
            assert_eq!(options.peer.as_ref(), Some(turn.peer()));
            let (input, submitted) = turn.clone().into_submission();
            assert_eq!((input.as_str(), submitted), ("clean up", options));
            assert_eq!(DelegatedTurn::DRIVER_PREFIX, "peer:");
        }

        fn delegation_attribution_follows_the_admitted_ids() {
            let request = DelegationRequest::new("r2", "");
            /// device id, session id, and the expected (driver id, reply route).
            type Case<'a> = (Option<&'a str>, Option<&'a str>, Option<(&'a str, &'a str)>);
            let cases: [Case<'_>; 5] = [
                (Some("dev-laptop"), Some("session-laptop"), Some(("peer:dev-laptop", "session-laptop"))),
                (None, Some("session-laptop"), Some(("peer:session-laptop", "session-laptop"))),
                (Some("dev-laptop"), None, None),
                (Some(""), Some("session-laptop"), Some(("peer:", "session-laptop"))),
                (Some("dev-laptop"), Some(""), Some(("peer:dev-laptop", ""))),
            ];
            for (device, session, expected) in cases {
                let approver = Approver::replying(Reply::Yes);
                let peer = ConnectionPeer { device_id: device.map(String::from), session_id: session.map(String::from), locality: PeerReach::SameHost, capabilities: MeshCapabilities::ALL };
                let authority = ConnectionAuthority::new(peer, Some(&approver));
                let decision = block_on(authority.authorize_delegation(&request, None));
                match expected {
                    None => {
                        assert_eq!(decision, DelegationDecision::Refused(CapabilityRefusal::NotGranted));
                        assert_eq!(approver.asked(), 0, "nowhere to answer: nobody asked");
                    }
                    Some((driver, reply_to)) => {
                        let turn = decision.turn().expect("approved");
                        assert_eq!((turn.driver_id(), turn.peer().reply_to.as_str()), (driver, reply_to));
                        assert_eq!(turn.peer().message_id, "r2");
                        assert_eq!(turn.submit_options().validate(), Ok(()));
                    }
                }
            }
            for (reply, expected) in [(Reply::No, CapabilityRefusal::Declined), (Reply::Fails, CapabilityRefusal::Declined)] {
                let approver = Approver::replying(reply);
                let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
                assert_eq!(block_on(authority.authorize_delegation(&request, None)).refusal(), Some(expected));
            }
            let unattended = ConnectionAuthority::unattended(all_granted());
            assert_eq!(block_on(unattended.authorize_delegation(&request, None)).refusal(), Some(CapabilityRefusal::NoApprover));
            let approver = Approver::replying(Reply::Yes);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let raised = Cell::new(true);
            assert_eq!(block_on(authority.authorize_delegation(&request, Some(&raised))).refusal(), Some(CapabilityRefusal::Declined));
            assert_eq!(approver.asked(), 0);
        }

        fn a_file_question_names_the_file_exactly() {
            let approver = Approver::replying(Reply::Yes).then(Reply::No);
            let authority = ConnectionAuthority::new(all_granted(), Some(&approver));
            let report = offer("보고서 (최종).txt", 12);
            assert_eq!(block_on(authority.authorize_file(&report, None)), DECLINED);
            assert_eq!(block_on(authority.authorize_file(&report, None)), ALLOWED);
            assert_eq!(approver.asked(), 2, "every file is asked about");
            let question = approver.question(0).request;
            assert_eq!(question.scope(), CapabilityApprovalScope::Request);
            assert_eq!(question.summary(), Some(format!("보고서 (최종).txt (12 bytes, sha256 {HASH_A})").as_str()));
            let signal = Cell::new(false);
            assert_eq!(block_on(authority.authorize_file(&report, Some(&signal))), ALLOWED);
            assert!(approver.question(2).signal_passed);
        }
    }

    mod properties {
        fn sequential_calls_follow_the_model() {
            let mut total = Stats::default();
            for seed in 0..64_u64 {
                total.add(&sequential_run(seed, 500));
            }
            // 32,000 steps; the run must have reached every kind of outcome, not only refusals.
            assert_eq!(total.steps, 32_000);
            assert!(total.calls > 28_000, "{total:?}");
            assert!(total.questions > 3_500, "{total:?}");
            assert!(total.kept > 300 && total.ends > 300 && total.interrupted > 1_000, "{total:?}");
        }

        fn concurrent_callers_never_hang_or_split() {
            let mut total = Stats::default();
            for seed in 0..256_u64 {
                total.add(&concurrent_run(0xC0FF_EE00 + seed, 40));
            }
            // 10,240 steps of spawns, answers, aborts, drops and ends.
            assert_eq!(total.steps, 10_240);
            assert!(total.calls > 3_000 && total.questions > 800, "{total:?}");
            assert!(total.kept > 200 && total.handovers > 300 && total.ends > 80, "{total:?}");
            assert!(total.interrupted > 500, "{total:?}");
        }
    }
}

// ---- property tests: the sequential model ------------------------------------------------

/// What a property run exercised.
#[derive(Clone, Copy, Debug, Default)]
struct Stats {
    steps: usize,
    /// Calls whose outcome was checked.
    calls: usize,
    /// Questions the operator was asked.
    questions: usize,
    /// Connection answers kept.
    kept: usize,
    /// Connections ended.
    ends: usize,
    /// Calls interrupted by their signal, or callers dropped.
    interrupted: usize,
    /// Connection questions asked again after the asker went away.
    handovers: usize,
}

impl Stats {
    fn add(&mut self, other: &Self) {
        self.steps += other.steps;
        self.calls += other.calls;
        self.questions += other.questions;
        self.kept += other.kept;
        self.ends += other.ends;
        self.interrupted += other.interrupted;
        self.handovers += other.handovers;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SignalMode {
    None,
    Live,
    Raised,
    RaisedWhileAsking,
}

fn random_peer(rng: &mut Seeded) -> ConnectionPeer {
    let capabilities: MeshCapabilities = MeshCapability::ALL
        .iter()
        .copied()
        .filter(|_| rng.chance(2, 3))
        .collect();
    let id = |rng: &mut Seeded, name: &str| rng.chance(4, 5).then(|| s(name));
    ConnectionPeer {
        device_id: id(rng, "dev"),
        session_id: id(rng, "session"),
        locality: *rng.pick(&[PeerReach::SameHost, PeerReach::AnotherHost]),
        capabilities,
    }
}

/// What the model predicts for one authorize call: the decision, whether a question is asked,
/// and the answer kept for the connection.
fn predict(
    peer: &ConnectionPeer,
    attended: bool,
    ended: bool,
    kept: &BTreeMap<MeshCapability, CapabilityDecision>,
    capability: MeshCapability,
    signal: SignalMode,
    reply: Reply,
) -> (CapabilityDecision, bool, Option<CapabilityDecision>) {
    if ended || !peer.capabilities.contains(capability) {
        return (NOT_GRANTED, false, None);
    }
    let approval = capability_approval(capability);
    if approval == CapabilityApproval::Never {
        return (ALLOWED, false, None);
    }
    let connection = approval == CapabilityApproval::EveryConnection;
    if connection && let Some(decision) = kept.get(&capability) {
        return (*decision, false, None);
    }
    if !attended {
        return (NO_APPROVER, false, None);
    }
    if signal == SignalMode::Raised {
        return (DECLINED, false, None);
    }
    if signal == SignalMode::RaisedWhileAsking {
        return (DECLINED, true, None);
    }
    let decision = if reply == Reply::Yes {
        ALLOWED
    } else {
        DECLINED
    };
    (decision, true, connection.then_some(decision))
}

/// One seeded run of sequential calls against a model.
fn sequential_run(seed: u64, steps: usize) -> Stats {
    let mut stats = Stats::default();
    let mut rng = Seeded::new(seed);
    let approver = Approver::replying(Reply::Yes);
    let mut peer = random_peer(&mut rng);
    let mut attended = rng.chance(4, 5);
    let mut authority = ConnectionAuthority::new(peer.clone(), attended.then_some(&approver));
    let mut kept: BTreeMap<MeshCapability, CapabilityDecision> = BTreeMap::new();
    let mut ended = false;
    for step in 0..steps {
        stats.steps += 1;
        let at = || format!("seed {seed} step {step}");
        let roll = rng.below(100);
        if roll < 3 {
            peer = random_peer(&mut rng);
            attended = rng.chance(4, 5);
            authority = ConnectionAuthority::new(peer.clone(), attended.then_some(&approver));
            kept.clear();
            ended = false;
            continue;
        }
        if roll < 5 {
            let how = *rng.pick(&[
                ConnectionEnd::Closed,
                ConnectionEnd::Replaced,
                ConnectionEnd::Revoked,
            ]);
            authority.end(how);
            ended = true;
            stats.ends += 1;
            continue;
        }
        let capability = *rng.pick(MeshCapability::ALL);
        let signal = *rng.pick(&[
            SignalMode::None,
            SignalMode::Live,
            SignalMode::Raised,
            SignalMode::RaisedWhileAsking,
        ]);
        let reply = *rng.pick(&[Reply::Yes, Reply::Yes, Reply::No, Reply::Fails]);
        let summary = rng.chance(1, 2).then(|| format!("task {step}"));
        let cell = Rc::new(Cell::new(signal == SignalMode::Raised));
        approver.forget();
        approver.arm(&cell);
        approver.script.borrow_mut().clear();
        approver.script.borrow_mut().push(match signal {
            SignalMode::RaisedWhileAsking => *rng.pick(&[
                Reply::AbortThen(true),
                Reply::AbortThen(false),
                Reply::YesAfterAbort,
            ]),
            _ => reply,
        });
        let signal_ref: Option<&dyn AbortSignal> = match signal {
            SignalMode::None => None,
            _ => Some(&*cell),
        };
        let asked_before = approver.asked();
        let kind = rng.below(10);
        let (expected, asks, keep) = if kind == 0 {
            // Through the delegation path.
            let request =
                DelegationRequest::new(format!("r{step}"), summary.clone().unwrap_or_default());
            let predicted = if peer.session_id.is_none() {
                (NOT_GRANTED, false, None)
            } else {
                predict(&peer, attended, ended, &kept, Delegate, signal, reply)
            };
            let decision = block_on(authority.authorize_delegation(&request, signal_ref));
            match (&decision, predicted.0) {
                (DelegationDecision::Allowed { turn }, CapabilityDecision::Allowed) => {
                    let attributed = peer
                        .device_id
                        .as_deref()
                        .or(peer.session_id.as_deref())
                        .unwrap_or_default();
                    assert_eq!(turn.driver_id(), format!("peer:{attributed}"), "{}", at());
                    assert_eq!(turn.peer().message_id, request.request_id, "{}", at());
                    assert_eq!(
                        Some(turn.peer().reply_to.as_str()),
                        peer.session_id.as_deref(),
                        "{}",
                        at()
                    );
                    assert_eq!(turn.peer().reach, None, "{}", at());
                    assert_eq!(turn.input(), request.task, "{}", at());
                }
                (DelegationDecision::Refused(refusal), CapabilityDecision::Refused(expected)) => {
                    assert_eq!(*refusal, expected, "{}", at());
                }
                (decision, expected) => panic!("{}: {decision:?}, expected {expected:?}", at()),
            }
            (predicted.0, predicted.1, None)
        } else if kind == 1 {
            let file = offer(&format!("f{step}"), step as u64);
            let predicted = predict(&peer, attended, ended, &kept, File, signal, reply);
            let decision = block_on(authority.authorize_file(&file, signal_ref));
            assert_eq!(decision, predicted.0, "{}", at());
            if predicted.1 {
                let question = approver.question(asked_before);
                assert_eq!(
                    question.request.summary(),
                    Some(file.approval_summary().as_str()),
                    "{}",
                    at()
                );
            }
            (predicted.0, predicted.1, None)
        } else {
            let predicted = predict(&peer, attended, ended, &kept, capability, signal, reply);
            let mut options = AuthorizeOptions::new();
            options.summary = summary.as_deref();
            options.signal = signal_ref;
            let decision = block_on(authority.authorize(capability, options));
            assert_eq!(
                decision,
                predicted.0,
                "{}: {capability} {signal:?} {reply:?} (ended {ended})",
                at()
            );
            if predicted.1 {
                let question = approver.question(asked_before);
                let request = &question.request;
                assert_eq!(request.capability(), capability, "{}", at());
                assert_eq!(
                    Some(request.scope()),
                    capability_approval(capability).scope(),
                    "{}",
                    at()
                );
                assert_eq!(request.device_id(), peer.device_id.as_deref(), "{}", at());
                assert_eq!(request.locality(), peer.locality, "{}", at());
                let shown = match request.scope() {
                    CapabilityApprovalScope::Request => summary.as_deref(),
                    CapabilityApprovalScope::Connection => None,
                };
                assert_eq!(request.summary(), shown, "{}", at());
                assert_eq!(
                    question.signal_passed,
                    signal != SignalMode::None,
                    "{}",
                    at()
                );
                assert!(
                    !question.aborted_at_ask,
                    "{}: nobody is asked under a raised signal",
                    at()
                );
            }
            predicted
        };
        let asked = approver.asked() - asked_before;
        assert_eq!(
            asked,
            usize::from(asks),
            "{}: questions asked ({expected:?})",
            at()
        );
        stats.calls += 1;
        stats.questions += asked;
        stats.interrupted += usize::from(signal == SignalMode::RaisedWhileAsking && asks);
        stats.kept += usize::from(keep.is_some());
        if let Some(decision) = keep {
            let previous = kept.insert(capability, decision);
            assert_eq!(previous, None, "{}: a kept answer is asked again", at());
        }
        // The authority keeps exactly the model's answers: a declined stays declined, an abort
        // or no-approver is never kept, nothing is allowed after the end.
        for capability in MeshCapability::ALL {
            assert_eq!(
                authority.connection_answer(*capability),
                kept.get(capability).copied(),
                "{}: {capability}",
                at()
            );
        }
        if ended {
            assert_ne!(expected, ALLOWED, "{}: allowed after the end", at());
        }
    }
    stats
}

// ---- property tests: concurrent callers ---------------------------------------------------

struct Caller<'a> {
    capability: MeshCapability,
    signal: Rc<Cell<bool>>,
    task: Task<'a, CapabilityDecision>,
}

/// One seeded run of concurrent callers with open questions, drops, aborts and an end.
fn concurrent_run(seed: u64, steps: usize) -> Stats {
    let mut stats = Stats::default();
    let mut rng = Seeded::new(seed);
    let approver = Approver::replying(Reply::Wait);
    let peer = random_peer(&mut rng);
    let authority = ConnectionAuthority::new(peer.clone(), Some(&approver));
    let mut callers: Vec<Caller<'_>> = Vec::new();
    let mut settled: BTreeMap<MeshCapability, (CapabilityDecision, usize)> = BTreeMap::new();
    let mut ended = false;
    // Half the connections end, somewhere in their second half.
    let end_at = rng
        .chance(1, 2)
        .then(|| steps / 2 + rng.below(steps as u64 / 2) as usize);
    let question_count = |capability: MeshCapability| {
        approver
            .questions
            .borrow()
            .iter()
            .filter(|q| q.request.capability() == capability)
            .count()
    };
    for step in 0..steps {
        stats.steps += 1;
        let at = format!("seed {seed} step {step}");
        let roll = rng.below(100);
        let pending_callers = callers.iter().filter(|c| c.task.pending()).count();
        if end_at == Some(step) {
            authority.end(ConnectionEnd::Revoked);
            ended = true;
            stats.ends += 1;
        } else if roll < 40 && pending_callers < 10 {
            let capability = if rng.chance(3, 4) {
                *rng.pick(&[Observe, Drive])
            } else {
                *rng.pick(MeshCapability::ALL)
            };
            let signal = Rc::new(Cell::new(false));
            let held = signal.clone();
            let authority = &authority;
            let task = Task::spawn(async move {
                let signal = held;
                authority
                    .authorize(
                        capability,
                        AuthorizeOptions::default().with_signal(&*signal),
                    )
                    .await
            });
            callers.push(Caller {
                capability,
                signal,
                task,
            });
        } else if roll < 58 {
            let open: Vec<usize> = (0..approver.asked())
                .filter(|&i| {
                    approver
                        .open_question(i)
                        .is_some_and(|q| q.outstanding() && q.answer.get().is_none())
                })
                .collect();
            if !open.is_empty() {
                let index = *rng.pick(&open);
                let answer = *rng.pick(&[Ok(true), Ok(true), Ok(false), Err(())]);
                approver.answer(index, answer);
            }
        } else if roll < 78 {
            let pending: Vec<usize> = (0..callers.len())
                .filter(|&i| callers[i].task.pending())
                .collect();
            if !pending.is_empty() {
                let caller = &callers[*rng.pick(&pending)];
                caller.signal.set(true);
                caller.task.nudge();
                stats.interrupted += 1;
            }
        } else {
            let pending: Vec<usize> = (0..callers.len())
                .filter(|&i| callers[i].task.pending())
                .collect();
            if !pending.is_empty() {
                callers.remove(*rng.pick(&pending));
                stats.interrupted += 1;
            }
        }
        for _ in 0..256 {
            let mut polled = false;
            for caller in &mut callers {
                polled |= caller.task.run();
            }
            if !polled {
                break;
            }
        }
        check_callers(
            &at,
            &authority,
            &approver,
            &callers,
            &mut settled,
            ended,
            &question_count,
        );
        // Finished callers are checked once, then forgotten (the firmware heap is small).
        stats.calls += callers
            .iter()
            .filter(|caller| !caller.task.pending())
            .count();
        callers.retain(|caller| caller.task.pending());
    }
    // Whatever is still waiting gets an answer once every open question is answered.
    for _ in 0..8 {
        for index in 0..approver.asked() {
            if approver
                .open_question(index)
                .is_some_and(|q| q.outstanding() && q.answer.get().is_none())
            {
                approver.answer(index, Ok(rng.chance(1, 2)));
            }
        }
        for _ in 0..256 {
            let mut polled = false;
            for caller in &mut callers {
                polled |= caller.task.run();
            }
            if !polled {
                break;
            }
        }
        let at = format!("seed {seed} drain");
        check_callers(
            &at,
            &authority,
            &approver,
            &callers,
            &mut settled,
            ended,
            &question_count,
        );
        stats.calls += callers
            .iter()
            .filter(|caller| !caller.task.pending())
            .count();
        callers.retain(|caller| caller.task.pending());
    }
    assert!(
        callers.is_empty(),
        "seed {seed}: {} callers never got an answer",
        callers.len()
    );
    stats.questions = approver.asked();
    stats.kept = settled.len();
    stats.handovers = [Observe, Drive]
        .into_iter()
        .map(|capability| question_count(capability).saturating_sub(1))
        .sum();
    stats
}

fn check_callers(
    at: &str,
    authority: &ConnectionAuthority<&Approver>,
    approver: &Approver,
    callers: &[Caller<'_>],
    settled: &mut BTreeMap<MeshCapability, (CapabilityDecision, usize)>,
    ended: bool,
    question_count: &dyn Fn(MeshCapability) -> usize,
) {
    let peer = authority.peer();
    let outstanding = |capability| approver.outstanding(capability);
    for capability in MeshCapability::ALL.iter().copied() {
        let approval = capability_approval(capability);
        let asked = question_count(capability);
        if approval == CapabilityApproval::Never || !peer.capabilities.contains(capability) {
            assert_eq!(asked, 0, "{at}: {capability} was asked about");
        }
        if approval == CapabilityApproval::EveryConnection {
            assert!(
                outstanding(capability) <= 1,
                "{at}: two questions open for {capability}"
            );
            match (
                settled.get(&capability).copied(),
                authority.connection_answer(capability),
            ) {
                (Some((kept, questions)), now) => {
                    assert_eq!(
                        now,
                        Some(kept),
                        "{at}: the kept answer for {capability} changed"
                    );
                    assert_eq!(
                        asked, questions,
                        "{at}: {capability} asked again after an answer was kept"
                    );
                }
                (None, Some(now)) => {
                    settled.insert(capability, (now, asked));
                }
                (None, None) => {}
            }
        }
        // Never hang: a pending caller always has someone asking its question.
        let waiting = callers
            .iter()
            .filter(|c| c.capability == capability && c.task.pending())
            .count();
        if waiting > 0 {
            assert!(!ended, "{at}: a call still pending after the end");
            assert!(
                outstanding(capability) >= 1,
                "{at}: {waiting} callers of {capability} wait on no question"
            );
        }
    }
    for caller in callers {
        let Some(decision) = caller.task.output else {
            continue;
        };
        let capability = caller.capability;
        let approval = capability_approval(capability);
        match decision {
            CapabilityDecision::Allowed => {
                assert!(
                    peer.capabilities.contains(capability),
                    "{at}: allowed without a grant"
                );
                if approval == CapabilityApproval::EveryConnection {
                    assert_eq!(
                        authority.connection_answer(capability),
                        Some(ALLOWED),
                        "{at}"
                    );
                }
            }
            CapabilityDecision::Refused(CapabilityRefusal::NotGranted) => {
                assert!(
                    ended || !peer.capabilities.contains(capability),
                    "{at}: not-granted for a grant"
                );
            }
            CapabilityDecision::Refused(CapabilityRefusal::Declined) => {
                if approval == CapabilityApproval::EveryConnection && !caller.signal.get() {
                    assert_eq!(
                        authority.connection_answer(capability),
                        Some(DECLINED),
                        "{at}: declined without a kept no or an abort"
                    );
                }
            }
            CapabilityDecision::Refused(CapabilityRefusal::NoApprover) => {
                panic!("{at}: no-approver with an approver");
            }
            CapabilityDecision::Refused(reason) => {
                panic!("{at}: a refusal this test predates: {reason}")
            }
        }
    }
}
