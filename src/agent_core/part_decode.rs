//! The `Deserialize` of [`UniversalMessagePart`], read in one pass (crate-private; only
//! compiled with `serde`).
//!
//! A part is tagged on `type`. serde's derived decoder of such an enum, when it runs inside
//! another buffered decoder (a message's, which is tagged on `role`), reads a tag written as a
//! number as a variant's index: `{"type": 0, "text": "x"}` was a text part, written back as
//! `"type": "text"`. Read with `agent_core::tagged`, the tag is one of the part literals, always.

use alloc::string::String;

use serde::de;

use super::message::UniversalMessagePart;
use super::tagged::{MemberSource, TaggedMembers, decode_tagged, read_once, required};

/// The tag's literals, as a closed set (its helpers this decoder does not call are allowed).
#[allow(dead_code)]
mod tag {
    string_enum! {
        /// The `type` of a message part.
        pub(crate) closed enum PartType {
            /// A run of text.
            Text = "text",
            /// An image carried in the message.
            ImageInline = "image_inline",
            /// An image fetched from a location.
            ImageUri = "image_uri",
        }
    }
}

use tag::PartType;

/// A member some part declares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Text,
    MimeType,
    Data,
    Uri,
}

/// The members of a part read so far. `mimeType` is required on an inline image and optional
/// on a located one, so it has a slot of each type.
#[derive(Default)]
struct PartMembers {
    text: Option<String>,
    mime_type: Option<String>,
    optional_mime_type: Option<Option<String>>,
    data: Option<String>,
    uri: Option<String>,
}

impl TaggedMembers for PartMembers {
    type Tag = PartType;
    type Member = Member;
    type Output = UniversalMessagePart;

    const TAG: &'static str = "type";
    const EXPECTING: &'static str = "internally tagged enum UniversalMessagePart";

    fn member(name: &str) -> Option<Member> {
        Some(match name {
            "text" => Member::Text,
            "mimeType" => Member::MimeType,
            "data" => Member::Data,
            "uri" => Member::Uri,
            _ => return None,
        })
    }

    fn declares(member: Member, tag: PartType) -> bool {
        match tag {
            PartType::Text => member == Member::Text,
            PartType::ImageInline => matches!(member, Member::MimeType | Member::Data),
            PartType::ImageUri => matches!(member, Member::Uri | Member::MimeType),
        }
    }

    fn read<S: MemberSource>(
        &mut self,
        member: Member,
        tag: Option<PartType>,
        source: S,
    ) -> Result<(), S::Error> {
        match member {
            Member::Text => read_once(&mut self.text, "text", source),
            Member::MimeType if tag == Some(PartType::ImageInline) => {
                read_once(&mut self.mime_type, "mimeType", source)
            }
            Member::MimeType => read_once(&mut self.optional_mime_type, "mimeType", source),
            Member::Data => read_once(&mut self.data, "data", source),
            Member::Uri => read_once(&mut self.uri, "uri", source),
        }
    }

    fn build<E: de::Error>(self, tag: PartType) -> Result<UniversalMessagePart, E> {
        Ok(match tag {
            PartType::Text => UniversalMessagePart::Text {
                text: required(self.text, "text")?,
            },
            PartType::ImageInline => UniversalMessagePart::ImageInline {
                mime_type: required(self.mime_type, "mimeType")?,
                data: required(self.data, "data")?,
            },
            PartType::ImageUri => UniversalMessagePart::ImageUri {
                uri: required(self.uri, "uri")?,
                mime_type: self.optional_mime_type.flatten(),
            },
        })
    }
}

impl<'de> de::Deserialize<'de> for UniversalMessagePart {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode_tagged::<PartMembers, D>(deserializer)
    }
}
