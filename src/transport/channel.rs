//! Payload channel declarations (`channel-contracts`): a validated channel name and the
//! descriptor a channel is registered with. Frames, sequencing and reassembly are the runtime's.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// A channel name: 1..=255 bytes of UTF-8, checked when built.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct ChannelName(String);

impl ChannelName {
    /// The longest name, in UTF-8 bytes.
    pub const MAX_BYTES: usize = 255;

    /// `name` as a channel name; refuses an empty name or one longer than 255 bytes.
    pub fn new(name: impl Into<String>) -> Result<Self, InvalidChannelName> {
        let name = name.into();
        if name.is_empty() || name.len() > Self::MAX_BYTES {
            Err(InvalidChannelName { bytes: name.len() })
        } else {
            Ok(Self(name))
        }
    }

    /// The name as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ChannelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for ChannelName {
    type Error = InvalidChannelName;
    fn try_from(name: String) -> Result<Self, InvalidChannelName> {
        Self::new(name)
    }
}

impl From<ChannelName> for String {
    fn from(name: ChannelName) -> Self {
        name.0
    }
}

/// The refusal of [`ChannelName::new`]: the name is empty or longer than 255 UTF-8 bytes. It
/// keeps only the length, not the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct InvalidChannelName {
    /// The refused name's length in UTF-8 bytes.
    pub bytes: usize,
}

impl fmt::Display for InvalidChannelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a channel name must be 1 to 255 UTF-8 bytes; received {} bytes",
            self.bytes
        )
    }
}

impl core::error::Error for InvalidChannelName {}

/// How a channel is declared (`IChannelDescriptor`): its name, the event names it carries, and
/// whether it accepts binary frames.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChannelDescriptor {
    /// The channel's name, unique per host.
    pub name: ChannelName,
    /// The declared event names; any other event is refused.
    pub events: Vec<String>,
    /// Binary opt-in: absent or `false` refuses binary frames on this channel.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub binary: Option<bool>,
}

impl ChannelDescriptor {
    /// True when the channel opted in to binary frames (`binary: true`).
    #[must_use]
    pub fn accepts_binary(&self) -> bool {
        self.binary == Some(true)
    }

    /// True when `event` is one of the declared event names (exact match).
    #[must_use]
    pub fn declares(&self, event: &str) -> bool {
        self.events.iter().any(|declared| declared == event)
    }
}
