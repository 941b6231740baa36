//! Cases of the `session` family's directory side: summaries and listings, the directory and
//! binding ports with the switch-away rule, the change/delete refusals and their predicates, the
//! interaction channel with its readers, and the newer read contracts (prompt history, project
//! panel, settings screen). Uses only `core`, `alloc`, serde_json and the crate, so it also runs
//! on the firmware and wasm.

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::fmt;
use core::future::Future;
use core::sync::atomic::{AtomicBool, Ordering};

use agent_interface::agent_core::{ActionRequest, ActionResponse, ErrorValue, Value};
use agent_interface::session::{
    directory::{
        ResumableSessionSummary, SESSION_CHANGE_REFUSAL_CODES, SESSION_DELETE_REFUSAL_CODES,
        SessionBinder, SessionBinding, SessionBindingRole, SessionChangeRefusal,
        SessionChangeRefusalCode, SessionDeleteRefusal, SessionDeleteRefusalCode, SessionDirectory,
        SessionListing, SessionListingEntry, SessionSwitchedEvent, SwitchAwayState,
        as_session_change_refusal, as_session_delete_refusal, is_session_change_refusal,
        is_session_delete_refusal, switch_away_refusal,
    },
    interaction::{
        AgentDriver, AgentDriverObservations, CommandInfo, InteractionChannel, InteractionEvent,
        TerminalHandoff, ToolCallObservation, read_assistant_replies, read_errors,
        read_last_assistant_text, read_tool_calls,
    },
    screens::{
        ProjectDiffRead, ProjectFileStatus, ProjectMemoryRead, ProjectStatusFile,
        ProjectStatusRead, PromptHistoryBlock, PromptHistoryEntry, PromptHistoryRead,
        PromptHistoryReadOptions, PromptHistorySource, PromptHistoryWriter, SettingsPatch,
        SettingsPermissionRuleKind, SettingsSnapshot,
    },
};

use crate::support::{block_on, decode, s};
use crate::support::{golden, rejects, to_json};

/// The error every fallible double reports.
#[derive(Debug, PartialEq, Eq)]
struct Refused(&'static str);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl core::error::Error for Refused {}

// ---- directory and binding doubles ----------------------------------------------------------

fn summary(id: &str, message_count: u32) -> ResumableSessionSummary {
    ResumableSessionSummary::new(
        id,
        "/work/app",
        "2026-09-01T10:00:00.000Z",
        message_count,
        "",
    )
}

fn row(id: &str, message_count: u32, clients: u32, live: bool) -> SessionListingEntry {
    SessionListingEntry::new(summary(id, message_count))
        .with_live(live)
        .with_clients(clients)
}

/// A host with three sessions, seen by one driving client that is on `s-1`:
/// `s-1` (current, live, this client only), `s-2` (live, another client on it, running a turn),
/// `s-3` (stored, empty).
struct Host {
    current: RefCell<String>,
    sessions: RefCell<Vec<SessionListingEntry>>,
    running: &'static str,
    prompt_pending: Cell<bool>,
    other_drivers: Cell<u32>,
    switches: RefCell<Vec<String>>,
}

impl Host {
    fn new() -> Self {
        Self {
            current: RefCell::new(s("s-1")),
            sessions: RefCell::new(vec![
                row("s-1", 4, 1, true),
                row("s-2", 9, 1, true),
                row("s-3", 0, 0, false),
            ]),
            running: "s-2",
            prompt_pending: Cell::new(false),
            other_drivers: Cell::new(0),
            switches: RefCell::new(Vec::new()),
        }
    }

    fn has(&self, id: &str) -> bool {
        self.sessions
            .borrow()
            .iter()
            .any(|row| row.summary.id == id)
    }

    /// Leaves the current session for `id`, applying the switch-away rule.
    fn leave_for(&self, id: &str) -> Result<(), SessionChangeRefusal> {
        let state = SwitchAwayState {
            role: SessionBindingRole::Drive,
            other_drivers: self.other_drivers.get(),
            prompt_pending: self.prompt_pending.get(),
            turn_running: *self.current.borrow() == self.running,
        };
        if let Some(code) = switch_away_refusal(&state) {
            return Err(SessionChangeRefusal::new(
                code,
                "a prompt waits for an answer",
            ));
        }
        *self.current.borrow_mut() = s(id);
        self.switches.borrow_mut().push(s(id));
        Ok(())
    }
}

impl SessionDirectory for Host {
    fn list_sessions(&self) -> SessionListing {
        SessionListing::new(
            self.current.borrow().clone(),
            self.sessions.borrow().clone(),
            vec![s("s-old")],
        )
    }

    async fn switch_session(&self, session_id: &str) -> Result<(), SessionChangeRefusal> {
        if !self.has(session_id) {
            return Err(SessionChangeRefusal::new(
                SessionChangeRefusalCode::UnknownSession,
                "no such session",
            ));
        }
        self.leave_for(session_id)
    }

    async fn new_session(&self) -> Result<(), SessionChangeRefusal> {
        let reusable = self
            .sessions
            .borrow()
            .iter()
            .find(|row| row.summary.message_count == 0 && row.clients.unwrap_or(0) == 0)
            .map(|row| row.summary.id.clone());
        match reusable {
            Some(id) => self.leave_for(&id),
            None => {
                self.sessions.borrow_mut().push(row("s-new", 0, 0, false));
                self.leave_for("s-new")
            }
        }
    }

    async fn rename_session(
        &self,
        session_id: &str,
        name: &str,
    ) -> Result<(), SessionChangeRefusal> {
        let mut sessions = self.sessions.borrow_mut();
        let Some(row) = sessions.iter_mut().find(|row| row.summary.id == session_id) else {
            return Err(SessionChangeRefusal::new(
                SessionChangeRefusalCode::UnknownSession,
                "no such session",
            ));
        };
        if row.is_live() {
            return Err(SessionChangeRefusal::new(
                SessionChangeRefusalCode::Failed,
                "the session is live; rename it from inside",
            ));
        }
        row.summary.name = Some(s(name));
        Ok(())
    }

    async fn delete_session(&self, session_id: &str) -> Result<(), SessionDeleteRefusal> {
        let Some(target) = self
            .sessions
            .borrow()
            .iter()
            .find(|row| row.summary.id == session_id)
            .cloned()
        else {
            return Err(SessionDeleteRefusal::new(
                SessionDeleteRefusalCode::UnknownSession,
                "no such session",
            ));
        };
        let is_current = *self.current.borrow() == session_id;
        let mine = u32::from(is_current);
        if target.clients.unwrap_or(0) > mine {
            return Err(SessionDeleteRefusal::new(
                SessionDeleteRefusalCode::LiveElsewhere,
                "another client is on this session",
            ));
        }
        if session_id == self.running {
            return Err(SessionDeleteRefusal::new(
                SessionDeleteRefusalCode::Running,
                "the session is running a turn",
            ));
        }
        if is_current {
            self.leave_for("s-3").map_err(|refusal| {
                SessionDeleteRefusal::new(SessionDeleteRefusalCode::Failed, refusal.message)
            })?;
        }
        self.sessions
            .borrow_mut()
            .retain(|row| row.summary.id != session_id);
        Ok(())
    }
}

/// The session handle a binding holds in these cases.
#[derive(Debug, PartialEq, Eq)]
struct Handle(&'static str);

struct Binding {
    role: SessionBindingRole,
    session: Handle,
    directory: Rc<Host>,
    released: Rc<RefCell<Vec<SessionBindingRole>>>,
}

impl SessionBinding<Handle> for Binding {
    type Directory = Host;

    fn session(&self) -> &Handle {
        &self.session
    }

    fn directory(&self) -> &Host {
        &self.directory
    }

    fn release(self) {
        self.released.borrow_mut().push(self.role);
    }
}

struct Binder {
    released: Rc<RefCell<Vec<SessionBindingRole>>>,
}

impl SessionBinder<Handle> for Binder {
    type Binding = Binding;

    fn bind(&self, role: SessionBindingRole) -> Binding {
        Binding {
            role,
            session: Handle("stable"),
            directory: Rc::new(Host::new()),
            released: Rc::clone(&self.released),
        }
    }
}

// ---- interaction doubles -------------------------------------------------------------------

/// A channel that records every call, fed with a fixed list of submissions.
#[derive(Default)]
struct RecordingChannel {
    inbox: Vec<String>,
    written: Vec<InteractionEvent>,
    commands: Vec<CommandInfo>,
    busy: Vec<bool>,
    asked: Vec<String>,
    started: bool,
    stopped: bool,
}

impl InteractionChannel for RecordingChannel {
    type Error = Refused;

    async fn next_submission(&mut self) -> Option<String> {
        if self.stopped || self.inbox.is_empty() {
            None
        } else {
            Some(self.inbox.remove(0))
        }
    }

    fn write(&mut self, event: InteractionEvent) {
        self.written.push(event);
    }

    async fn ask_user(&mut self, request: &ActionRequest) -> ActionResponse {
        self.asked.push(request.id.clone());
        ActionResponse::Cancelled
    }

    fn set_available_commands(&mut self, commands: &[CommandInfo]) {
        self.commands = commands.to_vec();
    }

    fn set_busy(&mut self, busy: bool) {
        self.busy.push(busy);
    }

    async fn start(&mut self) -> Result<(), Refused> {
        if self.started {
            return Err(Refused("already started"));
        }
        self.started = true;
        Ok(())
    }

    async fn stop(&mut self) -> Result<(), Refused> {
        self.stopped = true;
        Ok(())
    }
}

/// A minimal framework loop written against the port alone: it answers each submission with an
/// echo, reaching `write` only through the trait.
async fn serve<C: InteractionChannel>(channel: &mut C) -> Result<u32, C::Error> {
    channel.start().await?;
    channel.set_available_commands(&[CommandInfo::new("help", "Show help")]);
    let mut turns = 0;
    while let Some(text) = channel.next_submission().await {
        channel.set_busy(true);
        channel.write(InteractionEvent::UserMessage { text: text.clone() });
        if text == "ask" {
            let request = ActionRequest::new("q1", "Proceed?");
            if channel.ask_user(&request).await == ActionResponse::Cancelled {
                channel.write(InteractionEvent::Error {
                    error: ErrorValue::from_message("cancelled"),
                });
            }
        }
        channel.write(InteractionEvent::AssistantDone {
            full_text: alloc::format!("echo: {text}"),
        });
        channel.set_busy(false);
        turns += 1;
    }
    channel.stop().await?;
    Ok(turns)
}

/// A driver that answers every send with a tool call and a reply.
#[derive(Default)]
struct EchoDriver {
    starts: u32,
    events: Vec<InteractionEvent>,
    queued: Vec<ActionResponse>,
}

impl AgentDriver for EchoDriver {
    type Error = Refused;

    async fn start(&mut self) -> Result<(), Refused> {
        if self.starts == 0 {
            self.starts = 1;
        }
        Ok(())
    }

    async fn send(&mut self, text: &str) -> Result<(), Refused> {
        if self.starts == 0 {
            return Err(Refused("not started"));
        }
        self.events
            .push(InteractionEvent::UserMessage { text: s(text) });
        self.events.push(InteractionEvent::ToolCall {
            id: alloc::format!("t{}", self.events.len()),
            name: s("Read"),
            args: serde_json::json!({ "path": text }),
        });
        self.events.push(InteractionEvent::AssistantDone {
            full_text: alloc::format!("read {text}"),
        });
        Ok(())
    }

    fn queue_user_action(&mut self, response: ActionResponse) {
        self.queued.push(response);
    }

    fn events(&self) -> &[InteractionEvent] {
        &self.events
    }

    async fn stop(&mut self) -> Result<(), Refused> {
        Ok(())
    }
}

/// A terminal hand-off that records the display's state around the closure.
struct Terminal {
    interactive: bool,
    log: Rc<RefCell<Vec<&'static str>>>,
}

impl TerminalHandoff for Terminal {
    type Error = Refused;

    fn can_handoff_terminal(&self) -> bool {
        self.interactive
    }

    async fn run_with_terminal<T, F, Fut>(&mut self, run: F) -> Result<T, Refused>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>,
    {
        if !self.interactive {
            return Err(Refused("no interactive terminal"));
        }
        self.log.borrow_mut().push("suspend");
        let output = run().await;
        self.log.borrow_mut().push("restore");
        Ok(output)
    }
}

/// The mixed stream of the TypeScript accessor test.
fn mixed_stream() -> Vec<InteractionEvent> {
    vec![
        InteractionEvent::UserMessage { text: s("hi") },
        InteractionEvent::AssistantChunk { chunk: s("par") },
        InteractionEvent::AssistantChunk { chunk: s("tial") },
        InteractionEvent::ToolCall {
            id: s("t1"),
            name: s("Bash"),
            args: serde_json::json!({ "command": "ls" }),
        },
        InteractionEvent::ToolResult {
            id: s("t1"),
            name: s("Bash"),
            result: Value::from("ok"),
        },
        InteractionEvent::AssistantDone {
            full_text: s("first reply"),
        },
        InteractionEvent::UserMessage { text: s("again") },
        InteractionEvent::Error {
            error: ErrorValue::from_message("boom"),
        },
        InteractionEvent::AssistantDone {
            full_text: s("second reply"),
        },
    ]
}

// ---- read-contract doubles -----------------------------------------------------------------

fn entry(at: &str, text: &str) -> PromptHistoryEntry {
    PromptHistoryEntry::new(at, "s-1", "/work/app", text)
}

/// A history stored as blocks, newest block first.
struct History {
    blocks: Vec<PromptHistoryBlock>,
}

struct HistoryRead<'a> {
    blocks: &'a [PromptHistoryBlock],
    options: PromptHistoryReadOptions<'a>,
    next: usize,
}

impl PromptHistorySource for History {
    type Read<'a> = HistoryRead<'a>;

    fn read<'a>(&'a self, options: PromptHistoryReadOptions<'a>) -> HistoryRead<'a> {
        HistoryRead {
            blocks: &self.blocks,
            options,
            next: 0,
        }
    }
}

impl PromptHistoryRead for HistoryRead<'_> {
    type Error = Refused;

    async fn next_block(&mut self) -> Option<Result<PromptHistoryBlock, Refused>> {
        if self.options.is_aborted() {
            return None;
        }
        let block = self.blocks.get(self.next)?.clone();
        self.next += 1;
        Some(Ok(block))
    }
}

/// A writer whose store fills up after `room` entries.
struct Journal {
    room: usize,
    written: Vec<PromptHistoryEntry>,
}

impl PromptHistoryWriter for Journal {
    type Error = Refused;

    fn append(&mut self, entry: &PromptHistoryEntry) -> Result<(), Refused> {
        if self.written.len() == self.room {
            return Err(Refused("history is full"));
        }
        self.written.push(entry.clone());
        Ok(())
    }
}

cases! {
    mod listing {
        fn summary_round_trips() {
            let summary: ResumableSessionSummary =
                golden("summary", include_str!("../golden/session/directory/summary.json"));
            assert_eq!(summary.id, "s-1");
            assert_eq!(summary.name.as_deref(), Some("refactor parser"));
            assert_eq!(summary.updated_at, "2026-09-01T10:00:00.000Z");
            assert_eq!(summary.message_count, 12);
            assert_eq!(summary.preview, "Done: the parser now streams.");
            assert_eq!(summary.title.as_deref(), Some("Refactor the parser"));
        }

        fn summary_without_optionals_round_trips() {
            let summary: ResumableSessionSummary = golden(
                "summary_minimal",
                include_str!("../golden/session/directory/summary_minimal.json"),
            );
            assert_eq!(summary.name, None);
            assert_eq!(summary.title, None);
            assert_eq!(summary.message_count, 0);
            let json = to_json(&summary);
            assert!(json.get("name").is_none() && json.get("title").is_none());
        }

        fn listing_entry_round_trips_flat() {
            let text = include_str!("../golden/session/directory/listing_entry.json");
            let entry: SessionListingEntry = golden("listing_entry", text);
            assert_eq!(entry.summary.id, "s-1");
            assert_eq!(entry.summary.message_count, 12);
            assert_eq!(entry.live, Some(true));
            assert_eq!(entry.clients, Some(2));
            assert!(entry.is_live());
            // One flat object: the summary is not nested under a key.
            assert!(to_json(&entry).get("summary").is_none());
        }

        fn listing_round_trips() {
            let listing: SessionListing =
                golden("listing", include_str!("../golden/session/directory/listing.json"));
            assert_eq!(listing.current_session_id, "s-1");
            assert_eq!(listing.sessions.len(), 2);
            assert_eq!(listing.unreadable_session_ids, vec![s("s-old")]);
            assert_eq!(listing.entry("s-1").and_then(|row| row.clients), Some(1));
            // The second row comes from an older host: no liveness at all.
            let older = listing.entry("s-2").expect("listed");
            assert_eq!((older.live, older.clients), (None, None));
            assert!(!older.is_live());
            assert!(listing.entry("s-9").is_none());
        }

        fn session_switched_event_round_trips() {
            let event: SessionSwitchedEvent = golden(
                "session_switched",
                include_str!("../golden/session/directory/session_switched.json"),
            );
            assert_eq!(event.session_id, "s-2");
        }

        fn summary_converts_to_row_and_back() {
            let summary = summary("s-5", 3);
            let row = SessionListingEntry::from(summary.clone());
            assert_eq!((row.live, row.clients), (None, None));
            assert_eq!(row.as_ref(), &summary);
            assert_eq!(ResumableSessionSummary::from(row), summary);
        }

        fn row_converts_to_summary_dropping_liveness() {
            let live = row("s-6", 2, 3, true);
            let back: ResumableSessionSummary = live.clone().into();
            assert_eq!(back, live.summary);
            // The same rows are assignable on the wire too: a summary's JSON reads as a row, and
            // a row's JSON reads as a summary.
            let as_row: SessionListingEntry = decode(&to_json(&back));
            assert_eq!(as_row, SessionListingEntry::from(back.clone()));
            let as_summary: ResumableSessionSummary = decode(&to_json(&live));
            assert_eq!(as_summary, back);
        }

        fn rejects_negative_message_count() {
            rejects::<ResumableSessionSummary>(
                r#"{"id":"s","cwd":"/","updatedAt":"t","messageCount":-1,"preview":""}"#,
                "integer `-1`",
            );
        }

        fn rejects_negative_message_count_in_a_row() {
            rejects::<SessionListingEntry>(
                r#"{"id":"s","cwd":"/","updatedAt":"t","messageCount":-3,"preview":"","live":true}"#,
                "integer `-3`",
            );
        }

        fn rejects_negative_client_count() {
            rejects::<SessionListingEntry>(
                r#"{"id":"s","cwd":"/","updatedAt":"t","messageCount":1,"preview":"","clients":-1}"#,
                "integer `-1`",
            );
        }

        fn rejects_summary_without_cwd() {
            rejects::<ResumableSessionSummary>(
                r#"{"id":"s","updatedAt":"t","messageCount":1,"preview":""}"#,
                "missing field `cwd`",
            );
        }

        fn rejects_listing_without_unreadable_ids() {
            rejects::<SessionListing>(
                r#"{"currentSessionId":"s","sessions":[]}"#,
                "missing field `unreadableSessionIds`",
            );
        }

        fn rejects_switched_event_without_session_id() {
            rejects::<SessionSwitchedEvent>("{}", "missing field `sessionId`");
        }

        fn directory_switches_only_to_known_sessions() {
            let host = Host::new();
            assert_eq!(host.list_sessions().current_session_id, "s-1");
            let unknown = block_on(host.switch_session("s-9")).expect_err("unknown");
            assert_eq!(unknown.code, SessionChangeRefusalCode::UnknownSession);
            block_on(host.switch_session("s-3")).expect("switches");
            assert_eq!(host.list_sessions().current_session_id, "s-3");
        }

        fn directory_new_session_reuses_an_empty_one() {
            let host = Host::new();
            block_on(host.new_session()).expect("starts");
            assert_eq!(host.list_sessions().current_session_id, "s-3");
            assert_eq!(host.list_sessions().sessions.len(), 3);
        }

        fn directory_refuses_to_rename_a_live_session() {
            let host = Host::new();
            let refusal = block_on(host.rename_session("s-2", "x")).expect_err("live");
            assert_eq!(refusal.code, SessionChangeRefusalCode::Failed);
            assert!(refusal.message.contains("live"));
            block_on(host.rename_session("s-3", "kept")).expect("stored only");
            let listing = host.list_sessions();
            assert_eq!(
                listing.entry("s-3").and_then(|row| row.summary.name.as_deref()),
                Some("kept")
            );
        }

        fn directory_delete_refusals_and_current_switch() {
            let host = Host::new();
            let elsewhere = block_on(host.delete_session("s-2")).expect_err("another client");
            assert_eq!(elsewhere.code, SessionDeleteRefusalCode::LiveElsewhere);
            let unknown = block_on(host.delete_session("s-9")).expect_err("unknown");
            assert_eq!(unknown.code, SessionDeleteRefusalCode::UnknownSession);
            // Deleting the current session switches away first, so the binding never points at
            // nothing.
            block_on(host.delete_session("s-1")).expect("deletes");
            let listing = host.list_sessions();
            assert_eq!(listing.current_session_id, "s-3");
            assert!(listing.entry("s-1").is_none());
            assert_eq!(*host.switches.borrow(), vec![s("s-3")]);
        }

        fn directory_delete_refuses_a_running_session() {
            let host = Host::new();
            host.sessions.borrow_mut()[1].clients = Some(0);
            let running = block_on(host.delete_session("s-2")).expect_err("mid-turn");
            assert_eq!(running.code, SessionDeleteRefusalCode::Running);
            assert!(is_session_delete_refusal(&running));
        }

        fn directory_keeps_a_waiting_prompt_answerable() {
            let host = Host::new();
            host.prompt_pending.set(true);
            let refusal = block_on(host.switch_session("s-3")).expect_err("last driver");
            assert_eq!(refusal.code, SessionChangeRefusalCode::PromptPending);
            assert_eq!(host.list_sessions().current_session_id, "s-1");
            host.other_drivers.set(1);
            block_on(host.switch_session("s-3")).expect("another driver stays");
        }

        fn binding_roles_are_drive_and_observe() {
            assert_eq!(SessionBindingRole::LITERALS, &["drive", "observe"]);
            literal_round_trip!(SessionBindingRole);
            rejects::<SessionBindingRole>(r#""watch""#, "unknown variant `watch`");
        }

        fn binder_hands_out_independent_bindings() {
            let binder = Binder {
                released: Rc::new(RefCell::new(Vec::new())),
            };
            let driver = binder.bind(SessionBindingRole::Drive);
            let observer = binder.bind(SessionBindingRole::Observe);
            assert_eq!(driver.session(), &Handle("stable"));
            block_on(driver.directory().switch_session("s-3")).expect("switches");
            assert_eq!(driver.directory().list_sessions().current_session_id, "s-3");
            // The other client's binding did not move.
            assert_eq!(observer.directory().list_sessions().current_session_id, "s-1");
            observer.release();
            driver.release();
            assert_eq!(
                *binder.released.borrow(),
                vec![SessionBindingRole::Observe, SessionBindingRole::Drive]
            );
        }

        fn switch_away_refuses_only_the_last_driver_with_a_waiting_prompt() {
            let last = SwitchAwayState {
                role: SessionBindingRole::Drive,
                other_drivers: 0,
                prompt_pending: true,
                turn_running: false,
            };
            assert!(last.is_last_driver());
            assert_eq!(
                switch_away_refusal(&last),
                Some(SessionChangeRefusalCode::PromptPending)
            );
            let company = SwitchAwayState { other_drivers: 1, ..last };
            assert!(!company.is_last_driver());
            assert_eq!(switch_away_refusal(&company), None);
            let observer = SwitchAwayState { role: SessionBindingRole::Observe, ..last };
            assert_eq!(switch_away_refusal(&observer), None);
            let no_prompt = SwitchAwayState { prompt_pending: false, ..last };
            assert_eq!(switch_away_refusal(&no_prompt), None);
        }

        fn switch_away_lets_a_driver_leave_a_busy_session() {
            let busy = SwitchAwayState {
                role: SessionBindingRole::Drive,
                other_drivers: 0,
                prompt_pending: false,
                turn_running: true,
            };
            assert_eq!(switch_away_refusal(&busy), None);
            let busy_and_waiting = SwitchAwayState { prompt_pending: true, ..busy };
            assert_eq!(
                switch_away_refusal(&busy_and_waiting),
                Some(SessionChangeRefusalCode::PromptPending)
            );
        }
    }

    mod refusals {
        fn change_codes_are_the_nine_in_order() {
            assert_eq!(
                SessionChangeRefusalCode::LITERALS,
                &[
                    "not_available",
                    "stopping",
                    "in_progress",
                    "prompt_pending",
                    "unknown_session",
                    "unreadable",
                    "start_failed",
                    "limit",
                    "failed",
                ]
            );
            assert_eq!(SESSION_CHANGE_REFUSAL_CODES, SessionChangeRefusalCode::ALL);
            assert_eq!(SESSION_CHANGE_REFUSAL_CODES.len(), 9);
            literal_round_trip!(SessionChangeRefusalCode);
        }

        fn delete_codes_are_the_six_in_order() {
            assert_eq!(
                SessionDeleteRefusalCode::LITERALS,
                &["not_available", "stopping", "unknown_session", "live_elsewhere", "running", "failed"]
            );
            assert_eq!(SESSION_DELETE_REFUSAL_CODES, SessionDeleteRefusalCode::ALL);
            assert_eq!(SESSION_DELETE_REFUSAL_CODES.len(), 6);
            literal_round_trip!(SessionDeleteRefusalCode);
        }

        fn every_change_code_is_recognised() {
            for code in SESSION_CHANGE_REFUSAL_CODES {
                let refusal = SessionChangeRefusal::new(*code, "refused");
                assert!(is_session_change_refusal(&refusal), "{code}");
                assert!(!is_session_delete_refusal(&refusal), "{code}");
                assert_eq!(as_session_change_refusal(&refusal).map(|r| r.code), Some(*code));
                // Through a boxed error too, as a transport boundary holds it.
                let boxed: Box<dyn core::error::Error> = Box::new(refusal);
                assert!(is_session_change_refusal(boxed.as_ref()), "boxed {code}");
            }
        }

        fn every_delete_code_is_recognised() {
            for code in SESSION_DELETE_REFUSAL_CODES {
                let refusal = SessionDeleteRefusal::new(*code, "");
                assert!(is_session_delete_refusal(&refusal), "{code}");
                assert!(!is_session_change_refusal(&refusal), "{code}");
                assert_eq!(as_session_delete_refusal(&refusal).map(|r| r.code), Some(*code));
                let boxed: Box<dyn core::error::Error> = Box::new(refusal);
                assert!(is_session_delete_refusal(boxed.as_ref()), "boxed {code}");
            }
        }

        fn another_name_is_not_a_refusal() {
            // A plain error, an error named otherwise, and a look-alike that only carries the
            // refusal's name are all real failures.
            let plain = ErrorValue::from_message("limit");
            let turn_not_run = ErrorValue::new("TurnNotRunError", "limit");
            let look_alike = ErrorValue::new("SessionChangeRefusal", "failed");
            let delete_look_alike = ErrorValue::new("SessionDeleteRefusal", "failed");
            for error in [&plain, &turn_not_run, &look_alike, &delete_look_alike] {
                assert!(!is_session_change_refusal(error), "{error}");
                assert!(!is_session_delete_refusal(error), "{error}");
                assert!(as_session_change_refusal(error).is_none());
            }
            let other = Refused("limit");
            assert!(!is_session_change_refusal(&other));
        }

        fn an_unknown_code_is_not_a_refusal() {
            for unknown in ["busy", "LIMIT", "", "unknown"] {
                assert_eq!(SessionChangeRefusalCode::from_literal(unknown), None, "{unknown}");
                assert_eq!(SessionDeleteRefusalCode::from_literal(unknown), None, "{unknown}");
            }
            // Each list refuses the other's own codes.
            for delete_only in ["live_elsewhere", "running"] {
                assert_eq!(SessionChangeRefusalCode::from_literal(delete_only), None);
            }
            for change_only in ["in_progress", "prompt_pending", "unreadable", "start_failed", "limit"] {
                assert_eq!(SessionDeleteRefusalCode::from_literal(change_only), None);
            }
        }

        fn change_refusal_round_trips() {
            let refusal: SessionChangeRefusal = golden(
                "change_refusal",
                include_str!("../golden/session/directory/change_refusal.json"),
            );
            assert_eq!(refusal.code, SessionChangeRefusalCode::PromptPending);
            assert_eq!(refusal.name(), "SessionChangeRefusal");
            assert!(is_session_change_refusal(&refusal));
            assert_eq!(
                refusal.to_string(),
                "SessionChangeRefusal (prompt_pending): a prompt waits for an answer"
            );
        }

        fn delete_refusal_round_trips() {
            let refusal: SessionDeleteRefusal = golden(
                "delete_refusal",
                include_str!("../golden/session/directory/delete_refusal.json"),
            );
            assert_eq!(refusal.code, SessionDeleteRefusalCode::LiveElsewhere);
            assert_eq!(refusal.name(), SessionDeleteRefusal::NAME);
            assert!(is_session_delete_refusal(&refusal));
            assert_eq!(
                SessionDeleteRefusal::new(SessionDeleteRefusalCode::Running, "").to_string(),
                "SessionDeleteRefusal (running)"
            );
        }

        fn refusal_without_message_reads_as_empty() {
            let refusal: SessionChangeRefusal =
                decode(&serde_json::json!({ "name": "SessionChangeRefusal", "code": "limit" }));
            assert_eq!(refusal, SessionChangeRefusal::new(SessionChangeRefusalCode::Limit, ""));
            assert_eq!(
                to_json(&refusal),
                serde_json::json!({ "name": "SessionChangeRefusal", "code": "limit", "message": "" })
            );
        }

        fn rejects_change_refusal_with_another_name() {
            rejects::<SessionChangeRefusal>(
                r#"{"name":"TurnNotRunError","code":"limit","message":""}"#,
                "must have name `SessionChangeRefusal`",
            );
        }

        fn rejects_delete_refusal_with_the_change_name() {
            rejects::<SessionDeleteRefusal>(
                r#"{"name":"SessionChangeRefusal","code":"failed","message":""}"#,
                "must have name `SessionDeleteRefusal`",
            );
        }

        fn rejects_unknown_change_code() {
            rejects::<SessionChangeRefusal>(
                r#"{"name":"SessionChangeRefusal","code":"busy","message":""}"#,
                "unknown variant `busy`",
            );
        }

        fn rejects_delete_code_outside_its_list() {
            rejects::<SessionDeleteRefusal>(
                r#"{"name":"SessionDeleteRefusal","code":"in_progress"}"#,
                "unknown variant `in_progress`",
            );
        }

        fn rejects_refusal_without_code() {
            rejects::<SessionChangeRefusal>(r#"{"name":"SessionChangeRefusal"}"#, "missing field `code`");
        }

        fn rejects_refusal_with_numeric_code() {
            rejects::<SessionDeleteRefusal>(r#"{"name":"SessionDeleteRefusal","code":1}"#, "integer `1`");
        }
    }

    mod channel {
        fn user_message_round_trips() {
            let event: InteractionEvent = golden(
                "event_user_message",
                include_str!("../golden/session/directory/event_user_message.json"),
            );
            assert_eq!(event, InteractionEvent::UserMessage { text: s("list the files") });
        }

        fn assistant_chunk_round_trips() {
            let event: InteractionEvent = golden(
                "event_assistant_chunk",
                include_str!("../golden/session/directory/event_assistant_chunk.json"),
            );
            assert_eq!(event, InteractionEvent::AssistantChunk { chunk: s("Here are") });
        }

        fn assistant_done_round_trips() {
            let event: InteractionEvent = golden(
                "event_assistant_done",
                include_str!("../golden/session/directory/event_assistant_done.json"),
            );
            assert_eq!(
                event,
                InteractionEvent::AssistantDone { full_text: s("Here are the files.") }
            );
        }

        fn tool_call_round_trips() {
            let event: InteractionEvent = golden(
                "event_tool_call",
                include_str!("../golden/session/directory/event_tool_call.json"),
            );
            assert_eq!(
                event,
                InteractionEvent::ToolCall {
                    id: s("t1"),
                    name: s("Bash"),
                    args: serde_json::json!({ "command": "ls" }),
                }
            );
        }

        fn tool_result_round_trips() {
            let event: InteractionEvent = golden(
                "event_tool_result",
                include_str!("../golden/session/directory/event_tool_result.json"),
            );
            let InteractionEvent::ToolResult { id, result, .. } = event else {
                panic!("not a tool result: {event:?}");
            };
            assert_eq!(id, "t1");
            assert_eq!(result.get("exitCode"), Some(&Value::from(0)));
        }

        fn command_result_round_trips() {
            let event: InteractionEvent = golden(
                "event_command_result",
                include_str!("../golden/session/directory/event_command_result.json"),
            );
            assert_eq!(
                event,
                InteractionEvent::CommandResult {
                    name: s("help"),
                    output: s("Available commands: /help"),
                }
            );
        }

        fn error_event_round_trips() {
            let event: InteractionEvent = golden(
                "event_error",
                include_str!("../golden/session/directory/event_error.json"),
            );
            assert_eq!(
                event,
                InteractionEvent::Error { error: ErrorValue::from_message("provider unreachable") }
            );
        }

        fn command_info_round_trips() {
            let info: CommandInfo = golden(
                "command_info",
                include_str!("../golden/session/directory/command_info.json"),
            );
            let subcommands = info.subcommands.as_deref().expect("has subcommands");
            assert_eq!(subcommands.len(), 2);
            assert_eq!(subcommands[0].name, "show");
            assert_eq!(subcommands[1].subcommands, None);
        }

        fn tool_call_observation_round_trips() {
            let observation: ToolCallObservation = golden(
                "tool_call_observation",
                include_str!("../golden/session/directory/tool_call_observation.json"),
            );
            assert_eq!(observation.args, serde_json::json!({ "command": "ls" }));
        }

        fn absent_args_and_result_read_as_null() {
            let call: InteractionEvent =
                decode(&serde_json::json!({ "type": "tool-call", "id": "t10", "name": "Grep" }));
            assert_eq!(read_tool_calls(&[call])[0].args, Value::Null);
            let result: InteractionEvent =
                decode(&serde_json::json!({ "type": "tool-result", "id": "t10", "name": "Grep" }));
            assert!(matches!(result, InteractionEvent::ToolResult { result: Value::Null, .. }));
        }

        fn permission_resolved_is_not_an_interaction_event() {
            rejects::<InteractionEvent>(
                r#"{"type":"permission-resolved","id":"p1","result":true}"#,
                "unknown variant `permission-resolved`",
            );
        }

        fn rejects_unknown_event_type() {
            rejects::<InteractionEvent>(r#"{"type":"bogus"}"#, "unknown variant `bogus`");
        }

        fn rejects_event_without_type() {
            rejects::<InteractionEvent>(r#"{"text":"hi"}"#, "missing field `type`");
        }

        fn rejects_assistant_done_without_full_text() {
            rejects::<InteractionEvent>(r#"{"type":"assistant-done","text":"x"}"#, "missing field `fullText`");
        }

        fn rejects_error_event_without_message() {
            rejects::<InteractionEvent>(r#"{"type":"error","error":{"name":"Error"}}"#, "missing field `message`");
        }

        fn rejects_command_info_without_description() {
            rejects::<CommandInfo>(r#"{"name":"help"}"#, "missing field `description`");
        }

        fn readers_on_a_mixed_stream() {
            let events = mixed_stream();
            let before = events.clone();
            assert_eq!(read_assistant_replies(&events), vec!["first reply", "second reply"]);
            assert_eq!(read_last_assistant_text(&events), Some("second reply"));
            assert_eq!(
                read_tool_calls(&events),
                vec![ToolCallObservation::new(
                    "t1",
                    "Bash",
                    serde_json::json!({ "command": "ls" }),
                )]
            );
            assert_eq!(read_errors(&events), vec![&ErrorValue::from_message("boom")]);
            assert_eq!(events, before, "the readers changed their input");
        }

        fn readers_on_an_empty_stream() {
            let events: Vec<InteractionEvent> = Vec::new();
            assert!(read_assistant_replies(&events).is_empty());
            assert_eq!(read_last_assistant_text(&events), None);
            assert!(read_tool_calls(&events).is_empty());
            assert!(read_errors(&events).is_empty());
        }

        fn chunks_are_not_replies_but_an_empty_reply_is() {
            let chunks = vec![
                InteractionEvent::AssistantChunk { chunk: s("a") },
                InteractionEvent::AssistantChunk { chunk: s("b") },
            ];
            assert!(read_assistant_replies(&chunks).is_empty());
            assert_eq!(read_last_assistant_text(&chunks), None);
            let empty = vec![InteractionEvent::AssistantDone { full_text: String::new() }];
            assert_eq!(read_assistant_replies(&empty), vec![""]);
            assert_eq!(read_last_assistant_text(&empty), Some(""));
        }

        fn channel_write_reaches_the_surface() {
            let mut channel = RecordingChannel {
                inbox: vec![s("hello"), s("ask")],
                ..RecordingChannel::default()
            };
            assert_eq!(block_on(serve(&mut channel)), Ok(2));
            assert_eq!(channel.written.len(), 5);
            assert_eq!(
                read_assistant_replies(&channel.written),
                vec!["echo: hello", "echo: ask"]
            );
            assert_eq!(read_errors(&channel.written).len(), 1);
            assert_eq!(channel.asked, vec![s("q1")]);
            assert_eq!(channel.busy, vec![true, false, true, false]);
            assert_eq!(channel.commands.len(), 1);
            assert!(channel.started && channel.stopped);
            // A stopped channel yields no more input, and a second start is the channel's error.
            assert_eq!(block_on(channel.next_submission()), None);
            assert_eq!(block_on(serve(&mut channel)), Err(Refused("already started")));
        }

        fn driver_observations_delegate_to_the_readers() {
            let mut driver = EchoDriver::default();
            assert_eq!(block_on(driver.send("a.rs")), Err(Refused("not started")));
            block_on(driver.start()).expect("starts");
            block_on(driver.start()).expect("idempotent");
            assert_eq!(driver.starts, 1);
            block_on(driver.send("a.rs")).expect("sends");
            block_on(driver.send("b.rs")).expect("sends");
            driver.queue_user_action(ActionResponse::Cancelled);
            assert_eq!(driver.queued.len(), 1);
            assert_eq!(driver.assistant_replies(), read_assistant_replies(driver.events()));
            assert_eq!(driver.assistant_replies(), vec!["read a.rs", "read b.rs"]);
            assert_eq!(driver.last_assistant_text(), Some("read b.rs"));
            let calls = driver.tool_calls();
            assert_eq!(calls.len(), 2);
            assert_eq!(calls[1].args, serde_json::json!({ "path": "b.rs" }));
            assert!(driver.errors().is_empty());
            block_on(driver.stop()).expect("stops");
        }

        fn terminal_handoff_restores_after_the_closure() {
            let log = Rc::new(RefCell::new(Vec::new()));
            let mut terminal = Terminal { interactive: true, log: Rc::clone(&log) };
            assert!(terminal.can_handoff_terminal());
            let inner = Rc::clone(&log);
            let failed: Result<Result<u8, Refused>, Refused> =
                block_on(terminal.run_with_terminal(|| async move {
                    inner.borrow_mut().push("child");
                    Err(Refused("child failed"))
                }));
            assert_eq!(failed, Ok(Err(Refused("child failed"))));
            assert_eq!(*log.borrow(), vec!["suspend", "child", "restore"]);
        }

        fn terminal_handoff_refuses_without_running() {
            let log = Rc::new(RefCell::new(Vec::new()));
            let mut headless = Terminal { interactive: false, log: Rc::clone(&log) };
            assert!(!headless.can_handoff_terminal());
            let ran = Cell::new(false);
            let outcome = block_on(headless.run_with_terminal(|| async {
                ran.set(true);
            }));
            assert_eq!(outcome, Err(Refused("no interactive terminal")));
            assert!(!ran.get());
            assert!(log.borrow().is_empty());
        }
    }

    mod read_contracts {
        fn prompt_history_entry_round_trips() {
            let entry: PromptHistoryEntry = golden(
                "prompt_history_entry",
                include_str!("../golden/session/directory/prompt_history_entry.json"),
            );
            assert_eq!(entry.session_id, "s-1");
            assert_eq!(entry.project, "/work/app");
            assert_eq!(entry.text, "fix the build");
        }

        fn prompt_history_block_round_trips() {
            let block: PromptHistoryBlock = golden(
                "prompt_history_block",
                include_str!("../golden/session/directory/prompt_history_block.json"),
            );
            assert_eq!(block.entries.len(), 2);
            assert!(block.entries[0].at > block.entries[1].at, "newest first");
            assert_eq!(block.skipped_lines, 1);
        }

        fn rejects_negative_skipped_lines() {
            rejects::<PromptHistoryBlock>(r#"{"entries":[],"skippedLines":-2}"#, "integer `-2`");
        }

        fn rejects_history_entry_without_session_id() {
            rejects::<PromptHistoryEntry>(
                r#"{"at":"t","project":"/","text":"x"}"#,
                "missing field `sessionId`",
            );
        }

        fn prompt_history_streams_blocks_until_the_end() {
            let history = History {
                blocks: vec![
                    PromptHistoryBlock::new(vec![entry("2026-09-02", "newest")], 0),
                    PromptHistoryBlock::new(vec![entry("2026-09-01", "older")], 2),
                ],
            };
            let signal = AtomicBool::new(false);
            let mut read = history.read(PromptHistoryReadOptions::new(&signal));
            let first = block_on(read.next_block()).expect("a block").expect("reads");
            assert_eq!(first.entries[0].text, "newest");
            let second = block_on(read.next_block()).expect("a block").expect("reads");
            assert_eq!(second.skipped_lines, 2);
            assert!(block_on(read.next_block()).is_none());
        }

        fn prompt_history_yields_no_block_after_abort() {
            let history = History {
                blocks: vec![
                    PromptHistoryBlock::new(vec![entry("2026-09-02", "a")], 0),
                    PromptHistoryBlock::new(vec![entry("2026-09-01", "b")], 0),
                ],
            };
            let signal = AtomicBool::new(false);
            let options = PromptHistoryReadOptions::new(&signal);
            let mut read = history.read(options);
            assert!(block_on(read.next_block()).is_some());
            signal.store(true, Ordering::Release);
            assert!(options.is_aborted());
            assert!(block_on(read.next_block()).is_none());
            assert!(block_on(read.next_block()).is_none());
        }

        fn prompt_history_writer_surfaces_failures() {
            let mut journal = Journal { room: 1, written: Vec::new() };
            journal.append(&entry("t1", "one")).expect("room for one");
            assert_eq!(journal.append(&entry("t2", "two")), Err(Refused("history is full")));
            assert_eq!(journal.written.len(), 1);
        }

        fn project_file_statuses_are_exact() {
            assert_eq!(
                ProjectFileStatus::LITERALS,
                &["Added", "Modified", "Deleted", "Renamed", "Copied", "Untracked", "Conflicted"]
            );
            literal_round_trip!(ProjectFileStatus);
        }

        fn project_status_round_trips() {
            let read: ProjectStatusRead = golden(
                "project_status",
                include_str!("../golden/session/directory/project_status.json"),
            );
            let ProjectStatusRead::Status { branch, unborn, files, truncated } = read else {
                panic!("not a status read");
            };
            assert_eq!(branch.as_deref(), Some("main"));
            assert!(!unborn && !truncated);
            let statuses: Vec<ProjectFileStatus> = files.iter().map(|file| file.status).collect();
            assert_eq!(statuses, ProjectFileStatus::ALL);
            let renamed: &ProjectStatusFile = &files[3];
            assert_eq!(renamed.renamed_from.as_deref(), Some("src/a.rs"));
            assert_eq!((files[5].added, files[5].removed), (None, None));
        }

        fn project_status_unborn_round_trips() {
            let read: ProjectStatusRead = golden(
                "project_status_unborn",
                include_str!("../golden/session/directory/project_status_unborn.json"),
            );
            assert_eq!(
                read,
                ProjectStatusRead::Status { branch: None, unborn: true, files: Vec::new(), truncated: true }
            );
        }

        fn project_status_other_kinds_round_trip() {
            let not_repo: ProjectStatusRead = golden(
                "project_status_not_a_repository",
                include_str!("../golden/session/directory/project_status_not_a_repository.json"),
            );
            assert_eq!(not_repo, ProjectStatusRead::NotARepository);
            let failed: ProjectStatusRead = golden(
                "project_status_failed",
                include_str!("../golden/session/directory/project_status_failed.json"),
            );
            assert_eq!(failed, ProjectStatusRead::Failed { message: s("git exited with status 128") });
        }

        fn rejects_unknown_project_file_status() {
            rejects::<ProjectStatusFile>(r#"{"path":"a","status":"Staged"}"#, "unknown variant `Staged`");
            rejects::<ProjectStatusFile>(r#"{"path":"a","status":"M"}"#, "unknown variant `M`");
        }

        fn rejects_negative_line_count() {
            rejects::<ProjectStatusFile>(r#"{"path":"a","status":"Modified","added":-4}"#, "integer `-4`");
        }

        fn rejects_status_read_without_unborn() {
            rejects::<ProjectStatusRead>(r#"{"kind":"status","files":[],"truncated":false}"#, "missing field `unborn`");
        }

        fn project_diff_round_trips() {
            let read: ProjectDiffRead = golden(
                "project_diff",
                include_str!("../golden/session/directory/project_diff.json"),
            );
            let ProjectDiffRead::Diff { diff_lines, truncated } = read else {
                panic!("not a diff");
            };
            assert!(!truncated);
            assert_eq!(diff_lines.len(), 4);
            assert_eq!(diff_lines[2].get("type"), Some(&Value::from("add")));
        }

        fn project_diff_other_kinds_round_trip() {
            let not_repo: ProjectDiffRead = golden(
                "project_diff_not_a_repository",
                include_str!("../golden/session/directory/project_diff_not_a_repository.json"),
            );
            assert_eq!(not_repo, ProjectDiffRead::NotARepository);
            let outside: ProjectDiffRead = golden(
                "project_diff_outside_workspace",
                include_str!("../golden/session/directory/project_diff_outside_workspace.json"),
            );
            assert_eq!(outside, ProjectDiffRead::OutsideWorkspace);
            let failed: ProjectDiffRead = golden(
                "project_diff_failed",
                include_str!("../golden/session/directory/project_diff_failed.json"),
            );
            assert_eq!(failed, ProjectDiffRead::Failed { message: s("binary file") });
        }

        fn rejects_unknown_diff_kind() {
            rejects::<ProjectDiffRead>(r#"{"kind":"patch","diffLines":[]}"#, "unknown variant `patch`");
        }

        fn project_memory_round_trips() {
            let memory: ProjectMemoryRead = golden(
                "project_memory",
                include_str!("../golden/session/directory/project_memory.json"),
            );
            let ProjectMemoryRead::Memory { content, path, truncated } = memory else {
                panic!("not a memory read");
            };
            assert!(content.starts_with("# Project memory"));
            assert_eq!(path, "~/.robota/memory/app.md");
            assert!(!truncated);
            let unavailable: ProjectMemoryRead = golden(
                "project_memory_unavailable",
                include_str!("../golden/session/directory/project_memory_unavailable.json"),
            );
            assert_eq!(
                unavailable,
                ProjectMemoryRead::Unavailable { message: s("This project has no memory yet.") }
            );
        }

        fn rejects_memory_without_path() {
            rejects::<ProjectMemoryRead>(r#"{"kind":"memory","content":"x","truncated":false}"#, "missing field `path`");
        }

        fn settings_snapshot_round_trips() {
            let snapshot: SettingsSnapshot = golden(
                "settings_snapshot",
                include_str!("../golden/session/directory/settings_snapshot.json"),
            );
            assert_eq!(snapshot.language.recommended.len(), 2);
            assert_eq!(snapshot.output_style.current, "default");
            assert_eq!(snapshot.preset.skips_all_checks_preset_ids, vec![s("yolo")]);
            assert_eq!(snapshot.permission_mode.skips_all_checks_mode, "bypassPermissions");
            let rules = &snapshot.permission_rules;
            assert_eq!(rules[0].id, "user:allow:Bash(ls:*)");
            assert_eq!(rules[0].kind, SettingsPermissionRuleKind::Allow);
            assert!(!rules[1].removable);
            assert!(!snapshot.sandbox.available);
            assert!(snapshot.sandbox.unavailable_reason.is_some());
        }

        fn settings_patches_round_trip() {
            let patches: [(&str, &str); 6] = [
                ("language", include_str!("../golden/session/directory/settings_patch_language.json")),
                ("outputStyle", include_str!("../golden/session/directory/settings_patch_output_style.json")),
                ("preset", include_str!("../golden/session/directory/settings_patch_preset.json")),
                ("permissionMode", include_str!("../golden/session/directory/settings_patch_permission_mode.json")),
                ("sandbox", include_str!("../golden/session/directory/settings_patch_sandbox.json")),
                (
                    "removePermissionRule",
                    include_str!("../golden/session/directory/settings_patch_remove_permission_rule.json"),
                ),
            ];
            let mut decoded = Vec::new();
            for (field, text) in patches {
                let patch: SettingsPatch = golden(field, text);
                assert_eq!(to_json(&patch).get("field"), Some(&Value::from(field)));
                decoded.push(patch);
            }
            assert_eq!(decoded[0], SettingsPatch::Language { language: s("ko") });
            assert_eq!(decoded[1], SettingsPatch::OutputStyle { style_id: s("explanatory") });
            assert_eq!(decoded[2], SettingsPatch::Preset { preset_id: s("safe") });
            assert_eq!(decoded[3], SettingsPatch::PermissionMode { mode: s("acceptEdits") });
            assert_eq!(decoded[4], SettingsPatch::Sandbox { enabled: true });
            assert_eq!(
                decoded[5],
                SettingsPatch::RemovePermissionRule {
                    scope: s("project"),
                    kind: SettingsPermissionRuleKind::Ask,
                    pattern: s("Bash(rm:*)"),
                }
            );
        }

        fn permission_rule_kinds_are_exact() {
            assert_eq!(SettingsPermissionRuleKind::LITERALS, &["allow", "deny", "ask"]);
            literal_round_trip!(SettingsPermissionRuleKind);
        }

        fn rejects_unknown_settings_field() {
            rejects::<SettingsPatch>(r#"{"field":"theme","theme":"dark"}"#, "unknown variant `theme`");
        }

        fn rejects_patch_without_its_value() {
            rejects::<SettingsPatch>(r#"{"field":"preset","styleId":"safe"}"#, "missing field `presetId`");
        }

        fn rejects_rule_removal_with_unknown_kind() {
            rejects::<SettingsPatch>(
                r#"{"field":"removePermissionRule","scope":"user","kind":"maybe","pattern":"x"}"#,
                "unknown variant `maybe`",
            );
        }

        fn rejects_sandbox_patch_with_text_flag() {
            rejects::<SettingsPatch>(r#"{"field":"sandbox","enabled":"yes"}"#, "string \"yes\"");
        }
    }
}
