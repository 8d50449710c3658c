//! CUBIC (RFC 9438): after a loss the window follows a cubic curve in the
//! time since the loss, concave up to the window where the loss happened
//! (W_max) and convex beyond it, never slower than Reno would grow
//! (the Reno-friendly region). Slow start is RFC 5681's; HyStart++ is not
//! used (RFC 9438 §4.10 makes it optional).

use super::{Ack, Controller, Loss, Window};
use crate::time::{seconds, Time};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= rfc9438#section-4.6
    //# Parameter β_cubic SHOULD be set to 0.7
    pub beta: f64,
    //= rfc9438#section-5
    //# C SHOULD be set to 0.4
    pub c: f64,
    //= rfc9438#section-4.7
    //# the fast convergence heuristic ... SHOULD be used
    pub fast_convergence: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { beta: 0.7, c: 0.4, fast_convergence: true }
    }
}

impl From<&super::CcParams> for Config {
    fn from(p: &super::CcParams) -> Self {
        let d = Config::default();
        Config {
            beta: p.cubic_beta.unwrap_or(d.beta),
            c: p.cubic_c.unwrap_or(d.c),
            fast_convergence: p.cubic_fast_convergence.unwrap_or(d.fast_convergence),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Cubic {
    cfg: Config,
    /// Window (segments) just before the last reduction.
    w_max: f64,
    /// Start of the current congestion-avoidance epoch.
    epoch_start: Option<Time>,
    /// Time (s) the cubic curve takes to reach W_max.
    k: f64,
    /// Reno-friendly estimate of the window, in segments.
    w_est: f64,
    /// cwnd when ssthresh was last set (segments), for W_est's alpha.
    cwnd_at_reduction: f64,
    /// Fractional bytes of growth not yet added to cwnd.
    carry: f64,
}

impl Cubic {
    pub fn new(cfg: Config) -> Cubic {
        Cubic { cfg, w_max: 0.0, epoch_start: None, k: 0.0, w_est: 0.0, cwnd_at_reduction: 0.0, carry: 0.0 }
    }

    /// W_cubic(t) in segments, t in seconds since the epoch began.
    fn w_cubic(&self, t: f64) -> f64 {
        //= rfc9438#section-4.2
        //# W_cubic(t) = C * (t - K)^3 + W_max                      (1)
        self.cfg.c * (t - self.k).powi(3) + self.w_max
    }

    fn add_bytes(&mut self, w: &mut Window, bytes: f64) {
        self.carry += bytes.max(0.0);
        let whole = self.carry.floor();
        w.cwnd += whole as u64;
        self.carry -= whole;
    }
}

impl Controller for Cubic {
    fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        if w.in_slow_start() {
            return super::reno::grow(w, ack.acked);
        }
        let mss = w.mss as f64;
        let cwnd = w.cwnd as f64 / mss;
        let segments_acked = ack.acked as f64 / mss;
        if self.epoch_start.is_none() {
            self.epoch_start = Some(ack.now);
            //= rfc9438#section-4.2
            //# K = cubic_root((W_max - cwnd_epoch) / C)                  (2)
            //# ... where cwnd_epoch is the cwnd at the beginning of the current
            //# congestion avoidance stage.
            if cwnd < self.w_max {
                self.k = ((self.w_max - cwnd) / self.cfg.c).cbrt();
            } else {
                self.k = 0.0;
                self.w_max = cwnd;
            }
            self.w_est = cwnd;
        }
        let epoch_start = self.epoch_start.unwrap_or(ack.now);
        let t = seconds(ack.now - epoch_start);
        let rtt = ack.srtt.map(seconds).unwrap_or(0.0);
        //= rfc9438#section-4.3
        //# W_est = W_est + α_cubic * segments_acked / cwnd            (4)
        //# ... α_cubic = 3 * (1 - β_cubic) / (1 + β_cubic)
        //# ... Once W_est has grown to reach the cwnd at the time of most
        //# recently setting ssthresh -- that is, W_est >= cwnd_prior -- the
        //# sender SHOULD set α_cubic to 1
        let beta = self.cfg.beta;
        let alpha = if self.w_est >= self.cwnd_at_reduction { 1.0 } else { 3.0 * (1.0 - beta) / (1.0 + beta) };
        self.w_est += alpha * segments_acked / cwnd;
        //# When receiving a new ACK in congestion avoidance (where cwnd could be
        //# greater than or less than W_max), CUBIC checks whether W_cubic(t) is
        //# less than W_est. If so, CUBIC is in the Reno-friendly region and cwnd
        //# SHOULD be set to W_est at each reception of a new ACK.
        if self.w_cubic(t) < self.w_est {
            let target = self.w_est * mss;
            if target > w.cwnd as f64 {
                self.add_bytes(w, target - w.cwnd as f64);
            }
            return;
        }
        //= rfc9438#section-4.4
        //# the target is limited as follows:
        //#     cwnd if W_cubic(t + RTT) < cwnd
        //#     1.5 * cwnd if W_cubic(t + RTT) > 1.5 * cwnd
        //# ... cwnd MUST be incremented by (target - cwnd) / cwnd for each received new ACK
        let target = self.w_cubic(t + rtt).clamp(cwnd, 1.5 * cwnd);
        self.add_bytes(w, (target - cwnd) / cwnd * segments_acked * mss);
    }

    fn ssthresh_after_loss(&mut self, w: &Window, _loss: &Loss) -> u64 {
        let mss = w.mss as f64;
        let cwnd = w.cwnd as f64 / mss;
        //= rfc9438#section-4.7
        //# if (cwnd < W_max and fast convergence enabled) {
        //#     W_max = cwnd * (1 + β_cubic) / 2;
        //# } else {
        //#     W_max = cwnd;
        //# }
        self.w_max = if cwnd < self.w_max && self.cfg.fast_convergence { cwnd * (1.0 + self.cfg.beta) / 2.0 } else { cwnd };
        self.cwnd_at_reduction = cwnd;
        //= rfc9438#section-4.8
        //# In the case of a timeout, CUBIC follows Reno to reduce cwnd, but
        //# sets ssthresh using β_cubic
        // Either way the next congestion-avoidance stage starts a new epoch.
        self.epoch_start = None;
        self.w_est = 0.0;
        //= rfc9438#section-4.6
        //# ssthresh = cwnd * β_cubic
        //# ... ssthresh = max(ssthresh, 2)
        ((cwnd * self.cfg.beta * mss) as u64).max(2 * w.mss)
    }
}

impl Cubic {
    pub fn w_max_segments(&self) -> f64 {
        self.w_max
    }

    pub fn k_seconds(&self) -> f64 {
        self.k
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ack, loss};
    use super::*;
    use super::super::Congestion;
    use crate::time::{NS_PER_MS, NS_PER_S};

    const MSS: u64 = 1000;

    fn after_loss_at(segments: u64) -> (Cubic, Window) {
        let mut c = Cubic::new(Config::default());
        let mut w = Window { cwnd: segments * MSS, ssthresh: u64::MAX, mss: MSS };
        w.ssthresh = c.ssthresh_after_loss(&w, &loss(Congestion::FastRetransmit, w.cwnd));
        w.cwnd = w.ssthresh;
        (c, w)
    }

    #[test]
    fn loss_multiplies_by_beta_and_sets_k() {
        let (c, w) = after_loss_at(100);
        //= rfc9438#section-4.6
        //# ssthresh = cwnd * β_cubic
        assert_eq!(w.ssthresh, 70 * MSS);
        assert_eq!(c.w_max_segments(), 100.0);
    }

    #[test]
    fn fast_convergence_lowers_w_max_below_the_previous_peak() {
        let (mut c, mut w) = after_loss_at(100);
        w.cwnd = 80 * MSS;
        c.ssthresh_after_loss(&w, &loss(Congestion::FastRetransmit, w.cwnd));
        //= rfc9438#section-4.7
        //# W_max = cwnd * (1 + β_cubic) / 2
        assert!((c.w_max_segments() - 68.0).abs() < 1e-9);
    }

    /// Runs congestion avoidance with one ACK per segment, `rtt` apart per window.
    fn run(c: &mut Cubic, w: &mut Window, from: Time, until: Time, rtt: Time) {
        let mut now = from;
        while now < until {
            let segments = w.cwnd / MSS;
            for i in 0..segments {
                let mut a = ack(MSS, now + i * rtt / segments);
                a.srtt = Some(rtt);
                c.on_ack(w, &a);
            }
            now += rtt;
        }
    }

    #[test]
    fn window_returns_to_w_max_after_k_seconds_then_grows_convexly() {
        let (mut c, mut w) = after_loss_at(1000);
        // K = cbrt((1000 - 700) / 0.4) = cbrt(750) = 9.09 s.
        let start = 10 * NS_PER_S;
        run(&mut c, &mut w, start, start + NS_PER_S / 10, 100 * NS_PER_MS);
        assert!((c.k_seconds() - 750f64.cbrt()).abs() < 1e-6, "K {}", c.k_seconds());
        let k = (c.k_seconds() * 1e9) as Time;
        run(&mut c, &mut w, start + NS_PER_S / 10, start + k, 100 * NS_PER_MS);
        let at_k = w.cwnd as f64 / MSS as f64;
        assert!((at_k / 1000.0 - 1.0).abs() < 0.03, "cwnd {at_k} segments at t = K, W_max 1000");
        // Concave: half of the climb happens in the first fraction of K.
        run(&mut c, &mut w, start + k, start + k + 5 * NS_PER_S, 100 * NS_PER_MS);
        let later = w.cwnd as f64 / MSS as f64;
        // W_cubic(K + 5) = 0.4 * 125 + 1000 = 1050
        assert!((later - 1050.0).abs() < 15.0, "cwnd {later} at K + 5 s");
    }

    #[test]
    fn reno_friendly_region_grows_at_least_as_aimd_with_beta_0_7() {
        // A small window on a long RTT: the cubic curve is slower than Reno.
        let (mut c, mut w) = after_loss_at(20);
        let rtt = 10 * NS_PER_MS;
        run(&mut c, &mut w, 0, 10 * rtt, rtt);
        // alpha_cubic = 3 * 0.3 / 1.7 = 0.53 segments per RTT: 14 -> ~19.3 in 10 RTTs,
        // while the cubic curve gives 0.4 * (0.11 - K)^3 + 20 = 14.8 with K = 2.47 s.
        let segs = w.cwnd as f64 / MSS as f64;
        assert!((18.5..=20.5).contains(&segs), "cwnd {segs} segments after 10 RTTs");
    }

    #[test]
    fn timeout_uses_beta_too() {
        let mut c = Cubic::new(Config::default());
        let w = Window { cwnd: 50 * MSS, ssthresh: u64::MAX, mss: MSS };
        assert_eq!(c.ssthresh_after_loss(&w, &loss(Congestion::Timeout, 50 * MSS)), 35 * MSS);
    }
}
