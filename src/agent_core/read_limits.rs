//! What reading bytes from outside (a peer's frame, a stored record, a host's JSON) may cost.

/// Bounds on what reading JSON from outside may cost, set by the host and checked before any
/// recursive parse: how deep arrays and objects may nest, how many issues a corrupt outcome
/// lists, and how long a value echoed into a message may be.
///
/// [`ReadLimits::DEFAULT`] fits the smallest board the crate targets (64 KiB of SRAM, a 40 KiB
/// heap): every entry point that reads outside text stays within the stack budgets the README
/// gives at that depth. Text nested deeper than [`depth`](Self::depth) is refused before it is
/// parsed, with an error (or a located corrupt issue) that names the bound; nothing recurses
/// deeper than the bound. serde_json's own limit of 128 levels still holds above it.
///
/// ```
/// use agent_interface::agent_core::ReadLimits;
///
/// let limits = ReadLimits::DEFAULT.with_depth(16).with_issues(8);
/// assert_eq!((limits.depth, limits.issues), (16, 8));
/// assert_eq!(limits.echo, ReadLimits::DEFAULT.echo);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct ReadLimits {
    /// The deepest nesting of arrays and objects read (the document itself is level 0; `[[1]]`
    /// nests 2 deep).
    pub depth: usize,
    /// The most issues a corrupt outcome lists, the first ones in document order; a last issue
    /// then says how many more were found.
    pub issues: usize,
    /// The most bytes of an outside value (an id, a key, a literal) echoed into a message; a
    /// longer one is cut at a character boundary and the message states its full length.
    pub echo: usize,
}

impl ReadLimits {
    /// The default bounds: 24 levels of nesting, 32 issues, 64 bytes of an echoed value.
    pub const DEFAULT: Self = Self {
        depth: 24,
        issues: 32,
        echo: 64,
    };

    /// The same limits with nesting bounded at `depth` levels.
    #[must_use]
    pub const fn with_depth(mut self, depth: usize) -> Self {
        self.depth = depth;
        self
    }

    /// The same limits listing at most `issues` issues (at least one is always listed).
    #[must_use]
    pub const fn with_issues(mut self, issues: usize) -> Self {
        self.issues = issues;
        self
    }

    /// The same limits echoing at most `echo` bytes of an outside value into a message.
    #[must_use]
    pub const fn with_echo(mut self, echo: usize) -> Self {
        self.echo = echo;
        self
    }
}

impl Default for ReadLimits {
    /// [`ReadLimits::DEFAULT`].
    fn default() -> Self {
        Self::DEFAULT
    }
}
