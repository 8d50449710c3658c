//! TCP-ADaLR (Omueti & Trajković 2007; 001.md): a scaling factor rho from
//! the RTT enlarges slow-start and congestion-avoidance growth on long
//! paths, an adaptive receive-window increase lets the sender run past the
//! 64 KB window, and the loss response adds back two segments. The RTO's
//! extra 200 ms and the three-segment retransmission limit are sender
//! behaviour; the sender reads them from here.

use super::{halve, Ack, Controller, Loss, Window};
use crate::time::{seconds, Time};

/// How the rwnd increase persists (001.md §5.2 A1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RwndIncrease {
    /// A sender-side variable that keeps what it gained (the note's reading (i)).
    Accumulate,
    /// A per-ACK headroom over the advertised window (reading (ii)).
    Headroom,
}

/// Where the "add back two SMSS" rule applies (001.md §5.2 A7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryRule {
    /// On the ACK beyond snd_recover that ends fast recovery (the literal slide).
    FullAck,
    /// On each RFC 6582 partial ACK, instead of adding back one SMSS.
    PartialAck,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= Omueti 2007, "Scaling component rho" (L331-342)
    //# rho = (sampleRTT s / 1 s) x 60 ... lower bound 1, upper bound 60
    pub rho_scale: f64,
    pub rho_max: f64,
    //= Omueti 2007, "Adaptive cwnd increase: heuristics" (L359-379)
    //# rho >= 15 ... RTT >= 250 ms
    pub rho_threshold: f64,
    //= Omueti 2007, "Adaptive rwnd increase: pseudocode" (L423-439)
    //# rwnd = rwnd + rtt_dev_gain * rho * SMSS      (rtt_dev_gain = 0.25)
    pub rtt_dev_gain: f64,
    pub rwnd: RwndIncrease,
    pub recovery: RecoveryRule,
    //= Omueti 2007, "Loss recovery mechanism" (L441-466)
    //# 200 ms is added ... when computing subsequent RTO timer expirations
    pub rto_extra: Time,
    //# Retransmissions from the retransmission buffer are limited to three segments
    pub retransmit_limit: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rho_scale: 60.0,
            rho_max: 60.0,
            rho_threshold: 15.0,
            rtt_dev_gain: 0.25,
            rwnd: RwndIncrease::Accumulate,
            recovery: RecoveryRule::FullAck,
            rto_extra: 200_000_000,
            retransmit_limit: 3,
        }
    }
}

impl From<&super::CcParams> for Config {
    fn from(p: &super::CcParams) -> Self {
        let d = Config::default();
        Config {
            rwnd: match p.adalr_rwnd.as_deref() {
                Some("headroom") => RwndIncrease::Headroom,
                _ => d.rwnd,
            },
            recovery: match p.adalr_recovery.as_deref() {
                Some("partial-ack") => RecoveryRule::PartialAck,
                _ => d.recovery,
            },
            rto_extra: p.adalr_rto_extra.map(|t| t.0).unwrap_or(d.rto_extra),
            retransmit_limit: p.adalr_retransmit_limit.unwrap_or(d.retransmit_limit),
            ..d
        }
    }
}

#[derive(Clone, Debug)]
pub struct Adalr {
    pub cfg: Config,
    rho: f64,
    /// RFC 6582's recover as the slides keep it: 0 until the first loss, and never reset.
    snd_recover: u64,
    /// Bytes the sender may send beyond the advertised window.
    rwnd_bonus: u64,
    carry: f64,
}

impl Adalr {
    pub fn new(cfg: Config) -> Adalr {
        // Before the first RTT sample rho is 1: no enlargement (001.md §5.1 item 7).
        Adalr { cfg, rho: 1.0, snd_recover: 0, rwnd_bonus: 0, carry: 0.0 }
    }

    pub fn rho(&self) -> f64 {
        self.rho
    }

    fn losses_occurred(&self) -> bool {
        //= Omueti 2007, "Adaptive rwnd increase: pseudocode"
        //# if (snd_recover == 0)   // no losses have occurred
        self.snd_recover != 0
    }

    /// The receive window the sender uses: the advertised one plus what ADaLR added.
    pub fn rwnd(&self, advertised: u64) -> u64 {
        advertised.saturating_add(self.rwnd_bonus)
    }

    /// The window after a partial ACK of `acked` bytes, under the partial-ACK reading.
    pub fn partial_ack_add_back(&self, mss: u64) -> u64 {
        match self.cfg.recovery {
            RecoveryRule::PartialAck => 2 * mss,
            RecoveryRule::FullAck => mss,
        }
    }

    fn add_segments(&mut self, w: &mut Window, segments: f64) {
        self.carry += segments * w.mss as f64;
        let whole = self.carry.floor();
        self.carry -= whole;
        w.cwnd += whole as u64;
    }

    /// The slow-start sub-phase, 0 outside all four (001.md §1.5).
    pub fn sub_phase(cwnd: u64, ssthresh: u64, flight: u64, rwnd: u64) -> u8 {
        //= Omueti 2007, "Slow start sub-phases: pseudocode" (L396-411)
        //# if ((cwnd <= ssthresh/4) && (flightsize < rwnd/4)) sub_phase = 1
        //# if ((cwnd > ssthresh/4) && (cwnd <= ssthresh/2) && (flightsize < rwnd/4)) sub_phase = 2
        //# if ((cwnd > ssthresh/4) && (flightsize >= rwnd/4) && (flightsize < rwnd/2)) sub_phase = 3
        //# if ((cwnd > ssthresh/2) && (flightsize >= rwnd/4) && (flightsize < rwnd/2)) sub_phase = 4
        let mut phase = 0;
        if cwnd <= ssthresh / 4 && flight < rwnd / 4 {
            phase = 1;
        }
        if cwnd > ssthresh / 4 && cwnd <= ssthresh / 2 && flight < rwnd / 4 {
            phase = 2;
        }
        if cwnd > ssthresh / 4 && flight >= rwnd / 4 && flight < rwnd / 2 {
            phase = 3;
        }
        if cwnd > ssthresh / 2 && flight >= rwnd / 4 && flight < rwnd / 2 {
            phase = 4;
        }
        phase
    }
}

impl Controller for Adalr {
    fn on_rtt(&mut self, rtt: Time, _now: Time) {
        //= Omueti 2007, "Scaling component rho"
        //# rho = (sampleRTT s / 1 s) x 60
        self.rho = (seconds(rtt) * self.cfg.rho_scale).clamp(1.0, self.cfg.rho_max);
    }

    fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        let enlarged = self.rho >= self.cfg.rho_threshold;
        let rwnd = ack.rwnd;
        if w.in_slow_start() {
            //= Omueti 2007, "Adaptive cwnd increase: slow start phase" (L344-357)
            //# (sqrt(rho)/4) x SMSS if no losses have occurred and rho >= 15;
            //# SMSS if losses have occurred ... At all other times ... SMSS
            let phase = Self::sub_phase(w.cwnd, w.ssthresh, ack.flight, rwnd);
            let step = if phase != 0 && !self.losses_occurred() && enlarged { self.rho.sqrt() / 4.0 } else { 1.0 };
            return self.add_segments(w, step);
        }
        //= Omueti 2007, "Adaptive cwnd increase: congestion avoidance phase" (L381-392)
        //# (sqrt(rho)/2) x SMSS x SMSS / cwnd ... (a) losses have occurred and the
        //# sender is out of fast recovery and rho >= 15; or (b) flightsize < rwnd/2 and rho >= 15
        // `on_ack` only runs outside fast recovery, so (a) is "losses occurred".
        let scale = if enlarged && (self.losses_occurred() || ack.flight < rwnd / 2) { self.rho.sqrt() / 2.0 } else { 1.0 };
        let cwnd = w.cwnd as f64 / w.mss as f64;
        self.add_segments(w, scale / cwnd);
    }

    fn on_every_ack(&mut self, w: &mut Window, ack: &Ack) {
        if self.cfg.rwnd == RwndIncrease::Headroom {
            self.rwnd_bonus = 0;
        }
        let rwnd = ack.rwnd.saturating_add(self.rwnd_bonus);
        //= Omueti 2007, "Adaptive rwnd increase: pseudocode"
        //# if (flightsize < rwnd) {
        //#     if (snd_recover == 0) rwnd = rwnd + rtt_dev_gain * rho * SMSS
        //#     else if ((snd_una + SMSS <= snd_recover) && (snd_recover != 0)) rwnd = rwnd + SMSS
        //# }
        if ack.flight < rwnd {
            if !self.losses_occurred() {
                self.rwnd_bonus += (self.cfg.rtt_dev_gain * self.rho * w.mss as f64) as u64;
            } else if ack.snd_una + w.mss <= self.snd_recover {
                self.rwnd_bonus += w.mss;
            }
        }
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        // RFC 6582: recover = highest sequence sent, on fast retransmit and on timeout (A3).
        self.snd_recover = loss.snd_max.max(1);
        halve(w, loss.flight)
    }

    fn cwnd_after_recovery(&mut self, w: &Window, acked: u64) -> Option<u64> {
        //= Omueti 2007, "Loss recovery: pseudocode" (L449-466)
        //# if (snd_una > snd_recover) {
        //#     if (cwnd <= acked_bytes) cwnd = 2 * SMSS
        //#     else cwnd = cwnd - acked_bytes + 2 * SMSS
        //# }
        match self.cfg.recovery {
            RecoveryRule::FullAck => Some(w.cwnd.saturating_sub(acked) + 2 * w.mss),
            RecoveryRule::PartialAck => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ack, loss};
    use super::super::Congestion;
    use super::*;
    use crate::time::NS_PER_MS;

    const SMSS: u64 = 1460;

    fn at_rtt(ms: u64) -> Adalr {
        let mut a = Adalr::new(Config::default());
        a.on_rtt(ms * NS_PER_MS, 0);
        a
    }

    #[test]
    fn rho_is_sixty_times_the_rtt_in_seconds_bounded_1_to_60() {
        assert!((at_rtt(550).rho() - 33.0).abs() < 1e-9);
        assert_eq!(at_rtt(10).rho(), 1.0);
        assert_eq!(at_rtt(2000).rho(), 60.0);
    }

    #[test]
    fn sub_phases_follow_the_pseudocode() {
        let r = 64_000;
        assert_eq!(Adalr::sub_phase(10_000, 64_000, 1_000, r), 1);
        assert_eq!(Adalr::sub_phase(20_000, 64_000, 1_000, r), 2);
        assert_eq!(Adalr::sub_phase(20_000, 64_000, 20_000, r), 3);
        assert_eq!(Adalr::sub_phase(40_000, 64_000, 20_000, r), 4, "4 overrides 3");
        assert_eq!(Adalr::sub_phase(40_000, 64_000, 1_000, r), 0, "cwnd > ssthresh/2, flight < rwnd/4");
        assert_eq!(Adalr::sub_phase(10_000, 64_000, 40_000, r), 0, "flight >= rwnd/2");
    }

    #[test]
    fn slow_start_step_is_sqrt_rho_over_4_until_the_first_loss() {
        let mut a = at_rtt(550); // rho 33: sqrt(33)/4 = 1.436 SMSS
        let mut w = Window { cwnd: 2 * SMSS, ssthresh: 65_535, mss: SMSS };
        let mut k = ack(SMSS, 0);
        k.rwnd = 65_535;
        k.flight = SMSS;
        a.on_ack(&mut w, &k);
        assert_eq!(w.cwnd, 2 * SMSS + (33f64.sqrt() / 4.0 * SMSS as f64) as u64);
        a.ssthresh_after_loss(&w, &loss(Congestion::FastRetransmit, w.cwnd));
        let before = w.cwnd;
        a.on_ack(&mut w, &k);
        assert_eq!(w.cwnd - before, SMSS, "after a loss, slow start adds one SMSS");
    }

    #[test]
    fn short_rtt_gets_no_enlargement() {
        let mut a = at_rtt(200); // rho 12 < 15
        let mut w = Window { cwnd: 2 * SMSS, ssthresh: 65_535, mss: SMSS };
        let mut k = ack(SMSS, 0);
        k.rwnd = 65_535;
        a.on_ack(&mut w, &k);
        assert_eq!(w.cwnd, 3 * SMSS);
    }

    #[test]
    fn avoidance_scales_by_sqrt_rho_over_2() {
        let mut a = at_rtt(550);
        let mut w = Window { cwnd: 40 * SMSS, ssthresh: 20 * SMSS, mss: SMSS };
        let mut k = ack(SMSS, 0);
        k.rwnd = 100 * SMSS;
        k.flight = 30 * SMSS; // below rwnd/2: case (b)
        a.on_ack(&mut w, &k);
        let expected = 33f64.sqrt() / 2.0 * SMSS as f64 / 40.0;
        assert!((w.cwnd as f64 - 40.0 * SMSS as f64 - expected).abs() <= 1.0);
        k.flight = 60 * SMSS; // neither (a) nor (b): Reno's SMSS^2 / cwnd
        let before = w.cwnd;
        a.on_ack(&mut w, &k);
        assert!((w.cwnd - before) as f64 <= SMSS as f64 / 40.0 + 1.0);
    }

    #[test]
    fn rwnd_grows_by_a_quarter_rho_segments_per_ack_then_one_segment_in_recovery() {
        let mut a = at_rtt(500); // rho 30: 0.25 * 30 = 7.5 SMSS
        let mut w = Window { cwnd: 10 * SMSS, ssthresh: u64::MAX, mss: SMSS };
        let mut k = ack(SMSS, 0);
        k.rwnd = 65_535;
        k.flight = 10 * SMSS;
        a.on_every_ack(&mut w, &k);
        assert_eq!(a.rwnd(65_535), 65_535 + 10_950);
        let mut l = loss(Congestion::FastRetransmit, 40 * SMSS);
        l.snd_max = 100 * SMSS;
        a.ssthresh_after_loss(&w, &l);
        k.snd_una = 60 * SMSS; // in fast recovery: snd_una + SMSS <= snd_recover
        a.on_every_ack(&mut w, &k);
        assert_eq!(a.rwnd(65_535), 65_535 + 10_950 + SMSS);
        k.snd_una = 100 * SMSS; // out of recovery: the rwnd is kept, not grown
        a.on_every_ack(&mut w, &k);
        assert_eq!(a.rwnd(65_535), 65_535 + 10_950 + SMSS);
    }

    #[test]
    fn leaving_recovery_deflates_by_the_acked_bytes_and_adds_two_segments() {
        let mut a = at_rtt(500);
        let w = Window { cwnd: 30 * SMSS, ssthresh: 15 * SMSS, mss: SMSS };
        assert_eq!(a.cwnd_after_recovery(&w, 20 * SMSS), Some(12 * SMSS));
        assert_eq!(a.cwnd_after_recovery(&w, 40 * SMSS), Some(2 * SMSS), "cwnd <= acked: 2 SMSS");
    }
}
