//! Cost confidence and the cost of a turn or of one model's share of it.
//!
//! On the wire a cost is two sibling keys of its record, `costStatus` and `costUsd`, with the
//! rule that `costUsd` is present exactly when the status says the cost was priced. [`TurnCost`]
//! and [`ShareCost`] hold both keys as one value, so the other combinations cannot be built;
//! they are `#[serde(flatten)]`-ed into their records and decode through one shared helper.

string_enum! {
    /// How far a cost figure can be trusted. This is confidence in a measurement, not a failure.
    /// The default is `unknown` (nothing priced).
    #[derive(Default)]
    pub enum CostStatus {
        /// The model was not priced: there is no amount.
        #[default]
        Unknown = "unknown",
        /// Computed from a local price table (even for an exact model id).
        Estimated = "estimated",
        /// Independently proven billed cost.
        Exact = "exact",
    }
}

/// The cost of one turn: its confidence and, when priced, its amount in US dollars.
///
/// Wire form: `"costStatus": "unknown"` with no `costUsd`, or `"costStatus": "estimated"` /
/// `"exact"` with `"costUsd": <number>`. Decoding refuses an amount with status `unknown` and a
/// priced status without an amount.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum TurnCost {
    /// The model was unpriced; no amount exists.
    #[default]
    Unknown,
    /// Priced from a local price table.
    Estimated {
        /// Amount in US dollars.
        usd: f64,
    },
    /// Proven billed cost.
    Exact {
        /// Amount in US dollars.
        usd: f64,
    },
}

impl TurnCost {
    /// The confidence literal written as `costStatus`.
    #[must_use]
    pub const fn status(&self) -> CostStatus {
        match self {
            Self::Unknown => CostStatus::Unknown,
            Self::Estimated { .. } => CostStatus::Estimated,
            Self::Exact { .. } => CostStatus::Exact,
        }
    }

    /// The amount written as `costUsd`; `None` exactly when the status is `unknown`.
    #[must_use]
    pub const fn usd(&self) -> Option<f64> {
        match self {
            Self::Unknown => None,
            Self::Estimated { usd } | Self::Exact { usd } => Some(*usd),
        }
    }
}

/// The cost of one model's share of a multi-model turn. A share is priced at most by estimate,
/// so its status is only `unknown` or `estimated`.
///
/// Wire form: as [`TurnCost`], and decoding also refuses `"costStatus": "exact"`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ShareCost {
    /// The model was unpriced; no amount exists.
    #[default]
    Unknown,
    /// Priced from a local price table.
    Estimated {
        /// Amount in US dollars.
        usd: f64,
    },
}

impl ShareCost {
    /// The confidence literal written as `costStatus` (never [`CostStatus::Exact`]).
    #[must_use]
    pub const fn status(&self) -> CostStatus {
        match self {
            Self::Unknown => CostStatus::Unknown,
            Self::Estimated { .. } => CostStatus::Estimated,
        }
    }

    /// The amount written as `costUsd`; `None` exactly when the status is `unknown`.
    #[must_use]
    pub const fn usd(&self) -> Option<f64> {
        match self {
            Self::Unknown => None,
            Self::Estimated { usd } => Some(*usd),
        }
    }
}

/// Why a `costStatus`/`costUsd` pair is not a cost of the requested kind.
#[cfg(feature = "serde")]
enum CostRefusal {
    /// An amount came with status `unknown`.
    AmountWithoutPrice,
    /// A priced status came without an amount.
    PriceWithoutAmount(CostStatus),
    /// The status is not allowed for this kind of cost (a share marked `exact`).
    StatusNotAllowed(CostStatus),
}

#[cfg(feature = "serde")]
impl core::fmt::Display for CostRefusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::AmountWithoutPrice => f.write_str(
                "costUsd must be absent when costStatus is `unknown` (an unpriced cost has no amount)",
            ),
            Self::PriceWithoutAmount(status) => {
                write!(f, "costStatus `{status}` requires costUsd")
            }
            Self::StatusNotAllowed(status) => write!(
                f,
                "costStatus `{status}` is not allowed here: a model share is `unknown` or `estimated`"
            ),
        }
    }
}

/// The two-key view both cost enums convert to and from; the pairing rule itself lives once, in
/// `deserialize_cost`.
#[cfg(feature = "serde")]
trait CostPair: Sized {
    /// The unpriced value.
    const UNKNOWN: Self;
    /// The status and amount this cost is written as.
    fn pair(&self) -> (CostStatus, Option<f64>);
    /// The constructor for a priced status, or `None` when this kind of cost cannot have it.
    fn priced(status: CostStatus) -> Option<fn(f64) -> Self>;
}

#[cfg(feature = "serde")]
impl CostPair for TurnCost {
    const UNKNOWN: Self = Self::Unknown;

    fn pair(&self) -> (CostStatus, Option<f64>) {
        (self.status(), self.usd())
    }

    fn priced(status: CostStatus) -> Option<fn(f64) -> Self> {
        match status {
            CostStatus::Unknown => None,
            CostStatus::Estimated => Some(|usd| Self::Estimated { usd }),
            CostStatus::Exact => Some(|usd| Self::Exact { usd }),
        }
    }
}

#[cfg(feature = "serde")]
impl CostPair for ShareCost {
    const UNKNOWN: Self = Self::Unknown;

    fn pair(&self) -> (CostStatus, Option<f64>) {
        (self.status(), self.usd())
    }

    fn priced(status: CostStatus) -> Option<fn(f64) -> Self> {
        match status {
            CostStatus::Estimated => Some(|usd| Self::Estimated { usd }),
            CostStatus::Unknown | CostStatus::Exact => None,
        }
    }
}

/// The two keys as they travel.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct CostWire {
    cost_status: CostStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cost_usd: Option<f64>,
}

/// Writes either cost as its `costStatus` key and, when priced, its `costUsd` key.
#[cfg(feature = "serde")]
fn serialize_cost<C: CostPair, S: serde::Serializer>(
    cost: &C,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::Serialize as _;

    let (cost_status, cost_usd) = cost.pair();
    CostWire {
        cost_status,
        cost_usd,
    }
    .serialize(serializer)
}

/// Reads the `costStatus`/`costUsd` pair and refuses, with a message naming the keys, every
/// combination the cost kind `C` cannot hold.
#[cfg(feature = "serde")]
fn deserialize_cost<'de, C: CostPair, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<C, D::Error> {
    use serde::Deserialize as _;
    use serde::de::Error as _;

    let wire = CostWire::deserialize(deserializer)?;
    let cost = match (wire.cost_status, wire.cost_usd) {
        (CostStatus::Unknown, None) => Ok(C::UNKNOWN),
        (CostStatus::Unknown, Some(_)) => Err(CostRefusal::AmountWithoutPrice),
        (status, usd) => match (C::priced(status), usd) {
            (None, _) => Err(CostRefusal::StatusNotAllowed(status)),
            (Some(_), None) => Err(CostRefusal::PriceWithoutAmount(status)),
            (Some(build), Some(usd)) => Ok(build(usd)),
        },
    };
    cost.map_err(D::Error::custom)
}

#[cfg(feature = "serde")]
impl serde::Serialize for TurnCost {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_cost(self, serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TurnCost {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_cost(deserializer)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ShareCost {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_cost(self, serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ShareCost {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_cost(deserializer)
    }
}
