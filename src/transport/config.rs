//! Persisted configuration of a transport (`transport-config`): what is saved under its name,
//! the settings capability it may declare, the configuration error shape, and the registry's
//! lifecycle and settings views.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{DestroyResult, ErrorValue, Value, ValueMap};

use super::adapters::{TransportLifecycleError, TransportStartupError};
use super::outcomes::{TransportCompletionRecord, TransportFailureRecord};

/// A transport's resolved configuration (`ITransportConfig`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and
/// the `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TransportConfig {
    /// Whether the registry starts it.
    pub enabled: bool,
    /// Its options, by option name.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub options: Option<ValueMap>,
}

/// What the host persists for one transport under its name (`ITransportSavedConfig`).
///
/// `#[non_exhaustive]`, so the contract can add members: every member is optional, so build it
/// from [`Default`] (nothing saved) and the `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TransportSavedConfig {
    /// The saved enabled flag, when one was saved.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub enabled: Option<bool>,
    /// The saved options, when any were saved.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub options: Option<ValueMap>,
}

impl TransportConfig {
    /// A configuration with the enabled flag and no options.
    #[must_use]
    pub const fn new(enabled: bool) -> Self {
        Self {
            enabled,
            options: None,
        }
    }
}

optional_setters!(TransportConfig {
    /// Sets the options.
    with_options => options: ValueMap,
});

impl TransportSavedConfig {
    /// Sets the saved enabled flag.
    #[must_use]
    pub const fn with_enabled(mut self, enabled: bool) -> Self {
        self.enabled = Some(enabled);
        self
    }

    /// The configuration this saved entry resolves to: `enabled = saved ?? default_enabled`,
    /// `options = saved ?? {}` (always present once resolved).
    #[must_use]
    pub fn resolve(&self, default_enabled: bool) -> TransportConfig {
        TransportConfig {
            enabled: self.enabled.unwrap_or(default_enabled),
            options: Some(self.options.clone().unwrap_or_default()),
        }
    }
}

optional_setters!(TransportSavedConfig {
    /// Sets the saved options.
    with_options => options: ValueMap,
});

/// One option a transport declares in its schema (value of `optionsSchema`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and
/// the `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TransportOptionSchema {
    /// The option's type label (wire `type`), e.g. `"string"`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: String,
    /// What the option does.
    pub description: String,
    /// The value used when none is saved.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub default: Option<Value>,
}

impl TransportOptionSchema {
    /// An option of type `kind` described by `description`, with no default.
    #[must_use]
    pub fn new(kind: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            kind: kind.into(),
            description: description.into(),
            default: None,
        }
    }
}

optional_setters!(TransportOptionSchema {
    /// Sets the value used when none is saved.
    with_default => default: Value,
});

/// The options schema of a transport: option name to its declaration.
pub type TransportOptionsSchema = BTreeMap<String, TransportOptionSchema>;

/// The settings a configurable transport declares (`ITransportSettingsCapability`).
///
/// Every member but [`default_enabled`](Self::default_enabled) is optional in TypeScript; here
/// each has a default: no schema, every option set valid, and a `configure` that refuses with
/// `options-not-applicable`, so saved options are never silently ignored.
pub trait TransportSettingsCapability {
    /// Whether the transport is enabled when nothing is persisted.
    fn default_enabled(&self) -> bool;

    /// The declared options, when the transport has a schema.
    fn options_schema(&self) -> Option<&TransportOptionsSchema> {
        None
    }

    /// Whether `options` are acceptable (`validateOptions`).
    fn validate_options(&self, options: &ValueMap) -> bool {
        let _ = options;
        true
    }

    /// Receives the resolved saved options before attach and start (`configure`). The default
    /// has no way to apply options: it accepts an empty set and refuses any other with
    /// `options-not-applicable`, so saved options are never silently ignored.
    ///
    /// # Errors
    /// The configuration error code to report for this transport.
    fn configure(&self, options: &ValueMap) -> Result<(), TransportConfigurationErrorCode> {
        if options.is_empty() {
            Ok(())
        } else {
            Err(TransportConfigurationErrorCode::OptionsNotApplicable)
        }
    }
}

impl<T: TransportSettingsCapability + ?Sized> TransportSettingsCapability for &T {
    fn default_enabled(&self) -> bool {
        (**self).default_enabled()
    }

    fn options_schema(&self) -> Option<&TransportOptionsSchema> {
        (**self).options_schema()
    }

    fn validate_options(&self, options: &ValueMap) -> bool {
        (**self).validate_options(options)
    }

    fn configure(&self, options: &ValueMap) -> Result<(), TransportConfigurationErrorCode> {
        (**self).configure(options)
    }
}

/// The host's store of saved configuration (`ITransportSettingsRepository`).
pub trait TransportSettingsRepository {
    /// Why reading or writing failed.
    type Error: core::error::Error;

    /// Every saved entry, by transport name.
    fn read_all(&self) -> Result<BTreeMap<String, TransportSavedConfig>, Self::Error>;

    /// Saves `saved` under `name`, merging: keys absent from `saved` stay as they were.
    fn write(&self, name: &str, saved: &TransportSavedConfig) -> Result<(), Self::Error>;
}

string_enum! {
    /// The code of a configuration error (`TTransportConfigurationErrorCode`).
    pub enum TransportConfigurationErrorCode {
        /// `'unknown-transport'`: no transport has that name.
        UnknownTransport = "unknown-transport",
        /// `'not-configurable'`: the transport declares no settings.
        NotConfigurable = "not-configurable",
        /// `'invalid-options'`: the saved options failed validation.
        InvalidOptions = "invalid-options",
        /// `'options-not-applicable'`: options are saved but the transport cannot apply them.
        OptionsNotApplicable = "options-not-applicable",
    }
}

/// A configuration failure (`ITransportConfigurationError`).
///
/// Wire form: `{"name": "TransportConfigurationError", "code": …, "transportName": …}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::ConfigErrorWire", into = "wire::ConfigErrorWire")
)]
#[error("{} ({code}): {transport_name}", Self::NAME)]
pub struct TransportConfigurationError {
    /// What went wrong.
    pub code: TransportConfigurationErrorCode,
    /// The transport it concerns.
    pub transport_name: String,
}

impl TransportConfigurationError {
    /// The error name, written on the wire as `name`.
    pub const NAME: &'static str = "TransportConfigurationError";

    /// The error `code` for transport `transport_name`.
    #[must_use]
    pub fn new(code: TransportConfigurationErrorCode, transport_name: impl Into<String>) -> Self {
        Self {
            code,
            transport_name: transport_name.into(),
        }
    }
}

/// One configurable transport as the settings view lists it (`ITransportEntry`, settings-only
/// projection): its name stands for the transport.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TransportEntry {
    /// The transport's unique name.
    pub name: String,
    /// Its resolved configuration.
    pub config: TransportConfig,
}

/// A refused registration: another transport already has this name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("a transport named {name} is already registered")]
pub struct DuplicateTransportName {
    /// The name already registered.
    pub name: String,
}

/// Why start-all failed. Whatever the variant, the registry is idle again afterwards and no
/// transport of the attempt is left running.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportStartAllError {
    /// The registry is already started (`already-started`).
    #[error(transparent)]
    Lifecycle(TransportLifecycleError),
    /// The saved settings could not be read (the repository's error, as a value); nothing was
    /// started.
    #[error("the transport settings could not be read: {0}")]
    SettingsUnreadable(ErrorValue),
    /// A transport's saved options were refused (`invalid-options`,
    /// `options-not-applicable`); nothing was started.
    #[error(transparent)]
    Configuration(TransportConfigurationError),
    /// A transport failed to start and the run was rolled back.
    #[error(transparent)]
    Startup(TransportStartupError),
    /// A stop-all preempted the start; what had started was stopped again.
    #[error("start-all was preempted by stop-all")]
    Preempted,
}

/// Why a settings-view call failed: a configuration refusal, or the repository's own error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportSettingsError<E> {
    /// `unknown-transport` or `not-configurable`.
    #[error(transparent)]
    Configuration(TransportConfigurationError),
    /// The settings repository failed.
    #[error("the transport settings repository failed: {0}")]
    Repository(E),
}

/// The registry's lifecycle view (`ITransportLifecycleRegistryView`, bound form): it takes only
/// bound adapters (the [`Adapter`](Self::Adapter) type), never a session.
#[allow(async_fn_in_trait)]
pub trait TransportLifecycleRegistryView {
    /// The bound adapter type this registry holds.
    type Adapter;

    /// Registers a bound adapter; refuses a duplicate name.
    fn register(&self, adapter: Self::Adapter) -> Result<(), DuplicateTransportName>;

    /// Starts every enabled transport in registration order.
    async fn start_all(&self) -> Result<(), TransportStartAllError>;

    /// One record per runner of the current run, in registration order (empty when none).
    async fn wait_for_completion(
        &self,
    ) -> Result<Vec<TransportCompletionRecord>, TransportLifecycleError>;

    /// The first failed runner, or `None` when all succeeded or the run was abandoned.
    async fn wait_for_failure(
        &self,
    ) -> Result<Option<TransportFailureRecord>, TransportLifecycleError>;

    /// Stops everything, best-effort; never fails, reports each stop error.
    async fn stop_all(&self) -> DestroyResult;
}

/// The registry's settings view (`ITransportSettingsRegistryView`).
#[allow(async_fn_in_trait)]
pub trait TransportSettingsRegistryView {
    /// The settings repository's error.
    type RepositoryError;

    /// Every configurable transport with its resolved configuration, in registration order.
    ///
    /// # Errors
    /// The repository's error when the saved settings cannot be read.
    fn get_all(&self) -> Result<Vec<TransportEntry>, Self::RepositoryError>;

    /// Saves the enabled flag of `name`, leaving its other saved keys intact.
    ///
    /// # Errors
    /// `unknown-transport`, `not-configurable`, or the repository's error.
    async fn set_enabled(
        &self,
        name: &str,
        enabled: bool,
    ) -> Result<(), TransportSettingsError<Self::RepositoryError>>;

    /// Saves the options of `name`, leaving its other saved keys intact.
    ///
    /// # Errors
    /// `unknown-transport`, `not-configurable`, or the repository's error.
    async fn set_options(
        &self,
        name: &str,
        options: ValueMap,
    ) -> Result<(), TransportSettingsError<Self::RepositoryError>>;
}

/// Both registry views (`ITransportRegistryView`); implemented for every type that has both.
pub trait TransportRegistryView:
    TransportLifecycleRegistryView + TransportSettingsRegistryView
{
}

impl<T: TransportLifecycleRegistryView + TransportSettingsRegistryView> TransportRegistryView
    for T
{
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{TransportConfigurationError, TransportConfigurationErrorCode};

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ConfigErrorWire {
        name: String,
        code: TransportConfigurationErrorCode,
        transport_name: String,
    }

    impl From<TransportConfigurationError> for ConfigErrorWire {
        fn from(error: TransportConfigurationError) -> Self {
            Self {
                name: String::from(TransportConfigurationError::NAME),
                code: error.code,
                transport_name: error.transport_name,
            }
        }
    }

    impl TryFrom<ConfigErrorWire> for TransportConfigurationError {
        type Error = String;
        fn try_from(wire: ConfigErrorWire) -> Result<Self, String> {
            if wire.name != Self::NAME {
                return Err(alloc::format!(
                    "expected error name `{}`, got `{}`",
                    Self::NAME,
                    wire.name
                ));
            }
            Ok(Self::new(wire.code, wire.transport_name))
        }
    }
}
