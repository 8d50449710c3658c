//! Gilbert-Elliott: a good and a bad state, each with its own bit error rate,
//! bits independent within a state (Gilbert 1960, Elliott 1963).
//!
//! The chain moves either per packet (transition probabilities, as Leung's
//! satellite channel does) or in continuous time (mean sojourn times). In
//! continuous time a packet's bits see whichever state the channel is in
//! while they are sent: a packet of n bits spending a share f of its air time
//! in the bad state survives with (1-BER_good)^(n(1-f)) (1-BER_bad)^(nf).

use rand::Rng;

use super::timeline::{self, StateRng, TwoState};
use super::uniform::BitErrors;

const GOOD: usize = 0;
const BAD: usize = 1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Transitions {
    /// After each packet: good -> bad with `good_to_bad`, bad -> good with `bad_to_good`.
    PerPacket { good_to_bad: f64, bad_to_good: f64 },
    /// Exponential sojourns with these means, in nanoseconds.
    Timed { mean_good_ns: f64, mean_bad_ns: f64 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub ber_good: f64,
    pub ber_bad: f64,
    pub transitions: Transitions,
}

impl Config {
    /// Long-run share of packets (per-packet chain) or of time (timed) in each state.
    pub fn stationary(&self) -> [f64; 2] {
        match self.transitions {
            Transitions::PerPacket { good_to_bad, bad_to_good } => {
                let sum = good_to_bad + bad_to_good;
                // A chain that never moves stays where stationarity cannot tell; start good.
                if sum == 0.0 { [1.0, 0.0] } else { [bad_to_good / sum, good_to_bad / sum] }
            }
            Transitions::Timed { mean_good_ns, mean_bad_ns } => timeline::stationary([mean_good_ns, mean_bad_ns]),
        }
    }
}

#[derive(Clone, Debug)]
enum Chain {
    PerPacket { state: usize, leave: [f64; 2], rng: StateRng },
    Timed(TwoState),
}

#[derive(Clone, Debug)]
pub struct GilbertElliott {
    config: Config,
    rate_bps: u64,
    errors: [BitErrors; 2],
    /// ln(1 - BER) per state: log-survival per bit.
    ln_keep: [f64; 2],
    chain: Chain,
}

impl GilbertElliott {
    /// A channel on a line of `rate_bps` (timed chains turn air time into bits).
    pub fn new(config: Config, rate_bps: u64, mut rng: StateRng) -> GilbertElliott {
        let chain = match config.transitions {
            Transitions::PerPacket { good_to_bad, bad_to_good } => {
                let state = usize::from(rng.random::<f64>() >= config.stationary()[GOOD]);
                Chain::PerPacket { state, leave: [good_to_bad, bad_to_good], rng }
            }
            Transitions::Timed { mean_good_ns, mean_bad_ns } => Chain::Timed(TwoState::new([mean_good_ns, mean_bad_ns], rng)),
        };
        GilbertElliott {
            config,
            rate_bps,
            errors: [BitErrors::new(config.ber_good), BitErrors::new(config.ber_bad)],
            ln_keep: [f64::ln_1p(-config.ber_good), f64::ln_1p(-config.ber_bad)],
            chain,
        }
    }

    /// Whether a packet of `bits` sent over [start_ns, end_ns) is corrupted.
    /// The chain draws from its own stream; the packet's bits from `rng`.
    pub fn corrupts<R: Rng>(&mut self, start_ns: u64, end_ns: u64, bits: u64, rng: &mut R) -> bool {
        match &mut self.chain {
            Chain::PerPacket { state, leave, rng: chain_rng } => {
                let lost = self.errors[*state].corrupts(bits, rng);
                //= shared/seeds/002 (Leung 1998) §3.1.1
                //# State transition is assumed to happen only after the
                //# transmission of each packet over the satellite.
                if chain_rng.random::<f64>() < leave[*state] {
                    *state ^= 1;
                }
                lost
            }
            Chain::Timed(process) => {
                let spent = process.occupancy(start_ns, end_ns.max(start_ns + 1));
                timeline::bits_lost(spent, self.ln_keep, bits, rng)
            }
        }
    }

    /// The long-run share of packets of `bits` that are lost.
    ///
    /// Per packet this is Leung's eq. (1): P = g/(b+g) P_good + b/(b+g) P_bad.
    /// Timed, it is 1 - pi exp((Q - Lambda) T) 1 over the packet's air time
    /// T = bits / rate, for packets sent at instants that do not depend on
    /// the channel's state (see `timeline::survival`).
    pub fn long_run_loss_rate(&self, bits: u64) -> f64 {
        let pi = self.config.stationary();
        match self.config.transitions {
            Transitions::PerPacket { .. } => {
                //= shared/seeds/002 (Leung 1998) §3.1.1, eq. (1)
                //# P_D = (g/(b+g)) P_CD + (b/(b+g)) P_RD
                pi[GOOD] * self.errors[GOOD].loss_probability(bits) + pi[BAD] * self.errors[BAD].loss_probability(bits)
            }
            Transitions::Timed { mean_good_ns, mean_bad_ns } => {
                let per_ns = self.rate_bps as f64 / 1e9;
                let kill = [-self.ln_keep[GOOD] * per_ns, -self.ln_keep[BAD] * per_ns];
                let t = bits as f64 / per_ns;
                1.0 - timeline::survival(pi, [1.0 / mean_good_ns, 1.0 / mean_bad_ns], kill, t)
            }
        }
    }

    /// 0 good, 1 bad (for tests and traces).
    pub fn state(&self) -> usize {
        match &self.chain {
            Chain::PerPacket { state, .. } => *state,
            Chain::Timed(process) => process.state(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    pub fn per_packet(ber_good: f64, ber_bad: f64, good_to_bad: f64, bad_to_good: f64) -> Config {
        Config { ber_good, ber_bad, transitions: Transitions::PerPacket { good_to_bad, bad_to_good } }
    }

    /// Asymptotic variance per packet of the loss indicator of a per-packet
    /// two-state chain: Var(X) + 2 sum_k Cov(X_0, X_k), where the covariance
    /// at lag k is pi_g pi_b (p_g - p_b)^2 lambda^k, lambda = 1 - b - g the
    /// chain's second eigenvalue (losses are independent given the states).
    pub fn markov_loss_variance(p_good: f64, p_bad: f64, b: f64, g: f64) -> f64 {
        let (pi_g, pi_b) = (g / (b + g), b / (b + g));
        let mean = pi_g * p_good + pi_b * p_bad;
        let lambda = 1.0 - b - g;
        mean * (1.0 - mean) + 2.0 * pi_g * pi_b * (p_good - p_bad).powi(2) * lambda / (1.0 - lambda)
    }

    #[test]
    fn per_packet_chain_moves_after_each_packet() {
        // A bad state that loses every packet and a chain that always flips:
        // losses strictly alternate.
        let mut ch = GilbertElliott::new(per_packet(0.0, 0.999, 1.0, 1.0), 1_000_000, ChaCha8Rng::seed_from_u64(1));
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let first = ch.state();
        let pattern: Vec<bool> = (0..8).map(|k| ch.corrupts(k * 10, k * 10 + 10, 12_000, &mut rng)).collect();
        for (k, lost) in pattern.iter().enumerate() {
            assert_eq!(*lost, (first + k) % 2 == 1, "{pattern:?}");
        }
    }

    #[test]
    fn per_packet_long_run_rate_within_markov_standard_error() {
        let config = per_packet(1e-8, 1e-4, 0.01, 0.05);
        let mut ch = GilbertElliott::new(config, 1_544_000, ChaCha8Rng::seed_from_u64(11));
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let (n, bits) = (1_000_000u64, 12_000);
        let lost = (0..n).filter(|&k| ch.corrupts(k * 8_000_000, (k + 1) * 8_000_000, bits, &mut rng)).count();
        let expected = ch.long_run_loss_rate(bits);
        let p = |ber: f64| BitErrors::new(ber).loss_probability(bits);
        let se = (markov_loss_variance(p(1e-8), p(1e-4), 0.01, 0.05) / n as f64).sqrt();
        let observed = lost as f64 / n as f64;
        eprintln!("simulated {observed:.5} analytic {expected:.5} se {se:.5} ({n} packets)");
        assert!((observed - expected).abs() < 4.0 * se, "observed {observed:.5}, expected {expected:.5}, se {se:.5}");
    }

    #[test]
    fn timed_chain_matches_its_analytic_rate() {
        // Fades of 20 ms every 200 ms on 1 Mb/s; 1500-byte packets take 12 ms,
        // so a packet often straddles a state change.
        let config = Config {
            ber_good: 1e-6,
            ber_bad: 1e-4,
            transitions: Transitions::Timed { mean_good_ns: 180e6, mean_bad_ns: 20e6 },
        };
        let ch = GilbertElliott::new(config, 1_000_000, ChaCha8Rng::seed_from_u64(5));
        super::super::tests::check_timed_rate(super::super::Channel::Gilbert(Box::new(ch)), 12_000, 1_000_000);
    }
}
