//! Loss recovery: how losses are found and repaired. Tahoe restarts from one
//! segment, Reno recovers one loss per window in fast recovery, NewReno stays
//! in fast recovery across partial ACKs (RFC 6582), go-back-N (RFC 793) waits
//! for the timer. The SACK-based forms (RFC 6675, Fall & Floyd, FACK) keep a
//! scoreboard and live in `sender::sack_recovery`.
//!
//! The sender owns the sequence space and the window; this module only keeps
//! the recovery state and decides what the sender must do.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryKind {
    /// RFC 793 with Jacobson's slow start: no fast retransmit, every loss
    /// waits for the timer and resends everything from the first unacknowledged byte.
    GoBackN,
    Tahoe,
    Reno,
    NewReno,
    Sack(SackStyle),
    /// Forward acknowledgement with rate halving (Mathis & Mahdavi 1996).
    Fack,
}

/// Which SACK recovery algorithm runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SackStyle {
    /// RFC 6675: pipe from the scoreboard, a hole is lost with three SACKed segments above it.
    Rfc6675,
    /// Fall & Floyd 1996 (ns "sack1", as Hayes ran it): an explicit pipe
    /// counter, one less per ACK and two per partial ACK; every hole below
    /// the highest SACK is resent.
    FallFloyd,
    /// RFC 6675 loss detection with Proportional Rate Reduction (RFC 6937)
    /// setting the window during recovery, as Linux and ns-3 do.
    Prr,
}

impl RecoveryKind {
    pub fn uses_sack(self) -> bool {
        matches!(self, RecoveryKind::Sack(_) | RecoveryKind::Fack)
    }
}

/// What the sender must do on a duplicate ACK.
#[derive(Debug, PartialEq, Eq)]
pub enum OnDupAck {
    Nothing,
    /// Third duplicate ACK: retransmit the first unacknowledged segment.
    FastRetransmit,
    /// A further duplicate ACK in fast recovery: inflate cwnd by one SMSS.
    Inflate,
}

/// What the sender must do on an ACK of new data.
#[derive(Debug, PartialEq, Eq)]
pub enum OnNewAck {
    /// Not in fast recovery: grow the window as congestion control says.
    Grow,
    /// Leave fast recovery and deflate the window.
    Exit,
    /// RFC 6582 partial ACK: retransmit the next hole and stay.
    Partial,
}

/// When NewReno restarts the retransmission timer on partial ACKs (RFC 6582 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartialAckTimer {
    /// Only on the first partial ACK (RFC 6582 §3.2 step 5): many losses end in a timeout.
    Impatient,
    /// On every partial ACK: one loss repaired per RTT, however long it takes.
    SlowButSteady,
}

#[derive(Clone, Debug)]
pub struct Recovery {
    pub kind: RecoveryKind,
    pub dupacks: u32,
    pub in_fast_recovery: bool,
    /// Partial ACKs seen in the current fast recovery.
    pub partial_acks: u32,
    /// RFC 6582 `recover`: one past the highest byte sent when recovery began.
    pub recover: Option<u64>,
}

//= rfc5681#section-3.2
//# The fast retransmit algorithm uses the arrival of 3 duplicate ACKs ...
pub const DUPACK_THRESHOLD: u32 = 3;

impl Recovery {
    pub fn new(kind: RecoveryKind) -> Recovery {
        Recovery { kind, dupacks: 0, in_fast_recovery: false, partial_acks: 0, recover: None }
    }

    pub fn on_dupack(&mut self, snd_una: u64) -> OnDupAck {
        self.dupacks += 1;
        if self.in_fast_recovery {
            return OnDupAck::Inflate;
        }
        if self.dupacks != DUPACK_THRESHOLD || self.kind == RecoveryKind::GoBackN {
            return OnDupAck::Nothing;
        }
        if self.kind == RecoveryKind::NewReno && self.recover.is_some_and(|r| snd_una < r) {
            //= rfc6582#section-3.2
            //# the TCP sender first checks the value of recover to see if the
            //# Cumulative Acknowledgment field covers more than recover. ...
            //# If not, the sender does not enter fast retransmit and does not
            //# reset ssthresh.
            return OnDupAck::Nothing;
        }
        OnDupAck::FastRetransmit
    }

    /// Called after the sender performed a fast retransmit.
    pub fn entered(&mut self, snd_max: u64) {
        //= rfc6582#section-3.2
        //# record the highest sequence number transmitted in the variable recover
        self.recover = Some(snd_max);
        self.in_fast_recovery = self.kind != RecoveryKind::Tahoe;
        self.partial_acks = 0;
    }

    pub fn on_new_ack(&mut self, ack: u64) -> OnNewAck {
        self.dupacks = 0;
        if !self.in_fast_recovery {
            return OnNewAck::Grow;
        }
        match self.kind {
            RecoveryKind::NewReno if self.recover.is_some_and(|r| ack < r) => {
                self.partial_acks += 1;
                OnNewAck::Partial
            }
            _ => {
                self.in_fast_recovery = false;
                OnNewAck::Exit
            }
        }
    }

    pub fn on_timeout(&mut self, snd_max: u64) {
        //= rfc6582#section-3.2
        //# After a retransmit timeout, record the highest sequence number
        //# transmitted in the variable recover, and exit the fast recovery
        //# procedure if applicable.
        self.recover = Some(snd_max);
        self.in_fast_recovery = false;
        self.dupacks = 0;
    }
}
