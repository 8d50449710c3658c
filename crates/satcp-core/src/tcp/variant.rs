//! The variants a user names: each is a preset of (recovery, congestion
//! control, options), listed in this one table.

use super::cc::CcKind;
use super::recovery::RecoveryKind;

#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub name: &'static str,
    pub description: &'static str,
    pub source: &'static str,
    pub recovery: RecoveryKind,
    pub cc: CcKind,
    pub supports_sack: bool,
}

pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "tahoe",
        description: "slow start, congestion avoidance, fast retransmit; every loss restarts from one segment (go-back-N)",
        source: "Jacobson 1988; RFC 5681 without fast recovery",
        recovery: RecoveryKind::Tahoe,
        cc: CcKind::Reno,
        supports_sack: false,
    },
    Variant {
        name: "reno",
        description: "Tahoe plus fast recovery: halve the window on three duplicate ACKs, inflate per duplicate",
        source: "RFC 5681 §3.2",
        recovery: RecoveryKind::Reno,
        cc: CcKind::Reno,
        supports_sack: false,
    },
    Variant {
        name: "newreno",
        description: "Reno that stays in fast recovery across partial ACKs, repairing one loss per RTT",
        source: "RFC 6582",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Reno,
        supports_sack: false,
    },
];

pub fn find(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}
