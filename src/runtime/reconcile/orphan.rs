//! Finding the broken halves of tool call/result pairs in a transcript, both directions, in
//! first-appearance order ([`find_orphan_tool_calls`]).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::agent_core::UniversalMessage;

use super::effect::ToolCallIds;
use super::index::{IdIndex, Probe};

/// A call-orphan: an assistant tool call that no tool message answers.
///
/// This is the kind [`reconcile_interrupted_session`](super::reconcile_interrupted_session)
/// closes with a synthetic interrupted result. On the wire `{"toolCallId", "toolName"}` (no
/// `kind`: its absence means a call-orphan).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct CallOrphan {
    /// The id of the unanswered call ([`ToolCall::id`](crate::agent_core::ToolCall::id)).
    pub tool_call_id: String,
    /// The tool the call named.
    pub tool_name: String,
}

/// A result-orphan: a tool message whose `toolCallId` no assistant tool call carries.
///
/// Providers refuse a request in which a result answers no call, and appending another result
/// cannot fix that, so reconciling reports it and appends nothing for it: a caller deciding on a
/// repair (leaving the stray result out of a request, say) filters on this kind. On the wire
/// `{"toolCallId", "toolName"?, "kind": "result"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::OrphanWire", into = "wire::OrphanWire")
)]
pub struct ResultOrphan {
    /// The call id the stray result names.
    pub tool_call_id: String,
    /// The tool name the result carries, when it carries one (a tool message's `name` is
    /// optional).
    pub tool_name: Option<String>,
}

/// One broken half of a tool call/result pair (`OrphanToolCall`): which half is missing is the
/// variant.
///
/// On the wire one flat record, `{"toolCallId", "toolName", "kind"?}`: `kind` is absent for a
/// call-orphan and `"result"` for a result-orphan (any other `kind`, an unknown field, or a
/// call-orphan without `toolName` fails to decode).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::OrphanWire", into = "wire::OrphanWire")
)]
pub enum OrphanToolCall {
    /// A call with no result: reconcile-actionable.
    Call(CallOrphan),
    /// A result with no call: reported, never repaired by appending.
    Result(ResultOrphan),
}

impl OrphanToolCall {
    /// The call id of the broken pair.
    #[must_use]
    pub fn tool_call_id(&self) -> &str {
        match self {
            Self::Call(orphan) => &orphan.tool_call_id,
            Self::Result(orphan) => &orphan.tool_call_id,
        }
    }

    /// The tool's name: always known for a call-orphan, known for a result-orphan only when the
    /// stray result names it.
    #[must_use]
    pub fn tool_name(&self) -> Option<&str> {
        match self {
            Self::Call(orphan) => Some(&orphan.tool_name),
            Self::Result(orphan) => orphan.tool_name.as_deref(),
        }
    }

    /// True for a call-orphan, the kind reconciling closes.
    #[must_use]
    pub const fn is_call(&self) -> bool {
        matches!(self, Self::Call(_))
    }

    /// The call-orphan, if this is one.
    #[must_use]
    pub const fn as_call(&self) -> Option<&CallOrphan> {
        match self {
            Self::Call(orphan) => Some(orphan),
            Self::Result(_) => None,
        }
    }

    /// The result-orphan, if this is one.
    #[must_use]
    pub const fn as_result(&self) -> Option<&ResultOrphan> {
        match self {
            Self::Call(_) => None,
            Self::Result(orphan) => Some(orphan),
        }
    }
}

impl From<CallOrphan> for OrphanToolCall {
    fn from(orphan: CallOrphan) -> Self {
        Self::Call(orphan)
    }
}

impl From<ResultOrphan> for OrphanToolCall {
    fn from(orphan: ResultOrphan) -> Self {
        Self::Result(orphan)
    }
}

/// A transcript that pairs calls and results ambiguously: reconciling refuses it rather than
/// guess, and appends nothing.
///
/// Each variant names the call id and the entry ids (the messages' ids) of the two messages
/// involved, so a host can show or repair the transcript.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TranscriptError {
    /// Two assistant tool calls (in one message or in two) carry the same id, so a result
    /// could not say which one it answers.
    #[error(
        "tool call id `{tool_call_id}` is used by two calls (entries `{first_entry_id}` and \
         `{second_entry_id}`)"
    )]
    DuplicateToolCall {
        /// The id the calls share.
        tool_call_id: String,
        /// The entry id of the message with the first call.
        first_entry_id: String,
        /// The entry id of the message with the second call (the same as the first when one
        /// message repeats the id).
        second_entry_id: String,
    },
    /// Two tool messages answer the same call id.
    #[error(
        "tool call `{tool_call_id}` has two results (entries `{first_entry_id}` and \
         `{second_entry_id}`)"
    )]
    DuplicateToolResult {
        /// The id both results name.
        tool_call_id: String,
        /// The entry id of the first result.
        first_entry_id: String,
        /// The entry id of the second result.
        second_entry_id: String,
    },
    /// A tool message answers a call that appears only later in the transcript.
    #[error(
        "the result of tool call `{tool_call_id}` (entry `{result_entry_id}`) comes before the \
         call (entry `{call_entry_id}`)"
    )]
    ResultBeforeCall {
        /// The id the result and the call share.
        tool_call_id: String,
        /// The entry id of the (earlier) result.
        result_entry_id: String,
        /// The entry id of the (later) message with the call.
        call_entry_id: String,
    },
}

impl TranscriptError {
    /// The tool-call id the error is about.
    #[must_use]
    pub fn tool_call_id(&self) -> &str {
        match self {
            Self::DuplicateToolCall { tool_call_id, .. }
            | Self::DuplicateToolResult { tool_call_id, .. }
            | Self::ResultBeforeCall { tool_call_id, .. } => tool_call_id,
        }
    }
}

/// What the scan knows about one call id, kept in first-appearance order.
enum Seen<'m> {
    /// An assistant call, with the entry of its result once one arrives.
    Call {
        tool_call_id: &'m str,
        call_entry: &'m str,
        tool_name: &'m str,
        answered_by: Option<&'m str>,
    },
    /// A result whose call has not appeared.
    Result {
        tool_call_id: &'m str,
        result_entry: &'m str,
        tool_name: Option<&'m str>,
    },
}

/// Finds the broken halves of tool call/result pairs in `messages` (one branch, root to leaf),
/// in first-appearance order (`findOrphanToolCalls`).
///
/// - A **call-orphan** is an assistant tool call no tool message answers; its position is the
///   call's. A call whose id is in `suspended_batch` (a deliberately suspended batch waiting for
///   its checkpoint to resume) is **not** an orphan and is never returned.
/// - A **result-orphan** is a tool message whose `toolCallId` no assistant call carries; its
///   position is the result's.
///
/// User and system messages are skipped. The entry id of a message is its
/// [`id`](UniversalMessage::id). The scan reads each message once and changes nothing.
///
/// # Cost
///
/// One pass with an index of the call ids seen: a hash table, so the cost is linear in the
/// number of calls and results (`hosted/benches/reconcile_orphans.rs`). The hash is not keyed
/// (the crate reads no entropy), so ids crafted to collide could make probes long; the first long
/// probe turns the index into an ordered map for the rest of the scan, which bounds the worst
/// case at O(n log n). Add one suspended-batch lookup per unanswered call.
///
/// # Errors
///
/// A transcript whose pairing is ambiguous is refused with a [`TranscriptError`]: two calls
/// with one id, two results for one call, or a result before its call.
pub fn find_orphan_tool_calls<'m, I>(
    messages: I,
    suspended_batch: Option<&dyn ToolCallIds>,
) -> Result<Vec<OrphanToolCall>, TranscriptError>
where
    I: IntoIterator<Item = &'m UniversalMessage>,
{
    let mut seen: Vec<Seen<'m>> = Vec::new();
    let mut index = IdIndex::new();
    for message in messages {
        match message {
            UniversalMessage::Assistant(assistant) => {
                let entry = assistant.base.id.as_str();
                for call in assistant.tool_calls.iter().flatten() {
                    let vacancy = match index.probe(&call.id) {
                        Probe::Absent(vacancy) => vacancy,
                        Probe::Found(position) => {
                            return Err(match seen.get(position) {
                                Some(Seen::Result { result_entry, .. }) => {
                                    TranscriptError::ResultBeforeCall {
                                        tool_call_id: call.id.clone(),
                                        result_entry_id: (*result_entry).to_string(),
                                        call_entry_id: entry.to_string(),
                                    }
                                }
                                Some(Seen::Call { call_entry, .. }) => {
                                    duplicate_call(&call.id, call_entry, entry)
                                }
                                // Every position in the index is one of `seen`.
                                None => duplicate_call(&call.id, entry, entry),
                            });
                        }
                    };
                    index.insert(&call.id, seen.len(), vacancy);
                    seen.push(Seen::Call {
                        tool_call_id: &call.id,
                        call_entry: entry,
                        tool_name: &call.function.name,
                        answered_by: None,
                    });
                }
            }
            UniversalMessage::Tool(tool) => {
                let entry = tool.base.id.as_str();
                let vacancy = match index.probe(&tool.tool_call_id) {
                    Probe::Absent(vacancy) => vacancy,
                    Probe::Found(position) => match seen.get_mut(position) {
                        Some(Seen::Call {
                            answered_by: answered_by @ None,
                            ..
                        }) => {
                            *answered_by = Some(entry);
                            continue;
                        }
                        Some(
                            Seen::Call {
                                answered_by: Some(first),
                                ..
                            }
                            | Seen::Result {
                                result_entry: first,
                                ..
                            },
                        ) => {
                            return Err(TranscriptError::DuplicateToolResult {
                                tool_call_id: tool.tool_call_id.clone(),
                                first_entry_id: (*first).to_string(),
                                second_entry_id: entry.to_string(),
                            });
                        }
                        // Every position in the index is one of `seen`.
                        None => continue,
                    },
                };
                index.insert(&tool.tool_call_id, seen.len(), vacancy);
                seen.push(Seen::Result {
                    tool_call_id: &tool.tool_call_id,
                    result_entry: entry,
                    tool_name: tool.name.as_deref(),
                });
            }
            UniversalMessage::User(_) | UniversalMessage::System(_) => {}
        }
    }
    drop(index);
    let suspended = |id: &str| suspended_batch.is_some_and(|set| set.contains_tool_call_id(id));
    Ok(seen
        .into_iter()
        .filter_map(|seen| match seen {
            Seen::Call {
                tool_call_id,
                tool_name,
                answered_by: None,
                ..
            } if !suspended(tool_call_id) => Some(OrphanToolCall::Call(CallOrphan {
                tool_call_id: tool_call_id.to_string(),
                tool_name: tool_name.to_string(),
            })),
            Seen::Call { .. } => None,
            Seen::Result {
                tool_call_id,
                tool_name,
                ..
            } => Some(OrphanToolCall::Result(ResultOrphan {
                tool_call_id: tool_call_id.to_string(),
                tool_name: tool_name.map(ToString::to_string),
            })),
        })
        .collect())
}

fn duplicate_call(tool_call_id: &str, first: &str, second: &str) -> TranscriptError {
    TranscriptError::DuplicateToolCall {
        tool_call_id: tool_call_id.to_string(),
        first_entry_id: first.to_string(),
        second_entry_id: second.to_string(),
    }
}

/// The flat wire record of an orphan: `{"toolCallId", "toolName"?, "kind"?: "result"}`.
#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{CallOrphan, OrphanToolCall, ResultOrphan};

    /// The one `kind` literal the wire knows (`"result"`); an absent `kind` is a call-orphan.
    pub(super) struct ResultKind;

    impl serde::Serialize for ResultKind {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str("result")
        }
    }

    impl<'de> serde::Deserialize<'de> for ResultKind {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            crate::literal::deserialize(deserializer, &["result"], |text| {
                (text == "result").then_some(Self)
            })
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub(super) struct OrphanWire {
        tool_call_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<ResultKind>,
    }

    const CALL_WITHOUT_NAME: &str = "a call-orphan (no `kind`) must name its tool (`toolName`)";

    impl TryFrom<OrphanWire> for OrphanToolCall {
        type Error = &'static str;

        fn try_from(wire: OrphanWire) -> Result<Self, Self::Error> {
            match (wire.kind, wire.tool_name) {
                (Some(ResultKind), tool_name) => Ok(Self::Result(ResultOrphan {
                    tool_call_id: wire.tool_call_id,
                    tool_name,
                })),
                (None, Some(tool_name)) => Ok(Self::Call(CallOrphan {
                    tool_call_id: wire.tool_call_id,
                    tool_name,
                })),
                (None, None) => Err(CALL_WITHOUT_NAME),
            }
        }
    }

    impl From<OrphanToolCall> for OrphanWire {
        fn from(orphan: OrphanToolCall) -> Self {
            match orphan {
                OrphanToolCall::Call(call) => Self {
                    tool_call_id: call.tool_call_id,
                    tool_name: Some(call.tool_name),
                    kind: None,
                },
                OrphanToolCall::Result(result) => result.into(),
            }
        }
    }

    impl TryFrom<OrphanWire> for ResultOrphan {
        type Error = &'static str;

        fn try_from(wire: OrphanWire) -> Result<Self, Self::Error> {
            match wire.kind {
                Some(ResultKind) => Ok(Self {
                    tool_call_id: wire.tool_call_id,
                    tool_name: wire.tool_name,
                }),
                None => Err("a result-orphan has `kind: \"result\"`"),
            }
        }
    }

    impl From<ResultOrphan> for OrphanWire {
        fn from(orphan: ResultOrphan) -> Self {
            Self {
                tool_call_id: orphan.tool_call_id,
                tool_name: orphan.tool_name,
                kind: Some(ResultKind),
            }
        }
    }
}
