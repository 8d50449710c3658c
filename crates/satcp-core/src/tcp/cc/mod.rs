//! Congestion control: how big the window is. As in Linux's
//! `tcp_congestion_ops`, a controller only answers window growth, the
//! threshold after a loss and state changes; loss recovery stays in
//! `tcp::recovery` and `sender::sack_recovery`.
//!
//! Each algorithm is a file with a `Config` of its constants and their
//! sources. The sender holds a `Cc` enum and dispatches by `match`, so the
//! per-ACK path has no trait object. Every hook but `on_ack` and
//! `ssthresh_after_loss` has a default that does nothing, so a controller
//! pays only for what it uses.

pub mod adalr;
pub mod bbr;
pub mod ceten;
pub mod cubic;
pub mod hybla;
pub mod params;
pub mod rate;
pub mod reno;
pub mod vegas;
pub mod westwood;

pub use params::CcParams;

use crate::rng::Stream;
use crate::time::Time;

/// The window state every controller reads and writes, in bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub cwnd: u64,
    pub ssthresh: u64,
    pub mss: u64,
}

impl Window {
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// A delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation):
/// bytes delivered over an interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    pub delivered: u64,
    pub interval: Time,
    /// The sender's delivered count when the sampled segment was sent.
    pub prior_delivered: u64,
}

impl RateSample {
    /// Bytes per second.
    pub fn rate(&self) -> f64 {
        self.delivered as f64 * 1e9 / self.interval.max(1) as f64
    }
}

/// What the sender knows when an ACK arrives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ack {
    pub now: Time,
    /// Bytes this ACK acknowledged cumulatively.
    pub acked: u64,
    /// Bytes newly delivered to the receiver: cumulative plus newly SACKed.
    pub delivered: u64,
    /// Bytes outstanding after this ACK (SND.MAX - SND.UNA).
    pub flight: u64,
    /// Bytes the sender believes are still in the network: with SACK, RFC 6675
    /// pipe (SACKed and presumed-lost segments left out, as Linux's
    /// `tcp_packets_in_flight`); without, `flight`.
    pub in_flight: u64,
    /// Bytes this ACK newly marked lost (SACK scoreboard only).
    pub newly_lost: u64,
    /// The receiver's window.
    pub rwnd: u64,
    /// The sender's smoothed RTT.
    pub srtt: Option<Time>,
    /// A delivery-rate sample, when the sender keeps a send log.
    pub rate: Option<RateSample>,
    /// Loss recovery (fast recovery, SACK recovery, or the resends after an RTO) is under way.
    pub in_recovery: bool,
    /// This ACK repeats the previous cumulative ACK.
    pub duplicate: bool,
    /// Oldest unacknowledged byte, after this ACK.
    pub snd_una: u64,
    /// One past the highest byte sent.
    pub snd_max: u64,
    /// Bytes delivered since the connection began (cumulative plus SACKed).
    pub total_delivered: u64,
}

/// How a loss was detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Congestion {
    /// Three duplicate ACKs (or SACK's equivalent, or Vegas's early check).
    FastRetransmit,
    Timeout,
}

/// A congestion signal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    pub event: Congestion,
    pub now: Time,
    /// Bytes outstanding when the loss was detected (limited transmit excluded).
    pub flight: u64,
    /// When the segment at snd_una was last sent, when the sender knows it.
    pub lost_sent_at: Option<Time>,
    /// One past the highest byte sent (RFC 6582's `recover`).
    pub snd_max: u64,
}

pub trait Controller {
    /// Window growth when new bytes are acknowledged outside loss recovery.
    fn on_ack(&mut self, w: &mut Window, ack: &Ack);
    /// The slow-start threshold after a congestion signal.
    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64;
    /// A valid RTT sample (Karn's rule applied), before `on_ack`.
    fn on_rtt(&mut self, _rtt: Time, _now: Time) {}
    /// Every ACK, duplicate or not, in recovery or not, after the recovery
    /// and growth decisions: for rate estimators (Westwood+, BBR).
    fn on_every_ack(&mut self, _w: &mut Window, _ack: &Ack) {}
    /// The window on leaving fast recovery, if the controller sets it
    /// (otherwise the recovery's own rule applies).
    fn cwnd_after_recovery(&mut self, _w: &Window, _acked: u64) -> Option<u64> {
        None
    }
    /// Pacing rate in bytes per second; `None` sends as the window allows.
    fn pacing_rate(&self) -> Option<f64> {
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    Reno,
    Vegas,
    Cubic,
    Hybla,
    Westwood,
    Bbr,
    Adalr,
    Ceten,
}

impl CcKind {
    /// Whether the sender must log every segment's send time and delivery
    /// state (Vegas's fine-grained timer, BBR's delivery rate).
    pub fn needs_send_log(self) -> bool {
        matches!(self, CcKind::Vegas | CcKind::Bbr)
    }

    /// Whether the controller sets cwnd on every ACK, so that a recovery
    /// must not set it on exit (Linux: `tcp_end_cwnd_reduction` returns
    /// early for a `cong_control` module such as BBR).
    pub fn owns_window(self) -> bool {
        matches!(self, CcKind::Bbr)
    }

    /// Whether the controller grows its window per ACK by a rule that RFC
    /// 3465 byte counting turns into one per segment acknowledged: Reno's
    /// (`reno::grow`) and Hybla's (per ACK in the paper and Linux, per
    /// segment in ns-3's TcpHybla).
    pub fn counts_segments(self) -> bool {
        matches!(self, CcKind::Reno | CcKind::Westwood | CcKind::Ceten | CcKind::Hybla)
    }

    /// The `[flow.cc]` keys prefix this controller reads.
    pub fn key_prefix(self) -> Option<&'static str> {
        match self {
            CcKind::Reno => None,
            CcKind::Vegas => Some("vegas_"),
            CcKind::Cubic => Some("cubic_"),
            CcKind::Hybla => Some("hybla_"),
            CcKind::Westwood => Some("westwood_"),
            CcKind::Bbr => None,
            CcKind::Adalr => Some("adalr_"),
            CcKind::Ceten => Some("ceten_"),
        }
    }
}

#[derive(Clone, Debug)]
pub enum Cc {
    Reno(reno::Reno),
    Vegas(vegas::Vegas),
    Cubic(cubic::Cubic),
    Hybla(hybla::Hybla),
    Westwood(westwood::Westwood),
    Bbr(Box<bbr::Bbr>),
    Adalr(adalr::Adalr),
    Ceten(ceten::Ceten),
    /// SCPS-TP's rate-based mode; installed by a PEP, not named by a variant.
    Rate(rate::Rate),
}

/// Dispatch by `match`: one arm per controller, no trait object.
macro_rules! dispatch {
    ($self:expr, $c:ident => $body:expr) => {
        match $self {
            Cc::Reno($c) => $body,
            Cc::Vegas($c) => $body,
            Cc::Cubic($c) => $body,
            Cc::Hybla($c) => $body,
            Cc::Westwood($c) => $body,
            Cc::Bbr($c) => $body,
            Cc::Adalr($c) => $body,
            Cc::Ceten($c) => $body,
            Cc::Rate($c) => $body,
        }
    };
}

impl Cc {
    /// A controller of `kind` with the flow's parameters; `stream` is the
    /// flow's own random stream, for CETEN-R's randomised decision.
    pub fn new(kind: CcKind, params: &CcParams, mss: u64, stream: Stream) -> Cc {
        match kind {
            CcKind::Reno => Cc::Reno(reno::Reno),
            CcKind::Vegas => Cc::Vegas(vegas::Vegas::new(vegas::Config::from(params))),
            CcKind::Cubic => Cc::Cubic(cubic::Cubic::new(cubic::Config::from(params))),
            CcKind::Hybla => Cc::Hybla(hybla::Hybla::new(hybla::Config::from(params))),
            CcKind::Westwood => Cc::Westwood(westwood::Westwood::new(westwood::Config::from(params))),
            CcKind::Bbr => Cc::Bbr(Box::new(bbr::Bbr::new(mss))),
            CcKind::Adalr => Cc::Adalr(adalr::Adalr::new(adalr::Config::from(params))),
            CcKind::Ceten => Cc::Ceten(ceten::Ceten::new(ceten::Config::from(params), stream)),
        }
    }

    pub fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        dispatch!(self, c => c.on_ack(w, ack))
    }

    pub fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        dispatch!(self, c => c.ssthresh_after_loss(w, loss))
    }

    pub fn on_rtt(&mut self, rtt: Time, now: Time) {
        dispatch!(self, c => c.on_rtt(rtt, now))
    }

    pub fn on_every_ack(&mut self, w: &mut Window, ack: &Ack) {
        dispatch!(self, c => c.on_every_ack(w, ack))
    }

    pub fn cwnd_after_recovery(&mut self, w: &Window, acked: u64) -> Option<u64> {
        dispatch!(self, c => c.cwnd_after_recovery(w, acked))
    }

    pub fn pacing_rate(&self) -> Option<f64> {
        dispatch!(self, c => c.pacing_rate())
    }

    pub fn vegas(&mut self) -> Option<&mut vegas::Vegas> {
        match self {
            Cc::Vegas(v) => Some(v),
            _ => None,
        }
    }

    pub fn adalr(&self) -> Option<&adalr::Adalr> {
        match self {
            Cc::Adalr(a) => Some(a),
            _ => None,
        }
    }

    pub fn adalr_mut(&mut self) -> Option<&mut adalr::Adalr> {
        match self {
            Cc::Adalr(a) => Some(a),
            _ => None,
        }
    }

    pub fn ceten_ref(&self) -> Option<&ceten::Ceten> {
        match self {
            Cc::Ceten(c) => Some(c),
            _ => None,
        }
    }

    pub fn ceten(&mut self) -> Option<&mut ceten::Ceten> {
        match self {
            Cc::Ceten(c) => Some(c),
            _ => None,
        }
    }
}

/// Reno's halving, shared by the controllers that keep it.
pub(crate) fn halve(w: &Window, flight: u64) -> u64 {
    //= rfc5681#section-3.1
    //#    ssthresh = max (FlightSize / 2, 2*SMSS)            (4)
    (flight / 2).max(2 * w.mss)
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// An ACK of `acked` bytes at `now`, nothing else known.
    pub fn ack(acked: u64, now: Time) -> Ack {
        Ack {
            now,
            acked,
            delivered: acked,
            flight: 0,
            in_flight: 0,
            newly_lost: 0,
            rwnd: u64::MAX,
            srtt: None,
            rate: None,
            in_recovery: false,
            duplicate: false,
            snd_una: 0,
            snd_max: 0,
            total_delivered: 0,
        }
    }

    pub fn loss(event: Congestion, flight: u64) -> Loss {
        Loss { event, now: 0, flight, lost_sent_at: None, snd_max: flight }
    }
}
