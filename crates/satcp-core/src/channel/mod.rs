//! Channel models: which packets the medium corrupts, and how long it takes
//! them to cross (`orbit`). Kept free of simulator types so the emulator can
//! share them: times are plain nanoseconds, randomness plain `rand` streams.
//!
//! A stateful channel (fades, handoffs, bursts) is one physical medium
//! shared by every flow on the link, so its state draws from its own stream
//! (rng.rs `Component::ChannelState`), which the channel owns; the bits of
//! each packet draw from the stream of the packet's flow, as uniform errors
//! always have. Timed states start at time 0 and evolve on the clock alone,
//! so their path is the same whatever the traffic does.

pub mod burst;
pub mod gilbert;
pub mod leung;
pub mod orbit;
pub mod timeline;
pub mod uniform;

pub use timeline::StateRng;
pub use uniform::BitErrors;

/// Which error model a link direction has, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChannelConfig {
    Clean,
    Uniform { ber: f64 },
    Gilbert(gilbert::Config),
    LeungSatellite(leung::SatelliteConfig),
    LeungMobile(leung::MobileConfig),
    Burst(burst::Config),
}

/// The error process of one link direction.
// The stateful models carry their random streams (hundreds of bytes each):
// boxed once at construction, so a link with a clean or uniform channel
// stays small and its hot fields share cache lines.
#[derive(Clone, Debug)]
pub enum Channel {
    Clean,
    Uniform(BitErrors),
    /// Gilbert-Elliott, and Leung's satellite chain (a per-packet one).
    Gilbert(Box<gilbert::GilbertElliott>),
    LeungMobile(Box<leung::Mobile>),
    Burst(Box<burst::Bursts>),
}

impl Channel {
    pub fn from_ber(ber: f64) -> Channel {
        if ber > 0.0 {
            Channel::Uniform(BitErrors::new(ber))
        } else {
            Channel::Clean
        }
    }

    /// The channel of a line of `rate_bps`; `state` is the stream its state draws from.
    pub fn new(config: &ChannelConfig, rate_bps: u64, state: StateRng) -> Channel {
        match *config {
            ChannelConfig::Clean => Channel::Clean,
            ChannelConfig::Uniform { ber } => Channel::from_ber(ber),
            ChannelConfig::Gilbert(c) => Channel::Gilbert(Box::new(gilbert::GilbertElliott::new(c, rate_bps, state))),
            ChannelConfig::LeungSatellite(c) => {
                Channel::Gilbert(Box::new(gilbert::GilbertElliott::new(c.gilbert(), rate_bps, state)))
            }
            ChannelConfig::LeungMobile(c) => Channel::LeungMobile(Box::new(leung::Mobile::new(c, rate_bps, state))),
            ChannelConfig::Burst(c) => Channel::Burst(Box::new(burst::Bursts::new(c, rate_bps, state))),
        }
    }

    /// Whether a packet of `bits` on the wire, sent over [start_ns, end_ns)
    /// (first bit to last), is corrupted. Packets come in time order.
    /// Per-bit draws come from `rng`, the packet's flow's stream.
    pub fn corrupts<R: rand::Rng>(&mut self, start_ns: u64, end_ns: u64, bits: u64, rng: &mut R) -> bool {
        match self {
            Channel::Clean => false,
            Channel::Uniform(model) => model.corrupts(bits, rng),
            Channel::Gilbert(model) => model.corrupts(start_ns, end_ns, bits, rng),
            Channel::LeungMobile(model) => model.corrupts(start_ns, end_ns, bits, rng),
            Channel::Burst(model) => model.corrupts(start_ns, end_ns),
        }
    }

    /// The analytic long-run share of packets of `bits` that are lost.
    pub fn long_run_loss_rate(&self, bits: u64) -> f64 {
        match self {
            Channel::Clean => 0.0,
            Channel::Uniform(model) => model.loss_probability(bits),
            Channel::Gilbert(model) => model.long_run_loss_rate(bits),
            Channel::LeungMobile(model) => model.long_run_loss_rate(bits),
            Channel::Burst(model) => model.long_run_loss_rate(bits),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Drives a timed channel with packets of `bits` on a line of `rate_bps`,
    /// back to back or after idle gaps drawn independently of the channel,
    /// and checks the lost share against the analytic rate.
    ///
    /// Losses are correlated (a fade or a burst takes several packets), so
    /// the standard error is from batch means: 50 batches, each far longer
    /// than the channel's correlation time, whose means are then close to
    /// independent (Law & Kelton, Simulation Modeling and Analysis, §9.5.3).
    /// Returns (observed, expected, standard error).
    pub fn check_timed_rate(mut channel: Channel, bits: u64, rate_bps: u64) -> (f64, f64, f64) {
        const BATCHES: usize = 50;
        const PER_BATCH: usize = 6_000;
        let air = (bits as f64 * 1e9 / rate_bps as f64).round() as u64;
        let mut traffic = ChaCha8Rng::seed_from_u64(99);
        let mut bit_rng = ChaCha8Rng::seed_from_u64(98);
        let mut t = 0u64;
        let mut batch_rates = Vec::with_capacity(BATCHES);
        for _ in 0..BATCHES {
            let mut lost = 0;
            for _ in 0..PER_BATCH {
                if traffic.random::<bool>() {
                    t += (traffic.random::<f64>() * 2.0 * air as f64) as u64;
                }
                lost += channel.corrupts(t, t + air, bits, &mut bit_rng) as u32;
                t += air;
            }
            batch_rates.push(lost as f64 / PER_BATCH as f64);
        }
        let n = BATCHES as f64;
        let observed = batch_rates.iter().sum::<f64>() / n;
        let var = batch_rates.iter().map(|r| (r - observed).powi(2)).sum::<f64>() / (n - 1.0);
        let se = (var / n).sqrt();
        let expected = channel.long_run_loss_rate(bits);
        eprintln!("simulated {observed:.5} analytic {expected:.5} se {se:.5} ({} packets)", BATCHES * PER_BATCH);
        assert!(se > 0.0, "no losses or no variation: the test says nothing");
        assert!((observed - expected).abs() < 4.0 * se, "observed {observed:.5}, expected {expected:.5}, se {se:.5}");
        (observed, expected, se)
    }
}
