//! Device-mesh admission: what a handshake between two of one user's devices establishes about
//! the peer.
//!
//! # Guarantees
//!
//! - Trust, locality and workspace are separate fields of [`MeshAdmission`]; a workspace the peer
//!   names grants nothing.
//! - The capabilities granted are the certificate's intersected with local policy, strictly
//!   ascending ([`MeshCapabilities`]).

mod admission;

pub use admission::{
    MeshAdmission, MeshAdmissionError, MeshCapabilities, MeshCapabilitiesNotAscending,
    MeshCapability, MeshTrust,
};
