//! The variants a user names: each is a preset of (recovery, congestion
//! control, options), listed in this one table.

use super::cc::CcKind;
use super::recovery::{RecoveryKind, SackStyle};
use super::rto::Estimator;

/// Whether a variant can, must or cannot use the SACK option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SackUse {
    Never,
    /// `sack = true` switches its loss recovery to SACK (`sack_recovery`, RFC 6675 by default).
    Optional,
    /// SACK is the variant: on unless the flow says otherwise (which is an error).
    Always,
}

#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub name: &'static str,
    pub description: &'static str,
    pub source: &'static str,
    pub recovery: RecoveryKind,
    pub cc: CcKind,
    pub sack: SackUse,
    pub rto: Estimator,
}

pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "rfc793",
        description: "Leung's \"TCP RFC\": no fast retransmit; every loss waits for the timer and goes back N; RFC 793 RTO (2 x SRTT)",
        source: "RFC 793 §3.7 with Jacobson's slow start and congestion avoidance (Leung 1998 §2.2.1)",
        recovery: RecoveryKind::GoBackN,
        cc: CcKind::Reno,
        sack: SackUse::Never,
        rto: Estimator::Rfc793,
    },
    Variant {
        name: "tahoe",
        description: "slow start, congestion avoidance, fast retransmit; every loss restarts from one segment (go-back-N)",
        source: "Jacobson 1988; RFC 5681 without fast recovery",
        recovery: RecoveryKind::Tahoe,
        cc: CcKind::Reno,
        sack: SackUse::Never,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "reno",
        description: "Tahoe plus fast recovery: halve the window on three duplicate ACKs, inflate per duplicate; sack = true for RFC 6675 recovery",
        source: "RFC 5681 §3.2",
        recovery: RecoveryKind::Reno,
        cc: CcKind::Reno,
        sack: SackUse::Optional,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "newreno",
        description: "Reno that stays in fast recovery across partial ACKs, repairing one loss per RTT; sack = true for RFC 6675 recovery",
        source: "RFC 6582",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Reno,
        sack: SackUse::Optional,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "sack",
        description: "SACK with Fall & Floyd's pipe as Hayes ran it (sack_recovery = \"rfc6675\" for the RFC's form)",
        source: "RFC 2018; Fall & Floyd 1996 (ns sack1); Hayes 1997 §2.8.3",
        recovery: RecoveryKind::Sack(SackStyle::FallFloyd),
        cc: CcKind::Reno,
        sack: SackUse::Always,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "fack",
        description: "forward acknowledgement: loss from snd.fack, one send per two ACKs (rate halving) for an RTT, then hold",
        source: "Mathis & Mahdavi 1996; Hayes 1997 §2.8.4",
        recovery: RecoveryKind::Fack,
        cc: CcKind::Reno,
        sack: SackUse::Always,
        rto: Estimator::Rfc6298,
    },
];

impl Variant {
    /// Whether the flow runs with SACK, given its `sack` key.
    pub fn sack_enabled(&self, requested: Option<bool>) -> bool {
        match self.sack {
            SackUse::Never => false,
            SackUse::Optional => requested.unwrap_or(false),
            SackUse::Always => true,
        }
    }

    /// The recovery a flow runs, given its `sack` and `sack_recovery` keys.
    pub fn recovery_with(&self, sack: bool, style: Option<SackStyle>) -> RecoveryKind {
        match (self.recovery, sack) {
            (RecoveryKind::Sack(default), _) => RecoveryKind::Sack(style.unwrap_or(default)),
            (kind, false) => kind,
            (RecoveryKind::Fack, true) => RecoveryKind::Fack,
            (_, true) => RecoveryKind::Sack(style.unwrap_or(SackStyle::Rfc6675)),
        }
    }
}

pub fn find(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}
