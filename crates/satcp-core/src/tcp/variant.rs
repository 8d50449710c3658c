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
    Variant {
        name: "vegas",
        description: "Reno recovery with Vegas's window: alpha = 1, beta = 3 segments queued, slow start every other RTT (gamma = 1), 3/4 cut once per window, and a duplicate ACK resends at once when the segment outlived the fine-grained timeout; flow.cc keys vegas_*",
        source: "Brakmo & Peterson, JSAC 1995, as Leung 1998 §2.2.3 used it",
        recovery: RecoveryKind::Reno,
        cc: CcKind::Vegas,
        sack: SackUse::Optional,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "cubic",
        description: "NewReno recovery (RFC 6675 with sack = true) with CUBIC's window: W_max, K, the Reno-friendly region, beta 0.7, fast convergence; no HyStart",
        source: "RFC 9438",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Cubic,
        sack: SackUse::Optional,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "hybla",
        description: "NewReno recovery with Hybla's window: rho = RTT / 25 ms, slow start +2^rho - 1 per ACK, avoidance +rho^2/cwnd, Reno halving; unpaced (the paper paces); byte_counting = true and hybla_rtt0 for ns-3's form",
        source: "Caini & Firrincieli 2004; Linux tcp_hybla.c",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Hybla,
        sack: SackUse::Optional,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "westwood",
        description: "Westwood+: NewReno recovery; after a loss ssthresh = bandwidth estimate (one sample per RTT, Linux's two 7/8 filters) x min RTT; westwood_filter = \"tustin\" and westwood_count = \"ns3\" for ns-3's form",
        source: "Grieco & Mascolo 2004; Linux tcp_westwood.c",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Westwood,
        sack: SackUse::Optional,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "bbr",
        description: "BBR v1 over RFC 6675 SACK recovery: paced at gain x max delivery rate (10 rounds), cwnd 2 x BDP, Startup/Drain/ProbeBW/ProbeRTT",
        source: "Cardwell et al. 2016; draft-cardwell-iccrg-bbr-congestion-control-00; Linux tcp_bbr.c",
        recovery: RecoveryKind::Sack(SackStyle::Rfc6675),
        cc: CcKind::Bbr,
        sack: SackUse::Always,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "adalr-newreno",
        description: "TCP-ADaLR over NewReno: rho = 60 x RTT (1-60), four slow-start sub-phases (+sqrt(rho)/4 SMSS), avoidance x sqrt(rho)/2, adaptive rwnd (+rho/4 SMSS per ACK), +2 SMSS on leaving recovery (on the full ACK; adalr_recovery = \"partial-ack\" for the other reading), RTO +200 ms, 3 segments resent at most; rwnd grown on the sender (adalr_rwnd = \"headroom\": over each advertised window); flow.cc keys adalr_*",
        source: "Omueti & Trajkovic 2007 (001.md); OPNET 11 NewReno",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Adalr,
        sack: SackUse::Never,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "adalr-sack",
        description: "TCP-ADaLR over RFC 6675 SACK recovery (recovery exit is RFC 6675's: the slides' rule is NewReno's); otherwise as adalr-newreno",
        source: "Omueti & Trajkovic 2007 (001.md)",
        recovery: RecoveryKind::Sack(SackStyle::Rfc6675),
        cc: CcKind::Adalr,
        sack: SackUse::Always,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "ceten-reno",
        description: "Reno with CETEN-R: per-link survival EWMA (ceten_alpha, 0.1 by default: Carroll gives none) carried in a 32-byte option and echoed; a loss taken as corruption, with P = (1-E)/((1-E)+(1-C)), is resent without a window cut; ceten_mode = \"intent\" (default: decided at the third duplicate ACK, congestion survival estimated) or \"code\" (Carroll's code: every duplicate ACK, C = 0)",
        source: "Carroll 2004 (000.md); Krishnan et al. 2002 (ETEN)",
        recovery: RecoveryKind::Reno,
        cc: CcKind::Ceten,
        sack: SackUse::Never,
        rto: Estimator::Rfc6298,
    },
    Variant {
        name: "ceten-newreno",
        description: "NewReno with CETEN-R (as ceten-reno)",
        source: "Carroll 2004 (000.md); RFC 6582",
        recovery: RecoveryKind::NewReno,
        cc: CcKind::Ceten,
        sack: SackUse::Never,
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
