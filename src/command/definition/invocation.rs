//! Who invokes a command, from where, and who runs it: invocation source, surface locality,
//! runner and client surfaces.

string_enum! {
    /// Where an invocation of a command came from (`TCommandInvocationSource`).
    ///
    /// A `Remote` invocation runs exactly as a local one unless the host opts into a policy that
    /// restricts it.
    pub enum CommandInvocationSource {
        /// The local operator typed or picked it.
        User = "user",
        /// The model invoked it.
        Model = "model",
        /// It arrived over a transport from a remote peer the host does not trust by default.
        Remote = "remote",
    }
}

string_enum! {
    /// Whether the surface a `remote`-sourced command came from is provably on this machine
    /// (`TCommandSurfaceLocality`).
    ///
    /// A command that refuses remote surfaces (installing a plugin, say) decides from this value
    /// alone, so it refuses identically whatever transport carried the request. A carrier that
    /// proves nothing about locality (a device mesh, WebRTC) always reports `Remote`.
    pub enum CommandSurfaceLocality {
        /// The surface is proven to run on this machine.
        Local = "local",
        /// The surface is, or may be, on another machine.
        Remote = "remote",
    }
}

string_enum! {
    /// Who runs a command (`TCommandRunner`).
    pub enum CommandRunner {
        /// The runtime that owns the session runs it (the default when a command declares none).
        Runtime = "runtime",
        /// The client the user types into runs it, on one of its [`CommandSurface`]s.
        Client = "client",
    }
}

string_enum! {
    /// A kind of client surface a `client`-run command runs on (`TCommandSurface`).
    ///
    /// The TypeScript member list was not recovered beyond `'terminal'`; `'web'` is this crate's
    /// decision (the other rendering surface the contract names). The enum is
    /// `#[non_exhaustive]` so that confirming further members is not a breaking change; decoding
    /// still refuses every literal not listed here.
    pub enum CommandSurface {
        /// A terminal (text) client.
        Terminal = "terminal",
        /// A browser-based client.
        Web = "web",
    }
}
