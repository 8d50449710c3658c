//! TCP Hybla (Caini & Firrincieli 2004), the satellite controller in Linux
//! (`tcp_hybla.c`): window growth is scaled by rho = RTT / RTT0 so that a
//! long-RTT flow grows in time as a flow with the reference RTT0 does.
//! Slow start adds 2^rho - 1 segments per ACK, congestion avoidance
//! rho^2 / cwnd; the loss response is Reno's halving.

use super::{halve, Ack, Controller, Loss, Window};
use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= Caini & Firrincieli 2004 §3 (Linux tcp_hybla.c: rtt0 = 25 ms)
    //# RTT0 ... the round trip time of the reference connection ... 25 ms
    pub rtt0: Time,
    /// Linux's `snd_cwnd_clamp` for Hybla: 65535 segments.
    pub cwnd_clamp_segments: u64,
    /// Linux caps the exponent at 16 (`min(ca->rho, 16U)`) so 2^rho fits.
    pub max_exponent: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config { rtt0: 25_000_000, cwnd_clamp_segments: 65_535, max_exponent: 16 }
    }
}

impl From<&super::CcParams> for Config {
    fn from(p: &super::CcParams) -> Self {
        let d = Config::default();
        Config { rtt0: p.hybla_rtt0.map(|t| t.0).unwrap_or(d.rtt0), ..d }
    }
}

#[derive(Clone, Debug)]
pub struct Hybla {
    cfg: Config,
    /// The smallest RTT seen; rho follows it (Linux recalculates rho when srtt falls below minrtt).
    min_rtt: Option<Time>,
    /// Fractional segments of growth not yet added.
    carry: f64,
}

impl Hybla {
    pub fn new(cfg: Config) -> Hybla {
        Hybla { cfg, min_rtt: None, carry: 0.0 }
    }

    /// rho = RTT / RTT0, at least 1.
    pub fn rho(&self) -> f64 {
        //= Caini & Firrincieli 2004 eq. (6)
        //# rho = RTT / RTT0
        // Linux: rho_3ls = max(srtt / rtt0, 8) in eighths, i.e. rho >= 1.
        self.min_rtt.map_or(1.0, |r| (r as f64 / self.cfg.rtt0 as f64).max(1.0))
    }
}

impl Controller for Hybla {
    fn on_rtt(&mut self, rtt: Time, _now: Time) {
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    fn on_ack(&mut self, w: &mut Window, _ack: &Ack) {
        let rho = self.rho();
        let cwnd = w.cwnd as f64 / w.mss as f64;
        let slow_start = w.in_slow_start();
        let increment = if slow_start {
            //= Caini & Firrincieli 2004 eq. (8)
            //# W(i+1) = W(i) + 2^rho - 1    (slow start)
            2f64.powf(rho.min(self.cfg.max_exponent as f64)) - 1.0
        } else {
            //# W(i+1) = W(i) + rho^2 / W(i)  (congestion avoidance)
            rho * rho / cwnd
        };
        self.carry += increment;
        // The epsilon keeps ten additions of 0.1 from summing to 0.99999.
        let whole = (self.carry + 1e-9).floor();
        self.carry = (self.carry - whole).max(0.0);
        w.cwnd += whole as u64 * w.mss;
        if slow_start {
            // Linux: "clamp down slowstart cwnd to ssthresh value".
            w.cwnd = w.cwnd.min(w.ssthresh.max(w.mss));
        }
        w.cwnd = w.cwnd.min(self.cfg.cwnd_clamp_segments * w.mss);
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        // Linux's hybla uses tcp_reno_ssthresh.
        halve(w, loss.flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::ack;
    use super::*;
    use crate::time::NS_PER_MS;

    const MSS: u64 = 1000;

    fn hybla_at(rtt_ms: u64) -> Hybla {
        let mut h = Hybla::new(Config::default());
        h.on_rtt(rtt_ms * NS_PER_MS, 0);
        h
    }

    #[test]
    fn rho_is_rtt_over_25_ms_and_at_least_one() {
        assert_eq!(hybla_at(500).rho(), 20.0);
        assert_eq!(hybla_at(10).rho(), 1.0);
        let mut h = hybla_at(600);
        h.on_rtt(500 * NS_PER_MS, 0);
        h.on_rtt(700 * NS_PER_MS, 0);
        assert_eq!(h.rho(), 20.0, "rho follows the smallest RTT");
    }

    #[test]
    fn slow_start_adds_two_to_the_rho_minus_one_per_ack() {
        let mut h = hybla_at(50);
        let mut w = Window { cwnd: 2 * MSS, ssthresh: u64::MAX, mss: MSS };
        h.on_ack(&mut w, &ack(MSS, 0));
        //= Caini & Firrincieli 2004 eq. (8): 2^2 - 1 = 3 segments
        assert_eq!(w.cwnd, 5 * MSS);
    }

    #[test]
    fn slow_start_is_clamped_to_ssthresh() {
        let mut h = hybla_at(500);
        let mut w = Window { cwnd: 2 * MSS, ssthresh: 100 * MSS, mss: MSS };
        h.on_ack(&mut w, &ack(MSS, 0));
        assert_eq!(w.cwnd, 100 * MSS);
    }

    #[test]
    fn congestion_avoidance_adds_rho_squared_per_window() {
        let mut h = hybla_at(100); // rho = 4
        let mut w = Window { cwnd: 40 * MSS, ssthresh: 10 * MSS, mss: MSS };
        for _ in 0..40 {
            h.on_ack(&mut w, &ack(MSS, 0));
        }
        // 40 ACKs of rho^2 / cwnd = 16 / 40..56 each: about 13-16 segments.
        let grown = (w.cwnd - 40 * MSS) / MSS;
        assert!((12..=16).contains(&grown), "grew {grown} segments in one window");
    }

    #[test]
    fn reno_when_the_rtt_is_below_rtt0() {
        let mut h = hybla_at(20);
        let mut w = Window { cwnd: 10 * MSS, ssthresh: 5 * MSS, mss: MSS };
        for _ in 0..10 {
            h.on_ack(&mut w, &ack(MSS, 0));
        }
        assert_eq!(w.cwnd, 11 * MSS, "rho = 1: one segment per window");
    }
}
