//! Congestion control: how big the window is. As in Linux's
//! `tcp_congestion_ops`, a controller only answers window growth and the
//! threshold after a loss; loss recovery stays in `tcp::recovery`.
//!
//! Each algorithm is a file with a `Config` of its constants and their
//! sources. The sender holds a `Cc` enum and dispatches by `match`, so the
//! per-ACK path has no trait object.

pub mod reno;

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

pub trait Controller {
    /// Window growth when `acked` new bytes are acknowledged outside loss recovery.
    fn on_ack(&mut self, w: &mut Window, acked: u64, now: Time);
    /// The slow-start threshold after a congestion signal with `flight` bytes outstanding.
    fn ssthresh_after_loss(&self, w: &Window, flight: u64) -> u64;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    Reno,
}

#[derive(Clone, Debug)]
pub enum Cc {
    Reno(reno::Reno),
}

impl Cc {
    pub fn new(kind: CcKind) -> Cc {
        match kind {
            CcKind::Reno => Cc::Reno(reno::Reno::default()),
        }
    }

    pub fn on_ack(&mut self, w: &mut Window, acked: u64, now: Time) {
        match self {
            Cc::Reno(c) => c.on_ack(w, acked, now),
        }
    }

    pub fn ssthresh_after_loss(&self, w: &Window, flight: u64) -> u64 {
        match self {
            Cc::Reno(c) => c.ssthresh_after_loss(w, flight),
        }
    }
}
