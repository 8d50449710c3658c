//! TCP Vegas (Brakmo & Peterson, JSAC 1995) as Leung ran it (002.md §2.4):
//! once per RTT it compares the expected rate cwnd/BaseRTT with the actual
//! one and keeps between alpha and beta segments queued in the network;
//! slow start grows only every other RTT and ends when more than gamma
//! segments are queued; a retransmission shrinks the window to 3/4 only
//! if the lost segment was sent after the last decrease. The fine-grained
//! retransmission check (a duplicate ACK for a segment older than the fine
//! timeout resends it at once) runs in the sender, from `expired`.

use super::{Ack, Congestion, Controller, Loss, Window};
use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= Brakmo & Peterson 1995 §3.2 (Leung 1998 §2.2.3: "alpha = 1, beta = 3")
    //# we set alpha = 1 and beta = 3 ... try to keep between one and three
    //# extra buffers' worth of data in the network
    pub alpha: f64,
    pub beta: f64,
    //= Brakmo & Peterson 1995 §3.3
    //# Vegas ... exits slow start ... when the actual rate falls below the
    //# expected rate by the equivalent of one router buffer (gamma = 1, as ns-2)
    pub gamma: f64,
    //= Brakmo & Peterson 1995 §3.1 (x-kernel and ns-2 tcp-vegas.cc)
    //# the congestion window ... is decreased ... to 3/4 of its value ... only if
    //# the retransmitted segment was sent after the last decrease
    // Leung's prose reads "reduced by almost one MSS"; the factor is a key.
    pub loss_factor: f64,
    /// Brakmo & Peterson's fine-grained retransmission (§3.1), on as Leung
    /// ran it; off (`vegas_fine_retransmit = false`) as Linux `tcp_vegas.c`
    /// and ns-3 `TcpVegas`, which change only the window rules.
    pub fine_retransmit: bool,
    /// Slow start grows every other RTT and leaves with cwnd -= cwnd/8
    /// (Brakmo & Peterson, x-kernel); false (`vegas_slow_start = "every-rtt"`):
    /// Reno's slow start every RTT, leaving with cwnd = min(cwnd, target + 1),
    /// as Linux `tcp_vegas.c` and ns-3 `TcpVegas`.
    pub every_other_rtt: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { alpha: 1.0, beta: 3.0, gamma: 1.0, loss_factor: 0.75, fine_retransmit: true, every_other_rtt: true }
    }
}

impl From<&super::CcParams> for Config {
    fn from(p: &super::CcParams) -> Self {
        let d = Config::default();
        Config {
            alpha: p.vegas_alpha.unwrap_or(d.alpha),
            beta: p.vegas_beta.unwrap_or(d.beta),
            gamma: p.vegas_gamma.unwrap_or(d.gamma),
            loss_factor: p.vegas_loss_factor.unwrap_or(d.loss_factor),
            fine_retransmit: p.vegas_fine_retransmit.unwrap_or(d.fine_retransmit),
            every_other_rtt: p.vegas_slow_start.as_deref().map_or(d.every_other_rtt, |s| s != "every-rtt"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Vegas {
    cfg: Config,
    /// Smallest RTT ever measured.
    base_rtt: Option<Time>,
    /// Smallest RTT in the current round and the samples taken in it.
    round_min: Option<Time>,
    /// The round ends when this byte is acknowledged (the distinguished
    /// segment); `None` until the first ACK starts the first round.
    round_end: Option<u64>,
    /// Slow start grows in this round (it alternates).
    grow_this_round: bool,
    /// Fine-grained RTT estimator (Jacobson, no coarse clock or minimum).
    srtt: Option<Time>,
    rttvar: Time,
    last_decrease: Option<Time>,
    /// ACKs after a retransmission on which the sender checks the timer again.
    worried: u32,
    /// SCPS-TP's corruption response: loss leaves the window alone.
    corruption: bool,
    /// The window a timeout interrupted, given back on the next ACK.
    restore: Option<u64>,
}

impl Vegas {
    pub fn new(cfg: Config) -> Vegas {
        Vegas {
            cfg,
            base_rtt: None,
            round_min: None,
            round_end: None,
            grow_this_round: true,
            srtt: None,
            rttvar: 0,
            last_decrease: None,
            worried: 0,
            corruption: false,
            restore: None,
        }
    }

    /// Treat every loss as corruption, not congestion: SCPS-TP's corruption
    /// response, the default source of loss a route can be given.
    pub fn assume_corruption(&mut self) {
        //= SCPS-TP Users Manual (MITRE reference implementation) §2.2.1.1, §2.2.7.3
        //# SCPS-TP's response to corruption does neither of these things. Rather,
        //# both the transmission rate (controlled by the congestion window) and the
        //# retransmission time out value remain unchanged.
        // The timer's backoff stays the sender's (a run of timeouts may be an
        // outage); the window is kept through fast retransmits and, as the
        // reference implementation's snd_prevcwnd, given back after a timeout.
        self.corruption = true;
    }

    /// The fine-grained timeout: SRTT + 4 RTTVAR on the per-segment clock.
    pub fn fine_timeout(&self) -> Option<Time> {
        self.srtt.map(|s| s + 4 * self.rttvar)
    }

    /// Whether a segment sent at `sent_at` has outlived the fine timeout.
    pub fn expired(&self, sent_at: Time, now: Time) -> bool {
        //= Brakmo & Peterson 1995 §3.1
        //# When a duplicate ACK is received, Vegas checks to see if the
        //# difference between the current time and the timestamp recorded for
        //# the relevant segment is greater than the timeout value. If it is,
        //# then Vegas retransmits the segment without having to wait for n (3)
        //# duplicate ACKs.
        self.cfg.fine_retransmit && self.fine_timeout().is_some_and(|t| now.saturating_sub(sent_at) > t)
    }

    /// After a retransmission, the first two new ACKs check the timer too.
    pub fn retransmitted(&mut self) {
        //= Brakmo & Peterson 1995 §3.1
        //# when a non-duplicate ACK is received, if it is the first or second
        //# one after a retransmission, Vegas again checks to see if the time
        //# interval since the segment was sent is larger than the timeout value.
        self.worried = 2;
    }

    /// Whether this new ACK is one of those two (and counts it).
    pub fn worried(&mut self) -> bool {
        let w = self.worried > 0;
        self.worried = self.worried.saturating_sub(1);
        w
    }

    pub fn base_rtt(&self) -> Option<Time> {
        self.base_rtt
    }

    /// Segments queued in the network: (Expected - Actual) * BaseRTT.
    fn diff(&self, w: &Window, rtt: Time, base: Time) -> f64 {
        //= Brakmo & Peterson 1995 §3.2
        //# Expected = WindowSize / BaseRTT ... Actual ... Diff = Expected - Actual
        // Actual = WindowSize / RTT, and Diff * BaseRTT is in segments.
        let cwnd = w.cwnd as f64 / w.mss as f64;
        cwnd * (rtt - base) as f64 / rtt as f64
    }

    fn end_of_round(&mut self, w: &mut Window, ack: &Ack) {
        let (Some(rtt), Some(base)) = (self.round_min, self.base_rtt) else {
            // No sample this round (all retransmissions): no decision.
            self.grow_this_round = !self.grow_this_round || !self.cfg.every_other_rtt;
            return;
        };
        let diff = self.diff(w, rtt, base);
        if w.in_slow_start() {
            if diff > self.cfg.gamma && !self.cfg.every_other_rtt {
                //= Linux tcp_vegas.c, tcp_vegas_cong_avoid (ns-3 TcpVegas::IncreaseWindow alike)
                //# we set the cwnd to achieve the right ("actual") rate when we exit slow start
                //# tcp_snd_cwnd_set(tp, min(tcp_snd_cwnd(tp), (u32)target_cwnd + 1));
                let target = (w.cwnd / w.mss) as f64 * base as f64 / rtt as f64;
                w.cwnd = w.cwnd.min((target as u64 + 1) * w.mss).max(2 * w.mss);
                w.ssthresh = w.cwnd;
            } else if diff > self.cfg.gamma {
                //= ns-2 tcp-vegas.cc (Arizona x-kernel Vegas)
                //# if (delta > gamma) ... leave slow start, cwnd -= cwnd/8
                w.cwnd = (w.cwnd - w.cwnd / 8).max(2 * w.mss);
                w.ssthresh = w.cwnd;
            } else {
                //= Brakmo & Peterson 1995 §3.3
                //# Vegas allows exponential growth only every other RTT. In
                //# between, the congestion window stays fixed so a valid
                //# comparison of the expected and actual rates can be made.
                self.grow_this_round = !self.grow_this_round || !self.cfg.every_other_rtt;
            }
        } else if diff > self.cfg.beta {
            //= Brakmo & Peterson 1995 §3.2
            //# When Diff > beta, Vegas decreases the congestion window linearly
            //# during the next RTT.
            w.cwnd = (w.cwnd - w.mss).max(2 * w.mss);
        } else if diff < self.cfg.alpha {
            //# When Diff < alpha, Vegas increases the congestion window linearly
            //# during the next RTT
            w.cwnd += w.mss;
        }
        //# and when alpha < Diff < beta, Vegas leaves the congestion window unchanged.
        let _ = ack;
    }
}

impl Controller for Vegas {
    fn on_every_ack(&mut self, w: &mut Window, _ack: &Ack) {
        if let Some(cwnd) = self.restore.take() {
            w.cwnd = w.cwnd.max(cwnd);
        }
    }

    fn on_rtt(&mut self, rtt: Time, _now: Time) {
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.round_min = Some(self.round_min.map_or(rtt, |m| m.min(rtt)));
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                self.rttvar = rtt / 2;
            }
            Some(s) => {
                self.rttvar = (3 * self.rttvar + s.abs_diff(rtt)) / 4;
                self.srtt = Some((7 * s + rtt) / 8);
            }
        }
    }

    fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        match self.round_end {
            Some(end) if ack.snd_una >= end => {
                self.end_of_round(w, ack);
                self.round_end = Some(ack.snd_max);
                self.round_min = None;
            }
            None => self.round_end = Some(ack.snd_max),
            _ => {}
        }
        if w.in_slow_start() && self.grow_this_round {
            w.cwnd += ack.acked.min(w.mss);
        }
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        if self.corruption {
            if loss.event == Congestion::Timeout {
                self.restore = Some(w.cwnd);
            }
            return w.cwnd.max(2 * w.mss);
        }
        self.grow_this_round = true;
        if loss.event == Congestion::Timeout {
            // The coarse timeout stays Reno's (Leung §2.2.3).
            self.last_decrease = Some(loss.now);
            return super::halve(w, loss.flight);
        }
        let after_last_decrease = match (loss.lost_sent_at, self.last_decrease) {
            (Some(sent), Some(last)) => sent > last,
            _ => true,
        };
        if !after_last_decrease {
            // A loss from the window already reduced for: no second decrease.
            return w.cwnd.max(2 * w.mss);
        }
        self.last_decrease = Some(loss.now);
        ((w.cwnd as f64 * self.cfg.loss_factor) as u64).max(2 * w.mss)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ack, loss};
    use super::*;
    use crate::time::NS_PER_MS;

    const MSS: u64 = 1000;

    #[test]
    fn fine_retransmit_off_never_expires_a_segment() {
        let mut on = Vegas::new(Config::default());
        let mut off = Vegas::new(Config { fine_retransmit: false, ..Config::default() });
        for v in [&mut on, &mut off] {
            v.on_rtt(100 * NS_PER_MS, 0);
        }
        // Sent 1 s ago, far beyond SRTT + 4 RTTVAR = 100 ms + 4 x 50 ms.
        let now = 1_000 * NS_PER_MS;
        assert!(on.expired(0, now), "Brakmo & Peterson §3.1: resend on the duplicate ACK");
        assert!(!off.expired(0, now), "Linux/ns-3 Vegas: no fine-grained check");
    }

    /// One round of `cwnd` per-segment ACKs at `rtt_ms`, ending past `round_end`.
    fn round(v: &mut Vegas, w: &mut Window, seq: &mut u64, rtt_ms: u64) {
        let segments = w.cwnd / MSS;
        for _ in 0..segments {
            v.on_rtt(rtt_ms * NS_PER_MS, 0);
            *seq += MSS;
            let mut a = ack(MSS, 0);
            a.snd_una = *seq;
            a.snd_max = *seq + w.cwnd;
            v.on_ack(w, &a);
        }
    }

    #[test]
    fn slow_start_doubles_only_every_other_rtt() {
        let mut v = Vegas::new(Config::default());
        let mut w = Window { cwnd: 4 * MSS, ssthresh: u64::MAX, mss: MSS };
        let mut seq = 0;
        let mut sizes = Vec::new();
        for _ in 0..4 {
            round(&mut v, &mut w, &mut seq, 100);
            sizes.push(w.cwnd / MSS);
        }
        // No queueing (RTT = BaseRTT): grow, hold, grow, hold.
        assert_eq!(sizes, vec![8, 8, 16, 16]);
    }

    #[test]
    fn slow_start_ends_with_more_than_gamma_queued() {
        let mut v = Vegas::new(Config::default());
        let mut w = Window { cwnd: 16 * MSS, ssthresh: u64::MAX, mss: MSS };
        let mut seq = 0;
        round(&mut v, &mut w, &mut seq, 100);
        // RTT 125 ms against BaseRTT 100: diff = 32 * 25/125 = 6.4 > gamma.
        round(&mut v, &mut w, &mut seq, 125);
        v.on_rtt(125 * NS_PER_MS, 0);
        let mut a = ack(MSS, 0);
        a.snd_una = seq + w.cwnd;
        v.on_ack(&mut w, &a);
        assert!(!w.in_slow_start(), "left slow start");
        assert_eq!(w.cwnd, 32 * MSS - 32 * MSS / 8, "cwnd -= cwnd/8");
    }

    #[test]
    fn every_rtt_slow_start_doubles_each_round_and_leaves_at_the_target() {
        let linux = Config { every_other_rtt: false, ..Config::default() };
        let mut v = Vegas::new(linux);
        let mut w = Window { cwnd: 4 * MSS, ssthresh: u64::MAX, mss: MSS };
        let mut seq = 0;
        let mut sizes = Vec::new();
        for _ in 0..3 {
            round(&mut v, &mut w, &mut seq, 100);
            sizes.push(w.cwnd / MSS);
        }
        //= Linux tcp_vegas.c: "we increase during every RTT during slow start, just like Reno"
        assert_eq!(sizes, vec![8, 16, 32]);
        // RTT 125 ms against BaseRTT 100 with 64 segments: diff = 12.8 > gamma.
        round(&mut v, &mut w, &mut seq, 125);
        v.on_rtt(125 * NS_PER_MS, 0);
        let mut a = ack(MSS, 0);
        a.snd_una = seq + w.cwnd;
        v.on_ack(&mut w, &a);
        assert!(!w.in_slow_start(), "left slow start");
        // target = 64 x 100/125 = 51.2 segments: cwnd = min(64, 51 + 1)
        // (Brakmo & Peterson's rule would keep 64 - 8 = 56).
        assert_eq!(w.cwnd, 52 * MSS);
    }

    fn in_avoidance(cwnd: u64) -> (Vegas, Window, u64) {
        let mut v = Vegas::new(Config::default());
        let w = Window { cwnd: cwnd * MSS, ssthresh: MSS, mss: MSS };
        v.base_rtt = Some(100 * NS_PER_MS);
        (v, w, 0)
    }

    #[test]
    fn avoidance_grows_below_alpha_holds_between_and_shrinks_above_beta() {
        // 20 segments: diff = 20 * (rtt - 100) / rtt.
        for (rtt, expected) in [(102, 21), (110, 20), (125, 19)] {
            let (mut v, mut w, mut seq) = in_avoidance(20);
            // The first round measures; the first ACK of the next one decides.
            round(&mut v, &mut w, &mut seq, rtt);
            assert_eq!(w.cwnd, 20 * MSS);
            v.on_rtt(rtt * NS_PER_MS, 0);
            let mut a = ack(MSS, 0);
            a.snd_una = seq + w.cwnd;
            v.on_ack(&mut w, &a);
            assert_eq!(w.cwnd / MSS, expected, "RTT {rtt} ms: diff {:.2}", 20.0 * (rtt - 100) as f64 / rtt as f64);
        }
    }

    #[test]
    fn retransmission_shrinks_to_three_quarters_once_per_window() {
        let (mut v, w, _) = in_avoidance(40);
        let mut l = loss(Congestion::FastRetransmit, 40 * MSS);
        l.now = 10 * NS_PER_MS;
        l.lost_sent_at = Some(5 * NS_PER_MS);
        assert_eq!(v.ssthresh_after_loss(&w, &l), 30 * MSS);
        // A second loss from the same window (sent before the decrease at 10 ms).
        let w2 = Window { cwnd: 30 * MSS, ..w };
        l.now = 20 * NS_PER_MS;
        l.lost_sent_at = Some(6 * NS_PER_MS);
        assert_eq!(v.ssthresh_after_loss(&w2, &l), 30 * MSS, "no second decrease");
        // A segment sent after the decrease counts again.
        l.lost_sent_at = Some(15 * NS_PER_MS);
        assert_eq!(v.ssthresh_after_loss(&w2, &l), 22_500);
    }

    #[test]
    fn corruption_response_keeps_the_window_through_any_loss() {
        let (mut v, w, _) = in_avoidance(40);
        v.assume_corruption();
        let mut l = loss(Congestion::FastRetransmit, 40 * MSS);
        l.now = 10 * NS_PER_MS;
        l.lost_sent_at = Some(15 * NS_PER_MS);
        assert_eq!(v.ssthresh_after_loss(&w, &l), 40 * MSS, "no 3/4 cut");
        // A timeout: the sender drops to one segment to resend; the next ACK
        // gives the window back, as the reference implementation's snd_prevcwnd.
        assert_eq!(v.ssthresh_after_loss(&w, &loss(Congestion::Timeout, 40 * MSS)), 40 * MSS);
        let mut after = Window { cwnd: MSS, ..w };
        v.on_every_ack(&mut after, &ack(MSS, 0));
        assert_eq!(after.cwnd, 40 * MSS);
        // Only once: a later ACK leaves Vegas's own decisions alone.
        after.cwnd = 38 * MSS;
        v.on_every_ack(&mut after, &ack(MSS, 0));
        assert_eq!(after.cwnd, 38 * MSS);
    }

    #[test]
    fn fine_timeout_fires_before_three_duplicates_would() {
        let mut v = Vegas::new(Config::default());
        for _ in 0..20 {
            v.on_rtt(500 * NS_PER_MS, 0);
        }
        // A steady RTT: the fine timeout is close to the RTT itself, far below a 1 s RTO.
        let t = v.fine_timeout().unwrap();
        assert!(t >= 500 * NS_PER_MS && t < 600 * NS_PER_MS, "{t}");
        assert!(v.expired(0, 601 * NS_PER_MS));
        assert!(!v.expired(0, 499 * NS_PER_MS));
    }
}
