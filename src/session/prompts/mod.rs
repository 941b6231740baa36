//! Prompts a session raises and how they are answered: permission answers, who asks, the
//! permission and ask requests, the one canonical `prompt_resolved` event, and the handler port a
//! surface implements to answer permission requests.
//!
//! # Guarantees
//!
//! - Every prompt kind settles through one `prompt_resolved` event ([`PromptResolvedEvent`]);
//!   there is no per-kind "resolved" event.
//! - A `permission_request` says whether project consent can be persisted, so a surface offers
//!   [`PermissionResultValue::AllowProject`] only where it can be kept.
//!
//! # Example
//!
//! ```
//! use agent_interface::session::prompts::PermissionResultValue;
//!
//! assert!(PermissionResultValue::AllowSession.allows());
//! assert_eq!(PermissionResultValue::from_bool(false), PermissionResultValue::Deny);
//! assert_eq!(
//!     PermissionResultValue::from_literal("allow-project"),
//!     Some(PermissionResultValue::AllowProject)
//! );
//! ```

mod prompt;

pub use prompt::{
    AskRequestEvent, BackgroundAgentPermissionRequester, ContextFileRefreshedEvent,
    InteractivePermissionHandler, PermissionRequestEvent, PermissionRequester,
    PermissionResultValue, PromptResolvedEvent,
};
