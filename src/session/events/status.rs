//! What a status line shows of a session (`ISessionStatusSnapshot`, the `status_changed` payload)
//! and the model picker's list (`IModelListSnapshot`).
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{ContextWindowState, ModelEffortSelection, PermissionMode};

use super::goal::GoalState;

/// The workspace a session runs in, as the status line names it.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionStatusWorkspace {
    /// Its display name.
    pub name: String,
    /// Its path.
    pub path: String,
}

impl SessionStatusWorkspace {
    /// A [`SessionStatusWorkspace`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(name: impl Into<String>, path: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            path: path.into(),
        }
    }
}

/// A snapshot of a session's status (`ISessionStatusSnapshot`), sent with `status_changed` when
/// the mode, model, effort, goal or name changes (context usage has `context_update` instead).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionStatusSnapshot {
    /// The session's id.
    pub session_id: String,
    /// The session's name, when it has one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub session_name: Option<String>,
    /// The model in use.
    pub model: String,
    /// The permission mode in force.
    pub permission_mode: PermissionMode,
    /// The effort requested of the model.
    pub effort: ModelEffortSelection,
    /// How full the context window is.
    pub context: ContextWindowState,
    /// The goal being pursued, or `None` (written as `null`; the key is required).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "required_nullable"))]
    pub goal: Option<GoalState>,
    /// True while no provider is configured. True-only on the wire: `false` leaves the key out,
    /// and an explicit `false` fails to decode.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "is_false",
            deserialize_with = "true_only"
        )
    )]
    pub setup_required: bool,
    /// The workspace the session runs in, when the host names one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub workspace: Option<SessionStatusWorkspace>,
}

impl SessionStatusSnapshot {
    /// A [`SessionStatusSnapshot`] from the members the contract requires, in its order; the
    /// optional ones start absent.
    #[must_use]
    pub fn new(
        session_id: impl Into<String>,
        model: impl Into<String>,
        permission_mode: PermissionMode,
        effort: ModelEffortSelection,
        context: ContextWindowState,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            model: model.into(),
            permission_mode,
            effort,
            context,
            session_name: None,
            goal: None,
            setup_required: false,
            workspace: None,
        }
    }

    /// The same value with `setup_required` set: true while no provider is configured.
    #[must_use]
    pub fn with_setup_required(mut self, setup_required: bool) -> Self {
        self.setup_required = setup_required;
        self
    }
}

optional_setters!(SessionStatusSnapshot {
    /// The same value with `session_name` set: the session's name, when it has one.
    with_session_name => session_name: impl Into<String>,
    /// The same value with `goal` set: the goal being pursued (without one the snapshot writes
    /// `goal: null`).
    with_goal => goal: GoalState,
    /// The same value with `workspace` set: the workspace the session runs in, when the host names
    /// one.
    with_workspace => workspace: SessionStatusWorkspace,
});

/// Skips `setupRequired` when it is `false`.
#[cfg(feature = "serde")]
const fn is_false(value: &bool) -> bool {
    !*value
}

/// Reads `setupRequired`, refusing an explicit `false`.
#[cfg(feature = "serde")]
fn true_only<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    if <bool as serde::Deserialize>::deserialize(deserializer)? {
        Ok(true)
    } else {
        Err(serde::de::Error::custom(
            "`setupRequired` is true-only: leave the key out instead of writing `false`",
        ))
    }
}

/// Reads a key that must be present but may be `null`.
#[cfg(feature = "serde")]
fn required_nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    <Option<T> as serde::Deserialize>::deserialize(deserializer)
}

/// One model the picker offers (`IModelCatalogEntry`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ModelCatalogEntry {
    /// The model's id, as the provider knows it.
    pub id: String,
    /// Its display label.
    pub label: String,
}

impl ModelCatalogEntry {
    /// A [`ModelCatalogEntry`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(id: impl Into<String>, label: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            label: label.into(),
        }
    }
}

/// The models of one provider profile (`IModelListGroup`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ModelListGroup {
    /// The profile's name.
    pub profile_name: String,
    /// The provider's display label.
    pub provider_label: String,
    /// Its models, in catalog order.
    pub models: Vec<ModelCatalogEntry>,
}

impl ModelListGroup {
    /// A [`ModelListGroup`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        profile_name: impl Into<String>,
        provider_label: impl Into<String>,
        models: Vec<ModelCatalogEntry>,
    ) -> Self {
        Self {
            profile_name: profile_name.into(),
            provider_label: provider_label.into(),
            models,
        }
    }
}

/// The model picker's list (`IModelListSnapshot`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ModelListSnapshot {
    /// The groups: the current profile first, then the others in settings order.
    pub groups: Vec<ModelListGroup>,
    /// The current profile, when one is selected.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub current_profile: Option<String>,
    /// The model in use.
    pub current_model: String,
}

impl ModelListSnapshot {
    /// A [`ModelListSnapshot`] from the members the contract requires, in its order; the optional
    /// ones start absent.
    #[must_use]
    pub fn new(groups: Vec<ModelListGroup>, current_model: impl Into<String>) -> Self {
        Self {
            groups,
            current_model: current_model.into(),
            current_profile: None,
        }
    }
}

optional_setters!(ModelListSnapshot {
    /// The same value with `current_profile` set: the current profile, when one is selected.
    with_current_profile => current_profile: impl Into<String>,
});
