//! Retransmission timeout per RFC 6298, with Karn's backoff.

use crate::time::{Time, NS_PER_S};

#[derive(Clone, Copy, Debug)]
pub struct RtoConfig {
    pub initial: Time,
    pub min: Time,
    pub max: Time,
    /// Clock granularity G.
    pub granularity: Time,
}

impl Default for RtoConfig {
    fn default() -> Self {
        RtoConfig { initial: NS_PER_S, min: NS_PER_S, max: 60 * NS_PER_S, granularity: 1_000_000 }
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

    pub fn sample(&mut self, r: Time) {
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
