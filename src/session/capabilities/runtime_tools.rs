//! The runtime-tool capability (`ISessionRuntimeTools`): the tools a session can run on a
//! caller's direct request, listed with their schemas and invoked with abortable execution.
//!
//! The session owns everything around such a call: permission, hooks, execution and audit
//! events, admission of the result, cancellation and shutdown. A transport only lists and
//! invokes through this port; it neither builds a parallel catalog nor runs commands itself.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::agent_core::{ToolExecutionResult, ToolParameters, ToolSchema};

use super::capability::CapabilityFuture;
use crate::agent_core::{AbortSignal, NeverAborted};
use crate::session::turns::DriverId;

/// How one runtime-tool call runs (the options of `invokeRuntimeTool`), generic over its abort
/// signal `S`.
///
/// The default fails closed: no signal, no person asked, no driver named.
///
/// `#[non_exhaustive]`, so the contract can add options: build it with
/// [`new`](RuntimeToolInvokeOptions::new) (or `Default`), [`with_signal`](Self::with_signal) and
/// [`allowing_prompt`](Self::allowing_prompt).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuntimeToolInvokeOptions<S = NeverAborted> {
    /// Cancels this call. Raising it while the call's permission prompt waits withdraws the
    /// prompt; the call then fails without running the tool.
    pub signal: Option<S>,
    /// May a permission decision this call needs be put to a person? `false` (the default) fails
    /// closed: a tool that needs a decision is denied without asking anyone.
    pub allow_permission_prompt: bool,
    /// The driver a permission prompt of this call is attributed to (its
    /// `requester_driver_id`), when one is opened.
    pub prompt_driver_id: Option<DriverId>,
}

impl<S> Default for RuntimeToolInvokeOptions<S> {
    fn default() -> Self {
        Self {
            signal: None,
            allow_permission_prompt: false,
            prompt_driver_id: None,
        }
    }
}

impl RuntimeToolInvokeOptions {
    /// The default options (fail closed, no signal), with the signal type fixed to
    /// [`NeverAborted`] so no annotation is needed before [`with_signal`](Self::with_signal).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl<S> RuntimeToolInvokeOptions<S> {
    /// The same options with `signal` as the abort signal.
    #[must_use]
    pub fn with_signal<T>(self, signal: T) -> RuntimeToolInvokeOptions<T> {
        RuntimeToolInvokeOptions {
            signal: Some(signal),
            allow_permission_prompt: self.allow_permission_prompt,
            prompt_driver_id: self.prompt_driver_id,
        }
    }

    /// The same options, letting a permission decision be put to a person and attributing the
    /// prompt to `driver_id` (when given).
    #[must_use]
    pub fn allowing_prompt(self, driver_id: Option<DriverId>) -> Self {
        Self {
            allow_permission_prompt: true,
            prompt_driver_id: driver_id,
            ..self
        }
    }

    /// What a session does when its permission policy wants a person's decision for this call:
    /// [`DenyWithoutAsking`](PermissionPromptRoute::DenyWithoutAsking) unless the caller allowed
    /// a prompt, else [`Ask`](PermissionPromptRoute::Ask) attributed to the named driver.
    #[must_use]
    pub fn prompt_route(&self) -> PermissionPromptRoute<'_> {
        if self.allow_permission_prompt {
            PermissionPromptRoute::Ask {
                driver_id: self.prompt_driver_id.as_deref(),
            }
        } else {
            PermissionPromptRoute::DenyWithoutAsking
        }
    }

    /// The options with the signal borrowed as a trait object (what the dyn-compatible companion
    /// takes).
    #[must_use]
    pub fn as_dyn(&self) -> RuntimeToolInvokeOptions<&dyn AbortSignal>
    where
        S: AbortSignal,
    {
        RuntimeToolInvokeOptions {
            signal: self
                .signal
                .as_ref()
                .map(|signal| signal as &dyn AbortSignal),
            allow_permission_prompt: self.allow_permission_prompt,
            prompt_driver_id: self.prompt_driver_id.clone(),
        }
    }
}

impl<S: AbortSignal> RuntimeToolInvokeOptions<S> {
    /// True when a signal was given and it reports an abort.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.signal.as_ref().is_some_and(AbortSignal::is_aborted)
    }
}

/// Where a permission decision a runtime-tool call needs goes, by the call's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PermissionPromptRoute<'a> {
    /// Fail closed: deny the tool without asking anyone (the default).
    DenyWithoutAsking,
    /// Open a permission prompt for a person to answer.
    Ask {
        /// The driver the prompt is attributed to, when the caller named one.
        driver_id: Option<&'a str>,
    },
}

/// Listing and invoking the session's runtime tools (`ISessionRuntimeTools`). Direct invocation
/// runs through the same permission-wrapped runtime as the model's own tool calls.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionRuntimeTools {
    /// Why a call failed without a result: it was cancelled, the tool is unknown, the session is
    /// shutting down.
    type Error: core::error::Error;

    /// The schemas of the tools a caller may invoke (`listRuntimeTools`).
    async fn list_runtime_tools(&self) -> Result<Vec<ToolSchema>, Self::Error>;

    /// Runs the tool `name` with `parameters` (`invokeRuntimeTool`).
    ///
    /// A decision the call needs goes where [`RuntimeToolInvokeOptions::prompt_route`] says: by
    /// default the tool is denied without asking (a result with `success: false`). When the
    /// options allow a prompt, the session opens one attributed to
    /// [`prompt_driver_id`](RuntimeToolInvokeOptions::prompt_driver_id) and waits for the first
    /// answer. Cancelling the call (raising the signal, or dropping the future) while that prompt
    /// waits withdraws it: it is unparked, `prompt_resolved` is emitted so surfaces dismiss it, a
    /// later answer is ignored, and the call fails without running the tool.
    async fn invoke_runtime_tool<S: AbortSignal>(
        &self,
        name: &str,
        parameters: &ToolParameters,
        options: RuntimeToolInvokeOptions<S>,
    ) -> Result<ToolExecutionResult, Self::Error>;
}

/// The dyn-compatible form of [`SessionRuntimeTools`], implemented for every runtime-tool role;
/// a `dyn DynSessionRuntimeTools` is itself a [`SessionRuntimeTools`].
pub trait DynSessionRuntimeTools {
    /// The role's [`SessionRuntimeTools::Error`].
    type Error: core::error::Error;
    /// [`SessionRuntimeTools::list_runtime_tools`], boxed.
    fn dyn_list_runtime_tools(&self) -> CapabilityFuture<'_, Result<Vec<ToolSchema>, Self::Error>>;
    /// [`SessionRuntimeTools::invoke_runtime_tool`], boxed, with the signal borrowed as a trait
    /// object.
    fn dyn_invoke_runtime_tool<'a>(
        &'a self,
        name: &'a str,
        parameters: &'a ToolParameters,
        options: RuntimeToolInvokeOptions<&'a dyn AbortSignal>,
    ) -> CapabilityFuture<'a, Result<ToolExecutionResult, Self::Error>>;
}

impl<T: SessionRuntimeTools> DynSessionRuntimeTools for T {
    type Error = T::Error;
    fn dyn_list_runtime_tools(&self) -> CapabilityFuture<'_, Result<Vec<ToolSchema>, T::Error>> {
        Box::pin(self.list_runtime_tools())
    }
    fn dyn_invoke_runtime_tool<'a>(
        &'a self,
        name: &'a str,
        parameters: &'a ToolParameters,
        options: RuntimeToolInvokeOptions<&'a dyn AbortSignal>,
    ) -> CapabilityFuture<'a, Result<ToolExecutionResult, T::Error>> {
        Box::pin(self.invoke_runtime_tool(name, parameters, options))
    }
}

impl<E: core::error::Error> SessionRuntimeTools for dyn DynSessionRuntimeTools<Error = E> + '_ {
    type Error = E;
    async fn list_runtime_tools(&self) -> Result<Vec<ToolSchema>, E> {
        self.dyn_list_runtime_tools().await
    }
    async fn invoke_runtime_tool<S: AbortSignal>(
        &self,
        name: &str,
        parameters: &ToolParameters,
        options: RuntimeToolInvokeOptions<S>,
    ) -> Result<ToolExecutionResult, E> {
        self.dyn_invoke_runtime_tool(name, parameters, options.as_dyn())
            .await
    }
}
