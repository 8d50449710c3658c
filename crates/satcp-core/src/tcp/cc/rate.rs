//! SCPS-TP's rate-based (open-loop) congestion control: the sender paces at a
//! rate the operator configures and does not shrink its window on loss,
//! treating loss on the satellite hop as corruption, not congestion.
//!
//! Sources: CCSDS 714.0-B-2 (SCPS-TP) §3.2.3 "rate control" and the
//! corruption response of §3.2.5; Durst, Miller & Travis 1997; Lawson 2006
//! (004.md §5.2 item 7: XipLink gateways expose a configured link rate).

use super::{Ack, Controller, Loss, Window};

#[derive(Clone, Debug)]
pub struct Rate {
    /// Bytes per second.
    pub rate: f64,
    /// The window held whatever happens (the receive buffer bounds it).
    pub window: u64,
}

impl Controller for Rate {
    fn on_ack(&mut self, w: &mut Window, _ack: &Ack) {
        w.cwnd = self.window;
    }

    fn ssthresh_after_loss(&mut self, w: &Window, _loss: &Loss) -> u64 {
        // Corruption is not congestion: keep the window (CCSDS 714.0-B §3.2.5).
        w.cwnd.max(self.window)
    }

    fn on_every_ack(&mut self, w: &mut Window, _ack: &Ack) {
        // The rate, not the window, limits sending; restore it after a timeout.
        w.cwnd = self.window;
    }

    fn pacing_rate(&self) -> Option<f64> {
        Some(self.rate)
    }
}
