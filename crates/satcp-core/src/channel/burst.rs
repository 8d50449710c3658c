//! Error bursts: `burst_bits` consecutive bit errors, one burst every
//! `interval_bits` bit times of the line on average, as Hayes's hardware
//! emulator inserted them (shared/seed-notes/003.md §2.7).
//!
//! Bursts live on the line's clock, not on the packets: the emulator counted
//! the serial line's bits, idle or not, so a burst that falls while the line
//! is idle destroys nothing. Every packet whose air time overlaps a burst is
//! lost (its checksum fails); no other packet is touched.

use rand::Rng;

use super::timeline::{exponential_ns, StateRng};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    /// Bursts exactly `interval_bits` apart, from a random phase (Hayes's emulator).
    Fixed,
    /// Burst starts a Poisson process with mean spacing `interval_bits`.
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= shared/seeds/003 (Hayes 1997) §3.5
    //# We chose to insert 4000 consecutive bit errors(500 bytes).
    pub burst_bits: u64,
    //= shared/seeds/003 (Hayes 1997) §3.5
    //# For bit error rates of 1 × 10^{-7}, the hardware emulator introduced
    //# 4000 bit errors every 10,000,000 bits.
    pub interval_bits: f64,
    pub spacing: Spacing,
}

impl Default for Config {
    /// Hayes's "BER 1e-7": 4000 bits every 10^7 bits, at a fixed interval.
    fn default() -> Config {
        Config { burst_bits: 4000, interval_bits: 1e7, spacing: Spacing::Fixed }
    }
}

#[derive(Clone, Debug)]
pub struct Bursts {
    config: Config,
    /// Burst length and mean spacing on the line's clock, ns.
    length_ns: u64,
    interval_ns: f64,
    /// Start of the earliest burst that may still overlap a later packet.
    start_ns: u64,
    /// Fixed spacing: the burst's index and the phase of burst 0.
    index: u64,
    phase_ns: f64,
    rng: StateRng,
}

impl Bursts {
    pub fn new(config: Config, rate_bps: u64, mut rng: StateRng) -> Bursts {
        let ns_per_bit = 1e9 / rate_bps as f64;
        let interval_ns = config.interval_bits * ns_per_bit;
        let length_ns = ((config.burst_bits as f64 * ns_per_bit).round() as u64).max(1);
        let (phase_ns, start_ns) = match config.spacing {
            Spacing::Fixed => {
                let phase = rng.random::<f64>() * interval_ns;
                (phase, phase.round() as u64)
            }
            Spacing::Random => (0.0, exponential_ns(interval_ns, &mut rng)),
        };
        Bursts { config, length_ns, interval_ns, start_ns, index: 0, phase_ns, rng }
    }

    fn next_burst(&mut self) {
        self.start_ns = match self.config.spacing {
            Spacing::Fixed => {
                self.index += 1;
                // From the phase each time, so rounding never accumulates.
                (self.phase_ns + self.index as f64 * self.interval_ns).round() as u64
            }
            Spacing::Random => self.start_ns.saturating_add(exponential_ns(self.interval_ns, &mut self.rng)),
        };
    }

    /// Whether a packet sent over [start_ns, end_ns) meets a burst. The
    /// packet's bits need no draw: a burst's bits are all in error.
    pub fn corrupts(&mut self, start_ns: u64, end_ns: u64) -> bool {
        while self.start_ns.saturating_add(self.length_ns) <= start_ns {
            self.next_burst();
        }
        self.start_ns < end_ns.max(start_ns + 1)
    }

    /// A packet of air time T is hit when a burst starts within T + L before
    /// its end (L the burst length): (T + L)/I of the time for fixed spacing I,
    /// 1 - e^{-(T+L)/I} for Poisson starts, for packets sent at instants
    /// that do not depend on the bursts. All three are in bit times of the
    /// line, so the rate cancels.
    pub fn long_run_loss_rate(&self, bits: u64) -> f64 {
        let exposed = (bits + self.config.burst_bits) as f64 / self.config.interval_bits;
        match self.config.spacing {
            Spacing::Fixed => exposed.min(1.0),
            Spacing::Random => -f64::exp_m1(-exposed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::Channel;
    use rand::SeedableRng;

    #[test]
    fn fixed_bursts_hit_the_packets_they_overlap() {
        // 1 bit/ns: a 100-bit burst every 1000 bits.
        let cfg = Config { burst_bits: 100, interval_bits: 1000.0, spacing: Spacing::Fixed };
        let mut ch = Bursts::new(cfg, 1_000_000_000, StateRng::seed_from_u64(1));
        let phase = ch.start_ns;
        assert!(phase < 1000);
        // Packets of 50 bits back to back from the phase: bursts cover [phase + 1000k, +100).
        for k in 0..5 {
            let base = phase + 1000 * k;
            assert!(ch.corrupts(base, base + 50), "burst {k} start");
            assert!(ch.corrupts(base + 50, base + 100), "burst {k} end");
            assert!(!ch.corrupts(base + 100, base + 150), "after burst {k}");
            assert!(!ch.corrupts(base + 900, base + 950), "before burst {}", k + 1);
        }
    }

    #[test]
    fn hayes_rates() {
        // 4000-bit bursts every 1e7 bits on 512-byte segments (552 B on the
        // wire): (4416 + 4000) / 1e7 of the segments, about "one or two
        // segments out of 2400" per burst.
        let ch = Bursts::new(Config::default(), 1_544_000, StateRng::seed_from_u64(0));
        let p = ch.long_run_loss_rate(4416);
        assert!((p - 8.416e-4).abs() < 1e-9, "{p}");
        let per_burst = p * 1e7 / 4416.0;
        assert!((1.0..=2.0).contains(&per_burst), "{per_burst} segments per burst");
    }

    #[test]
    fn fixed_bursts_match_their_analytic_rate() {
        let cfg = Config { burst_bits: 4000, interval_bits: 1e5, spacing: Spacing::Fixed };
        let ch = Bursts::new(cfg, 1_544_000, StateRng::seed_from_u64(2));
        crate::channel::tests::check_timed_rate(Channel::Burst(Box::new(ch)), 4416, 1_544_000);
    }

    #[test]
    fn random_bursts_match_their_analytic_rate() {
        let cfg = Config { burst_bits: 4000, interval_bits: 2e5, spacing: Spacing::Random };
        let ch = Bursts::new(cfg, 1_544_000, StateRng::seed_from_u64(3));
        crate::channel::tests::check_timed_rate(Channel::Burst(Box::new(ch)), 12_000, 1_544_000);
    }
}
