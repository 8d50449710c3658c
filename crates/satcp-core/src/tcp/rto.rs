//! Retransmission timeout per RFC 6298 (or RFC 793's original estimator),
//! with Karn's backoff and, optionally, the coarse BSD timer tick.

use crate::time::{Time, NS_PER_S};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimator {
    /// Jacobson/Karels mean and deviation (RFC 6298).
    Rfc6298,
    //= rfc793#section-3.7
    //# SRTT = ( ALPHA * SRTT ) + ((1-ALPHA) * RTT)
    //# RTO = min[UBOUND,max[LBOUND,(BETA*SRTT)]]
    //# ALPHA is a smoothing factor (e.g., .8 to .9), and BETA is a delay
    //# variance factor (e.g., 1.3 to 2.0).
    /// ALPHA = 7/8 (the 0.125 gain Leung's Table 4.1 gives), BETA = 2;
    /// LBOUND and UBOUND are the configured minimum and maximum.
    Rfc793,
}

#[derive(Clone, Copy, Debug)]
pub struct RtoConfig {
    pub initial: Time,
    pub min: Time,
    pub max: Time,
    /// Clock granularity G.
    pub granularity: Time,
    pub estimator: Estimator,
    /// The BSD slow-timer tick (500 ms in 4.4BSD): RTT is measured in ticks
    /// and the timer only expires on a tick; 0 = exact timing.
    pub tick: Time,
}

impl Default for RtoConfig {
    fn default() -> Self {
        RtoConfig {
            initial: NS_PER_S,
            min: NS_PER_S,
            max: 60 * NS_PER_S,
            granularity: 1_000_000,
            estimator: Estimator::Rfc6298,
            tick: 0,
        }
    }
}

#[derive(Clone, Debug)]
pub struct RttEstimator {
    config: RtoConfig,
    srtt: Option<Time>,
    rttvar: Time,
    /// RTO before backoff.
    base: Time,
    backoffs: u32,
}

impl RttEstimator {
    pub fn new(config: RtoConfig) -> RttEstimator {
        //= rfc6298#section-2.1
        //# Until a round-trip time (RTT) measurement has been made for a
        //# segment sent between the sender and receiver, the sender SHOULD
        //# set RTO <- 1 second
        RttEstimator { config, srtt: None, rttvar: 0, base: config.initial, backoffs: 0 }
    }

    /// An RTT sample for a segment sent at `sent` and acknowledged at `now`.
    pub fn sample_between(&mut self, sent: Time, now: Time) {
        let r = match self.config.tick {
            0 => now - sent,
            // BSD counts the slow-timer ticks while a segment is timed,
            // starting from 1 (tcp_xmit_timer in 4.4BSD).
            tick => (now / tick - sent / tick + 1) * tick,
        };
        self.sample(r);
    }

    pub fn sample(&mut self, r: Time) {
        if self.config.estimator == Estimator::Rfc793 {
            let srtt = self.srtt.map_or(r, |s| (7 * s + r) / 8);
            self.srtt = Some(srtt);
            self.base = (2 * srtt).clamp(self.config.min, self.config.max);
            self.backoffs = 0;
            return;
        }
        match self.srtt {
            None => {
                //= rfc6298#section-2.2
                //# SRTT <- R
                //# RTTVAR <- R/2
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(srtt) => {
                //= rfc6298#section-2.3
                //# RTTVAR <- (1 - beta) * RTTVAR + beta * |SRTT - R'|
                //# SRTT <- (1 - alpha) * SRTT + alpha * R'
                // alpha = 1/8, beta = 1/4
                self.rttvar = (3 * self.rttvar + srtt.abs_diff(r)) / 4;
                self.srtt = Some((7 * srtt + r) / 8);
            }
        }
        //# RTO <- SRTT + max (G, K*RTTVAR), where K = 4.
        let rto = self.srtt.unwrap() + self.config.granularity.max(4 * self.rttvar);
        //= rfc6298#section-2.4
        //# Whenever RTO is computed, if it is less than 1 second, then the
        //# RTO SHOULD be rounded up to 1 second.
        self.base = rto.clamp(self.config.min, self.config.max);
        // Karn: a valid sample from a segment not retransmitted ends the backoff.
        self.backoffs = 0;
    }

    /// The timeout to arm now, backed off after expirations.
    pub fn rto(&self) -> Time {
        //= rfc6298#section-2.5
        //# A maximum value MAY be placed on RTO provided it is at least 60 seconds.
        self.base.saturating_mul(1 << self.backoffs.min(20)).min(self.config.max)
    }

    /// When a timer armed now with the current RTO expires. With a coarse
    /// tick, BSD counts down whole ticks, so the timer fires on the tick
    /// boundary that ends the last of ceil(RTO / tick) ticks.
    pub fn expiry(&self, now: Time) -> Time {
        match self.config.tick {
            0 => now + self.rto(),
            tick => {
                let ticks = self.rto().div_ceil(tick).max(1);
                (now / tick + 1) * tick + (ticks - 1) * tick
            }
        }
    }

    pub fn back_off(&mut self) {
        //= rfc6298#section-5
        //# (5.5) The host MUST set RTO <- RTO * 2 ("back off the timer").
        self.backoffs += 1;
    }

    pub fn backoffs(&self) -> u32 {
        self.backoffs
    }

    /// RFC 6298 (5.7): after a lost SYN, data transmission starts with an RTO of 3 s.
    pub fn reset_after_lost_syn(&mut self) {
        self.backoffs = 0;
        if self.srtt.is_none() {
            self.base = self.base.max(3 * NS_PER_S);
        }
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const MS: Time = 1_000_000;

    #[test]
    fn first_sample_then_smoothing() {
        let mut e = RttEstimator::new(RtoConfig { min: 0, ..Default::default() });
        assert_eq!(e.rto(), 1000 * MS);
        e.sample(500 * MS);
        // SRTT = 500, RTTVAR = 250, RTO = 500 + 4 * 250 = 1500
        assert_eq!(e.rto(), 1500 * MS);
        e.sample(600 * MS);
        // RTTVAR = (3*250 + 100)/4 = 212.5, SRTT = (7*500 + 600)/8 = 512.5
        assert_eq!(e.srtt(), Some(512_500_000));
        assert_eq!(e.rto(), 512_500_000 + 4 * 212_500_000);
    }

    #[test]
    fn rfc793_estimator_doubles_the_smoothed_rtt() {
        let mut e = RttEstimator::new(RtoConfig { estimator: Estimator::Rfc793, min: 0, ..Default::default() });
        e.sample(600 * MS);
        assert_eq!(e.rto(), 1200 * MS, "BETA * SRTT with SRTT = R");
        e.sample(1400 * MS);
        // SRTT = 7/8 * 600 + 1/8 * 1400 = 700
        assert_eq!(e.srtt(), Some(700 * MS));
        assert_eq!(e.rto(), 1400 * MS);
    }

    #[test]
    fn coarse_tick_quantises_samples_and_expiry() {
        let tick = 500 * MS;
        let mut e = RttEstimator::new(RtoConfig { tick, granularity: tick, ..Default::default() });
        // Sent at 0.9 s, acknowledged at 1.5 s: ticks at 1.0 and 1.5 crossed, so 3 ticks.
        e.sample_between(900 * MS, 1500 * MS);
        assert_eq!(e.srtt(), Some(1500 * MS));
        // RTO = 1.5 + 4 * 0.75 = 4.5 s = 9 ticks; armed at 10.2 s it fires on the
        // tick at 10.5 s plus 8 more: 14.5 s.
        assert_eq!(e.rto(), 4500 * MS);
        assert_eq!(e.expiry(10_200 * MS), 14_500 * MS);
        // Exact timing for comparison.
        let exact = RttEstimator::new(RtoConfig::default());
        assert_eq!(exact.expiry(10_200 * MS), 11_200 * MS);
    }

    #[test]
    fn minimum_and_backoff() {
        let mut e = RttEstimator::new(RtoConfig::default());
        e.sample(10 * MS);
        assert_eq!(e.rto(), 1000 * MS, "RFC 6298 (2.4) rounds up to 1 s");
        e.back_off();
        e.back_off();
        assert_eq!(e.rto(), 4000 * MS);
        for _ in 0..10 {
            e.back_off();
        }
        assert_eq!(e.rto(), 60_000 * MS, "capped at max");
        e.sample(10 * MS);
        assert_eq!(e.rto(), 1000 * MS, "a valid sample ends the backoff");
    }
}
