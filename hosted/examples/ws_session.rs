//! A tokio host that serves the reference's WebSocket session protocol over a scripted session,
//! and a client on loopback that speaks it as the reference's clients do.
//!
//! Run, in `hosted/`:
//! `cargo run --example ws_session --no-default-features --features session-protocol`.
//! It exits non-zero on any failed check and gives up after 20 seconds.
//!
//! What it shows, in order:
//! 1. Admission before the upgrade, as in `ws_carrier`: the token as the first subprotocol.
//! 2. Each frame read by `decode_client_frame`: a malformed one is answered `protocol_error` and
//!    the connection is still served (`get-context` after it).
//! 3. `submit` through `handle_client_message`, attributed to the driver the host bound to the
//!    connection; the session's events (text, a tool's start and end, a permission prompt) as
//!    `event_message` makes them, stamped with the turn's driver, given their `seq` by the
//!    session's one `ResumeBridge` and sent through the connection's `OutboundDelivery`.
//! 4. The prompt answered (`permission-response`), an `ack`, and the client drops mid-turn: the
//!    turn goes on, and the bridge stamps and keeps what it cannot send.
//! 5. A reconnection asking to be held (`?resume=1`, attached with `await_resume`) and `resume`:
//!    exactly the frames after the client's last seq, replayed then live, up to `complete`; a
//!    resume from before the ack is `resume_gap`; `get-messages` answered.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::error::Error;
use std::future::{pending, poll_fn};
use std::rc::Rc;
use std::task::{Poll, Waker};
use std::time::Duration;

use agent_interface::agent_core::{
    AbortSignal, ActionResponse, ContextWindowState, ErrorValue, HistoryEntry, ToolArgs,
    UniversalMessage,
};
use agent_interface::command::definition::{CommandInvocationSource, CommandResult};
use agent_interface::command::listing::{CommandListEntry, CommandSkillListEntry};
use agent_interface::execution::groups::BackgroundJobGroupState as Group;
use agent_interface::execution::task_state::{
    BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor, BackgroundTaskLogPage,
    BackgroundTaskState,
};
use agent_interface::execution::workspace::{
    ExecutionWorkspaceSnapshot, ExecutionWorkspaceSnapshotOptions,
};
use agent_interface::runtime::session_protocol::{
    BridgeFrame, Delivery, FrameLimits, Handled, OutboundDelivery, ResumeBridge, ResumeLimits,
    decode_client_frame, event_message, handle_client_message,
};
use agent_interface::runtime::transport::admission::{
    TransportAdmission, TransportAdmissionConfig, UpgradeAllowList, UpgradeRequest, admit_upgrade,
    resolve_stated_admission, token_subprotocols,
};
use agent_interface::session::capabilities::*;
use agent_interface::session::events::{
    ModelListSnapshot, SessionEvent, ToolResultStatus, ToolState,
};
use agent_interface::session::prompts::{
    PermissionRequestEvent, PermissionResultValue, PromptResolvedEvent,
};
use agent_interface::session::protocol::{ClientMessage, ServerMessage};
use agent_interface::session::turns::{
    DriverId, ExecutionResult, SubmitOptions, TurnCompletion, TurnHandle,
};
use futures_util::{FutureExt, SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::{HeaderValue, StatusCode, header};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, accept_hdr_async, connect_async};

type Result<T> = core::result::Result<T, Box<dyn Error + Send + Sync>>;
/// What the scripted session's fallible roles return.
type Fallible<T> = core::result::Result<T, ErrorValue>;

const TOKEN: &str = "d7c1e0f4-example-token";
const NOW: &str = "2026-05-01T00:00:00.000Z";
/// The events stamped with the turn's driver that the client sees before the prompt.
const TURN_AUTHORED: [&str; 4] = ["user_message", "text_delta", "tool_start", "tool_end"];

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    tokio::time::timeout(Duration::from_secs(20), run()).await?
}

async fn run() -> Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("ws://{}/session", listener.local_addr()?);
    let config = TransportAdmissionConfig {
        token: Some(TOKEN.into()),
        ..TransportAdmissionConfig::default()
    };
    let admission = resolve_stated_admission(config)?;
    // One thread: the server (its session and bridge are not `Send`) serves beside the client
    // until the client is done.
    tokio::select! {
        served = serve(listener, admission) => served.and(Err("the server stopped".into())),
        done = client(&url) => done,
    }
}

fn check(holds: bool, what: &str) -> Result<()> {
    if holds {
        Ok(())
    } else {
        Err(format!("check failed: {what}").into())
    }
}

// ---- The client, as the reference's clients speak the protocol --------------------------------

/// A client connection and the last seq it took.
struct Peer(WebSocketStream<MaybeTlsStream<TcpStream>>, u64);

impl Peer {
    /// Connects with the token as the first subprotocol, as a browser presents it.
    async fn connect(url: &str, last: u64) -> Result<Self> {
        let mut request = url.into_client_request()?;
        let offered = token_subprotocols(TOKEN, "agent.v1")?.join(", ");
        let headers = request.headers_mut();
        headers.insert(header::SEC_WEBSOCKET_PROTOCOL, offered.parse()?);
        let (ws, response) = connect_async(request).await?;
        let answered = response.headers().get(header::SEC_WEBSOCKET_PROTOCOL);
        let named = answered == Some(&HeaderValue::from_static("agent.v1"));
        check(named, "the token is not echoed")?;
        Ok(Self(ws, last))
    }

    async fn send(&mut self, message: Value) -> Result<()> {
        Ok(self.0.send(Message::text(message.to_string())).await?)
    }

    /// The next server message, unchecked.
    async fn next_raw(&mut self) -> Result<Value> {
        loop {
            if let Message::Text(text) = self.0.next().await.ok_or("the server hung up")?? {
                return Ok(serde_json::from_str(&text)?);
            }
        }
    }

    /// The next server message, which must carry the seq after the last (no gap, no repeat).
    async fn next(&mut self) -> Result<Value> {
        let frame = self.next_raw().await?;
        let (seq, expected) = (frame["seq"].as_u64(), self.1 + 1);
        let what = format!("seq {expected} next, got {frame}");
        check(seq == Some(expected), &what)?;
        self.1 = expected;
        Ok(frame)
    }
}

async fn client(url: &str) -> Result<()> {
    let mut peer = Peer::connect(url, 0).await?;
    peer.send(json!({"type": "nope"})).await?;
    let refusal = peer.next().await?;
    let refused = refusal["message"] == "Unknown message type: nope";
    check(refused, "a malformed frame refused")?;
    peer.send(json!({"type": "get-context"})).await?;
    let context = peer.next().await?;
    check(context["state"]["maxTokens"] == 200_000, "still served")?;
    println!("client: {refusal}, then a {} reply", context["type"]);

    peer.send(json!({"type": "submit", "prompt": "Do the tests pass?"}))
        .await?;
    let mut seen = Vec::new();
    let prompt = loop {
        let frame = peer.next().await?;
        println!("client: {} {}", frame["seq"], frame["type"]);
        if TURN_AUTHORED.iter().any(|kind| frame["type"] == *kind) {
            check(frame["driverId"] == "ws-1", "the turn's driver")?;
        }
        seen.push(frame["type"].clone());
        if frame["type"] == "permission_request" {
            break frame;
        }
    };
    for kind in TURN_AUTHORED {
        let what = format!("a {kind} before the prompt");
        check(seen.contains(&json!(kind)), &what)?;
    }
    let id = &prompt["event"]["id"];
    peer.send(json!({"type": "permission-response", "id": id, "result": true}))
        .await?;
    peer.send(json!({"type": "ack", "seq": peer.1})).await?;
    let resolved = peer.next().await?;
    check(
        resolved["event"]["answererDriverId"] == "ws-1",
        "ws-1 answered",
    )?;
    peer.next().await?;
    // Dropped without a close, mid-turn; the turn goes on while the client is away.
    let last = peer.1;
    drop(peer);
    println!("client: dropped after seq {last}");
    tokio::time::sleep(Duration::from_millis(50)).await;

    let mut peer = Peer::connect(&format!("{url}?resume=1"), last).await?;
    peer.send(json!({"type": "resume", "lastSeq": last}))
        .await?;
    let done = loop {
        let frame = peer.next().await?;
        if frame["type"] == "complete" {
            break frame;
        }
    };
    let response = &done["result"]["response"];
    check(response == "All tests pass.", "the turn's result")?;
    let (from, to) = (last + 1, peer.1);
    println!("client: resumed: seqs {from}..={to} in order, up to complete");
    // Frames up to the acked seq are freed: a resume from 0 is a gap, never a tail with a hole.
    peer.send(json!({"type": "resume", "lastSeq": 0})).await?;
    let gap = peer.next_raw().await?;
    check(gap == json!({"type": "resume_gap"}), "a gap")?;
    peer.send(json!({"type": "get-messages"})).await?;
    let messages = peer.next().await?;
    let count = messages["messages"].as_array().map_or(0, Vec::len);
    check(count == 2, "the conversation")?;
    println!("client: {gap}, then {count} messages at seq {}", peer.1);
    Ok(peer.0.close(None).await?)
}

// ---- The server --------------------------------------------------------------------------------

/// The connection the bridge is attached to, its delivery boundary and the driver bound to it.
struct Link {
    ws: WebSocketStream<TcpStream>,
    delivery: OutboundDelivery,
    driver: String,
}

async fn serve(listener: TcpListener, admission: TransportAdmission) -> Result<()> {
    let session = Scripted::default();
    // One bridge for the session, across its connections, so a client that comes back resumes.
    let mut bridge = ResumeBridge::new(ResumeLimits::DEFAULT);
    let (mut link, mut turn, mut connections) = (None::<Link>, None, 0);
    // The scripted session's pace: one event per tick.
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Some((ws, resuming)) = upgrade(accepted?.0, &admission).await else { continue };
                connections += 1;
                let driver = format!("ws-{connections}");
                println!("server: admitted {driver}, held until its resume: {resuming}");
                bridge.attach(resuming);
                link = Some(Link { ws, delivery: OutboundDelivery::new(), driver });
            }
            text = next_text(&mut link) => {
                let Some(text) = text else {
                    println!("server: the connection is gone; the bridge keeps stamping");
                    link = None;
                    bridge.detach();
                    continue;
                };
                let driver = link.as_ref().map(|link| link.driver.as_str());
                let reply = match decode_client_frame(&text, &FrameLimits::DEFAULT) {
                    Ok(ClientMessage::Resume { last_seq }) => {
                        let (frames, mut connected) = (bridge.resume(last_seq), true);
                        println!("server: resume after {last_seq}, frames to send: {}", frames.len());
                        for frame in frames {
                            connected = connected && deliver(&mut link, frame).await;
                        }
                        if !connected { bridge.detach(); }
                        continue;
                    }
                    Ok(ClientMessage::Ack { seq }) => { bridge.ack(seq); continue; }
                    // Awaited here: this session answers at once (a slow one's calls would be
                    // polled beside this loop, each settling on its own).
                    Ok(message) => match handle_client_message(&session, message, driver).await {
                        Handled::Reply(reply) => reply,
                        Handled::Submitted(handle) => { turn = Some(handle); continue; }
                        _ => continue,
                    },
                    Err(refusal) => ServerMessage::ProtocolError { message: refusal.to_string() },
                };
                outbound(&mut bridge, &mut link, &reply).await?;
            }
            _ = tick.tick() => {
                let Some(event) = session.next_event() else { continue };
                let surface = link.as_ref().map(|link| link.driver.as_str());
                let active = || session.get_active_driver_id();
                let Some(message) = event_message(event, surface, active) else { continue };
                outbound(&mut bridge, &mut link, &message).await?;
                if let (ServerMessage::Complete { .. }, Some(handle)) = (&message, turn.as_mut()) {
                    let settled = (&mut handle.completed).now_or_never().is_some_and(|c| c.is_ok());
                    check(settled, "the turn's handle settles with its outcome")?;
                    println!("server: turn {} settled", handle.turn_id);
                }
            }
        }
    }
}

/// The admission decision in the handshake callback, as `ws_carrier` takes it, and whether the
/// client asks to be held until its `resume` (`?resume=1`: this host's choice of signal).
#[expect(
    clippy::result_large_err,
    reason = "tungstenite's callback returns its response"
)]
async fn upgrade(
    stream: TcpStream,
    admission: &TransportAdmission,
) -> Option<(WebSocketStream<TcpStream>, bool)> {
    let mut resuming = false;
    let decide = |request: &Request, mut response: Response| {
        let uri = request.uri();
        let target = uri.path_and_query().map_or("/", |target| target.as_str());
        let headers = request.headers().iter();
        let headers = headers.map(|(name, value)| (name, value.as_bytes()));
        let upgrade = UpgradeRequest::new(target).headers(headers);
        match admit_upgrade(admission, &upgrade, &UpgradeAllowList::loopback()) {
            Ok(accepted) => {
                if let Some(protocol) = accepted.subprotocol().and_then(|p| p.parse().ok()) {
                    let headers = response.headers_mut();
                    headers.insert(header::SEC_WEBSOCKET_PROTOCOL, protocol);
                }
                resuming = uri
                    .query()
                    .is_some_and(|q| q.split('&').any(|p| p == "resume=1"));
                Ok(response)
            }
            Err(refusal) => {
                let mut answer = ErrorResponse::new(Some(refusal.to_string()));
                let status = StatusCode::from_u16(refusal.status());
                *answer.status_mut() = status.unwrap_or(StatusCode::FORBIDDEN);
                Err(answer)
            }
        }
    };
    let ws = accept_hdr_async(stream, decide).await.ok()?;
    Some((ws, resuming))
}

/// The attached connection's next text frame (pending while none is attached); `None` once it
/// closed or failed.
async fn next_text(link: &mut Option<Link>) -> Option<String> {
    let Some(link) = link else {
        return pending().await;
    };
    loop {
        match link.ws.next().await?.ok()? {
            Message::Text(text) => return Some(text.as_str().to_owned()),
            Message::Close(_) => return None,
            _ => {}
        }
    }
}

/// A server message through the bridge (stamped and kept), and sent if the bridge says so now.
async fn outbound(
    bridge: &mut ResumeBridge,
    link: &mut Option<Link>,
    message: &ServerMessage,
) -> Result<()> {
    let connected = match bridge.outbound(message)? {
        Some(frame) => deliver(link, frame).await,
        None => true,
    };
    if !connected {
        bridge.detach();
    }
    Ok(())
}

/// One frame through the connection's delivery boundary, whose carrier is the socket's sink
/// (made ready, then handed the text). False once the connection is gone (it is dropped).
async fn deliver(link: &mut Option<Link>, frame: BridgeFrame<'_>) -> bool {
    let Some(conn) = link.as_mut() else {
        return false;
    };
    let ready = poll_fn(|cx| conn.ws.poll_ready_unpin(cx)).await;
    let carrier = |frame: &BridgeFrame| {
        ready.and_then(|()| conn.ws.start_send_unpin(Message::text(frame.text)))
    };
    let failure = match conn.delivery.deliver(&frame, carrier) {
        Delivery::Sent => conn.ws.flush().await.err().map(|error| error.to_string()),
        Delivery::Failed { error, event } => Some(format!("{event}: {error}")),
        _ => Some("the boundary is latched".into()),
    };
    let Some(failure) = failure else { return true };
    println!("server: delivery failed ({failure}); the connection is dropped");
    *link = None;
    false
}

// ---- The scripted session: every role `ProtocolSession` names ----------------------------------

#[derive(Default)]
struct Scripted(RefCell<Turn>);

/// The turn's events still to come, the prompt they wait on, whose turn it is, the conversation
/// and the turn's completion (its outcome once settled, and who awaits it).
#[derive(Default)]
struct Turn {
    script: VecDeque<SessionEvent>,
    waiting: Option<String>,
    driver: Option<DriverId>,
    messages: Vec<UniversalMessage>,
    settled: Rc<RefCell<(Option<TurnCompletion>, Option<Waker>)>>,
}

impl Scripted {
    /// The session's next event, one per call (none while the prompt waits for its answer).
    fn next_event(&self) -> Option<SessionEvent> {
        let mut turn = self.0.borrow_mut();
        if turn.waiting.is_some() {
            return None;
        }
        let Some(event) = turn.script.pop_front() else {
            turn.driver = None;
            return None;
        };
        if let SessionEvent::PermissionRequest(request) = &event {
            turn.waiting = Some(request.id.clone());
        }
        if let SessionEvent::Complete(result) = &event {
            let reply = Some(result.response.clone());
            turn.messages
                .push(UniversalMessage::assistant("m2", NOW, reply));
            let mut settled = turn.settled.borrow_mut();
            settled.0 = Some(Ok((**result).clone().into()));
            if let Some(waker) = settled.1.take() {
                waker.wake();
            }
        }
        Some(event)
    }
}

fn script(prompt: &str) -> VecDeque<SessionEvent> {
    let start = |name: &str, arg: &str| ToolState::new(name, arg, true);
    let end = |name: &str, arg: &str| {
        ToolState::new(name, arg, false).with_result(ToolResultStatus::Success)
    };
    let args = ToolArgs::from_iter([("command".into(), "cargo test".into())]);
    let ask = PermissionRequestEvent::new("perm-1", "Bash", args);
    let done = ExecutionResult::new("All tests pass.");
    VecDeque::from([
        SessionEvent::UserMessage(prompt.into()),
        SessionEvent::TextDelta("Let me look ".into()),
        SessionEvent::ToolStart(start("Read", "tests/")),
        SessionEvent::ToolEnd(end("Read", "tests/")),
        SessionEvent::PermissionRequest(ask),
        SessionEvent::ToolStart(start("Bash", "cargo test")),
        SessionEvent::ToolEnd(end("Bash", "cargo test")),
        SessionEvent::TextDelta("All tests ".into()),
        SessionEvent::TextDelta("pass.".into()),
        SessionEvent::Complete(Box::new(done)),
    ])
}

fn no_tasks<T>() -> Fallible<T> {
    Err(ErrorValue::new("Error", "no background tasks here"))
}

impl SessionTurnSubmission for Scripted {
    type Completion = BoxedTurnCompletion;
    type Error = ErrorValue;

    async fn submit<S: AbortSignal + 'static>(
        &self,
        input: &str,
        _: Option<&str>,
        _: Option<&str>,
        options: SubmitOptions<S>,
    ) -> Fallible<TurnHandle<BoxedTurnCompletion>> {
        let mut turn = self.0.borrow_mut();
        if !turn.script.is_empty() {
            return Err(ErrorValue::new("Error", "a turn is already running"));
        }
        turn.messages.push(UniversalMessage::user("m1", NOW, input));
        (turn.script, turn.driver) = (script(input), options.driver_id);
        let settled = Rc::clone(&turn.settled);
        let completed = poll_fn(move |cx| {
            let mut settled = settled.borrow_mut();
            settled.1 = Some(cx.waker().clone());
            settled.0.take().map_or(Poll::Pending, Poll::Ready)
        });
        Ok(TurnHandle::new("turn-1", Box::pin(completed) as _))
    }
}

impl SessionPromptResolution for Scripted {
    fn resolve_permission(&self, id: &str, result: PermissionResultValue, by: Option<&str>) {
        let mut turn = self.0.borrow_mut();
        if turn.waiting.as_deref() == Some(id) && result.allows() {
            turn.waiting = None;
            let mut resolved = PromptResolvedEvent::new(id);
            resolved.answerer_driver_id = by.map(Into::into);
            let resolved = SessionEvent::PromptResolved(resolved);
            turn.script.push_front(resolved);
        }
    }
    fn resolve_ask(&self, _: &str, _: ActionResponse, _: Option<&str>) {}
}

impl SessionDriverAttribution for Scripted {
    fn get_active_driver_id(&self) -> Option<DriverId> {
        self.0.borrow().driver.clone()
    }
}

impl SessionTurnControl for Scripted {
    fn abort(&self) {}
    fn cancel_queue(&self) {}
}

impl SessionExecutionState for Scripted {
    fn is_executing(&self) -> bool {
        !self.0.borrow().script.is_empty()
    }
    fn get_pending_prompt(&self) -> Option<String> {
        None
    }
    fn get_pending_count(&self) -> u32 {
        0
    }
}

impl SessionConversationRead for Scripted {
    fn get_messages(&self) -> Vec<UniversalMessage> {
        self.0.borrow().messages.clone()
    }
    fn get_full_history(&self) -> Vec<HistoryEntry> {
        Vec::new()
    }
    fn get_context_state(&self) -> ContextWindowState {
        ContextWindowState::new(200_000, 1_200, 0.6, 99.4)
    }
    fn get_messages_display(&self) -> Vec<UniversalMessage> {
        self.get_messages()
    }
}

impl SessionCommands for Scripted {
    type Error = ErrorValue;
    async fn execute_command(
        &self,
        _: &str,
        _: &str,
        _: Option<CommandInvocationSource>,
        _: Option<&str>,
    ) -> Fallible<Option<CommandResult>> {
        Ok(None)
    }
    fn list_commands(&self) -> Vec<CommandListEntry> {
        Vec::new()
    }
    fn list_skills(&self) -> Vec<CommandSkillListEntry> {
        Vec::new()
    }
    fn list_models(&self) -> ModelListSnapshot {
        ModelListSnapshot::default()
    }
}

impl SessionBackgroundTasks for Scripted {
    type Error = ErrorValue;
    fn list_background_tasks(&self, _: BackgroundTaskListFilter) -> Vec<BackgroundTaskState> {
        Vec::new()
    }
    fn get_background_task(&self, _: &str) -> Option<BackgroundTaskState> {
        None
    }
    async fn cancel_background_task(&self, _: &str, _: Option<&str>) -> Fallible<()> {
        no_tasks()
    }
    async fn close_background_task(&self, _: &str) -> Fallible<()> {
        no_tasks()
    }
    async fn send_background_task(&self, _: &str, _: BackgroundTaskInput) -> Fallible<()> {
        no_tasks()
    }
    async fn read_background_task_log(
        &self,
        _: &str,
        _: Option<BackgroundTaskLogCursor>,
    ) -> Fallible<BackgroundTaskLogPage> {
        no_tasks()
    }
}

impl SessionBackgroundGroups for Scripted {
    type Error = ErrorValue;
    fn list_background_job_groups(&self) -> Vec<Group> {
        Vec::new()
    }
    fn get_background_job_group(&self, _: &str) -> Option<Group> {
        None
    }
    fn create_background_job_group(&self, _: BackgroundJobGroupCreateInput) -> Fallible<Group> {
        no_tasks()
    }
    async fn wait_background_job_group(&self, _: &str) -> Fallible<Group> {
        no_tasks()
    }
}

impl SessionExecutionWorkspace for Scripted {
    fn get_execution_workspace_snapshot(
        &self,
        _: &ExecutionWorkspaceSnapshotOptions,
    ) -> ExecutionWorkspaceSnapshot {
        ExecutionWorkspaceSnapshot::new("session-1", NOW, Vec::new())
    }
}
