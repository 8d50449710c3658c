//! The two channel models of Leung (1998), "Modeling and analysis of TCP in
//! satellite and mobile data networks interworking with the Internet"
//! (shared/seeds/002, notes in shared/seed-notes/002.md §1.2-1.3).
//!
//! - Satellite: a clear-sky / rain-fade chain stepped per packet, which is a
//!   per-packet Gilbert-Elliott channel with Leung's constants.
//! - Mobile: handoff plus good/bad fading, in continuous time.

use rand::Rng;

use super::gilbert;
use super::timeline::{self, StateRng, TwoState};

// ------------------------------------------------------------- satellite

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatelliteConfig {
    pub ber_clear: f64,
    pub ber_rain: f64,
    /// P(clear -> rain) after each packet.
    pub b: f64,
    /// P(rain -> clear) after each packet.
    pub g: f64,
}

impl Default for SatelliteConfig {
    fn default() -> SatelliteConfig {
        SatelliteConfig {
            //= shared/seeds/002 §3.1
            //# the nominal BER should be in the order of 10^{-8} or lower for
            //# clear sky operation.
            ber_clear: 1e-8,
            //= shared/seeds/002 §4.4 (Figs 4.5, 4.6)
            //# under different STPs with a BER of 5×10^{-6} in the rain fade state
            ber_rain: 5e-6,
            //= shared/seeds/002 §4.6
            //# b is assumed to be 0.01, and g is assumed to be 0.05.
            b: 0.01,
            g: 0.05,
        }
    }
}

impl SatelliteConfig {
    /// The same chain as a Gilbert-Elliott channel: clear = good, rain = bad.
    pub fn gilbert(&self) -> gilbert::Config {
        gilbert::Config {
            ber_good: self.ber_clear,
            ber_bad: self.ber_rain,
            transitions: gilbert::Transitions::PerPacket { good_to_bad: self.b, bad_to_good: self.g },
        }
    }
}

// ---------------------------------------------------------------- mobile

const NORMAL: usize = 0;
const HANDOFF: usize = 1;
const GOOD: usize = 0;
const BAD: usize = 1;

/// Mean sojourns (ns) and the bit error rates of the normal state's two
/// fading states. A handoff loses every packet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MobileConfig {
    pub ber_good: f64,
    pub ber_bad: f64,
    /// 1/c: mean time between fades.
    pub mean_good_ns: f64,
    /// 1/d: mean fade duration.
    pub mean_bad_ns: f64,
    /// 1/a: mean time between handoffs.
    pub mean_normal_ns: f64,
    /// 1/b: mean handoff duration.
    pub mean_handoff_ns: f64,
}

impl Default for MobileConfig {
    /// Leung's reference vehicle: 75 km/h, 2 km cells, 100 m handoff regions,
    /// with the fading of an 850 MHz CDPD carrier at a -10 dB threshold and
    /// a bad state of BER 1e-6. The thesis gives no good-state BER (1e-8 is
    /// our choice) nor the fading constants (derived below from Lee's formulas).
    fn default() -> MobileConfig {
        let v = 75.0 / 3.6;
        let (mean_good_s, mean_bad_s) = fading_means(v, 850e6, -10.0);
        let (mean_normal_s, mean_handoff_s) = handoff_means(v, 2000.0, 100.0);
        MobileConfig {
            ber_good: 1e-8,
            //= shared/seeds/002 §5.6.3
            //# The BER in the bad state within the normal state is fixed at
            //# 1×10^{-6} (a typical BER in wireless channels).
            ber_bad: 1e-6,
            mean_good_ns: mean_good_s * 1e9,
            mean_bad_ns: mean_bad_s * 1e9,
            mean_normal_ns: mean_normal_s * 1e9,
            mean_handoff_ns: mean_handoff_s * 1e9,
        }
    }
}

/// Mean time between handoffs (1/a) and mean handoff (1/b), seconds, for a
/// mobile at `speed` m/s crossing cells of radius `cell_radius` m with
/// handoff regions of `region` m.
///
/// Leung's eqs. (7) and (8) print ln(0.5) in the denominator, which makes
/// both negative; the magnitude reproduces the thesis's own numbers
/// (1/a = 140 s at R = 2 km, 1/b = 3.5 s at d = 100 m, 75 km/h;
/// seed-notes/002.md §1.3 and §6.2 C.27).
//= shared/seeds/002 §3.2.1, eqs. (7)-(8)
//# 1/a ≅ R / (ln(0.5) v),  1/b ≅ 0.5 d / (ln(0.5) v)
pub fn handoff_means(speed: f64, cell_radius: f64, region: f64) -> (f64, f64) {
    let ln2 = std::f64::consts::LN_2;
    (cell_radius / (ln2 * speed), 0.5 * region / (ln2 * speed))
}

/// Mean good period (1/c) and mean fade (1/d), seconds, for Rayleigh fading
/// at `speed` m/s on a carrier of `carrier_hz`, a fade being the envelope
/// below `threshold_db` relative to its rms value.
///
/// Leung's eqs. (9)-(11) after Lee [36]: 1/d = sqrt(2 pi)/(beta v) t_R,
/// rate = beta v / sqrt(2 pi) n_R, 1/c = 1/rate - 1/d, beta = 2 pi / lambda.
/// The normalised t_R and n_R are not in the thesis; for Rayleigh fading
/// at threshold rho they are (e^{rho^2} - 1)/rho and rho e^{-rho^2}
/// (Jakes 1974; seed-notes/002.md §1.3 [X]).
pub fn fading_means(speed: f64, carrier_hz: f64, threshold_db: f64) -> (f64, f64) {
    let lambda = 299_792_458.0 / carrier_hz;
    let beta_v = 2.0 * std::f64::consts::PI / lambda * speed;
    let sqrt_2pi = (2.0 * std::f64::consts::PI).sqrt();
    let rho = 10f64.powf(threshold_db / 20.0);
    let t_r = (rho * rho).exp_m1() / rho;
    let n_r = rho * (-rho * rho).exp();
    let fade = sqrt_2pi / beta_v * t_r;
    let crossings = beta_v / sqrt_2pi * n_r;
    (1.0 / crossings - fade, fade)
}

/// Leung's three-state mobile channel. Normal/handoff and good/bad are two
/// independent exponential on-off processes (the thesis: "The normal and
/// handoff periods are independent and exponentially distributed"); fading
/// goes on during a handoff, which is invisible because a handoff loses
/// everything. A packet is lost if any part of its air time falls in a
/// handoff; otherwise its bits meet the BER of the fading state they are
/// sent in (the thesis leaves this mapping open, seed-notes/002.md §6.2 A.7).
#[derive(Clone, Debug)]
pub struct Mobile {
    config: MobileConfig,
    rate_bps: u64,
    handoff: TwoState,
    fading: TwoState,
    ln_keep: [f64; 2],
}

impl Mobile {
    pub fn new(config: MobileConfig, rate_bps: u64, mut rng: StateRng) -> Mobile {
        // Each process its own stream, so neither's path depends on when the other is asked.
        let fading_rng = timeline::child_stream(&mut rng);
        Mobile {
            config,
            rate_bps,
            handoff: TwoState::new([config.mean_normal_ns, config.mean_handoff_ns], rng),
            fading: TwoState::new([config.mean_good_ns, config.mean_bad_ns], fading_rng),
            ln_keep: [f64::ln_1p(-config.ber_good), f64::ln_1p(-config.ber_bad)],
        }
    }

    pub fn corrupts<R: Rng>(&mut self, start_ns: u64, end_ns: u64, bits: u64, rng: &mut R) -> bool {
        let end_ns = end_ns.max(start_ns + 1);
        //= shared/seeds/002 §3.2.1
        //# In the handoff state, the end-to-end communications is totally
        //# stopped [...] All packets in this state are lost.
        let in_handoff = self.handoff.occupancy(start_ns, end_ns)[HANDOFF] > 0;
        let spent = self.fading.occupancy(start_ns, end_ns);
        if in_handoff {
            return true;
        }
        timeline::bits_lost(spent, self.ln_keep, bits, rng)
    }

    /// 1 - P(normal at the start) e^{-aT} pi_f exp((Q_f - Lambda) T) 1: no
    /// handoff begins during the air time T (memoryless), and the bits
    /// survive the fading chain, independent of the handoffs.
    pub fn long_run_loss_rate(&self, bits: u64) -> f64 {
        let c = &self.config;
        let per_ns = self.rate_bps as f64 / 1e9;
        let t = bits as f64 / per_ns;
        let normal = timeline::stationary([c.mean_normal_ns, c.mean_handoff_ns])[NORMAL];
        let no_handoff = normal * (-t / c.mean_normal_ns).exp();
        let pi = timeline::stationary([c.mean_good_ns, c.mean_bad_ns]);
        let kill = [-self.ln_keep[GOOD] * per_ns, -self.ln_keep[BAD] * per_ns];
        1.0 - no_handoff * timeline::survival(pi, [1.0 / c.mean_good_ns, 1.0 / c.mean_bad_ns], kill, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::gilbert::tests::markov_loss_variance;
    use crate::channel::uniform::BitErrors;
    use crate::channel::Channel;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn satellite_rate_is_leungs_equation_one() {
        // seed-notes/002.md §1.2 worked example: MSS 512 + 42 B headers,
        // BER_R 5e-6, b = 0.01, g = 0.05 -> P_RD = 0.0219, P_D = 0.0037.
        let bits = (512 + 42) * 8;
        let ch = gilbert::GilbertElliott::new(SatelliteConfig::default().gilbert(), 1_544_000, ChaCha8Rng::seed_from_u64(0));
        let p = ch.long_run_loss_rate(bits);
        assert!((p - 0.0037).abs() < 0.00005, "P_D {p}");
        // MSS 1458, BER_R 1e-4 -> P_D = 0.117.
        let cfg = SatelliteConfig { ber_rain: 1e-4, ..SatelliteConfig::default() };
        let ch = gilbert::GilbertElliott::new(cfg.gilbert(), 1_544_000, ChaCha8Rng::seed_from_u64(0));
        let p = ch.long_run_loss_rate((1458 + 42) * 8);
        assert!((p - 0.117).abs() < 0.0005, "P_D {p}");
    }

    #[test]
    fn satellite_simulated_rate_within_markov_standard_error() {
        let cfg = SatelliteConfig { ber_rain: 5e-5, ..SatelliteConfig::default() };
        let mut ch = gilbert::GilbertElliott::new(cfg.gilbert(), 1_544_000, ChaCha8Rng::seed_from_u64(21));
        let mut rng = ChaCha8Rng::seed_from_u64(22);
        let (n, bits) = (1_000_000u64, 4432);
        let lost = (0..n).filter(|&k| ch.corrupts(k, k + 1, bits, &mut rng)).count();
        let expected = ch.long_run_loss_rate(bits);
        let p = |ber: f64| BitErrors::new(ber).loss_probability(bits);
        let se = (markov_loss_variance(p(1e-8), p(5e-5), 0.01, 0.05) / n as f64).sqrt();
        let observed = lost as f64 / n as f64;
        eprintln!("simulated {observed:.5} analytic {expected:.5} se {se:.5} ({n} packets)");
        assert!((observed - expected).abs() < 4.0 * se, "observed {observed:.5}, expected {expected:.5}, se {se:.5}");
    }

    #[test]
    fn thesis_handoff_numbers() {
        // 75 km/h, R = 2 km, d = 100 m: "1/a = 140 sec", "1/b = 3.5 sec".
        let (a, b) = handoff_means(75.0 / 3.6, 2000.0, 100.0);
        assert!((a - 138.5).abs() < 0.1, "1/a {a}");
        assert!((b - 3.46).abs() < 0.01, "1/b {b}");
        // 65 km/h, d = 50 m: "1/b = 2 sec" (Fig 5.16).
        let (_, b) = handoff_means(65.0 / 3.6, 2000.0, 50.0);
        assert!((b - 2.0).abs() < 0.01, "1/b {b}");
    }

    #[test]
    fn fading_means_at_850_mhz() {
        // seed-notes/002.md §1.3 [D]: 75 km/h, -10 dB: about 42 fades/s,
        // 1/d = 2.3 ms, 1/c = 21 ms; at 45 km/h 1/d = 3.8 ms, 1/c = 36 ms.
        let (good, fade) = fading_means(75.0 / 3.6, 850e6, -10.0);
        assert!((fade * 1e3 - 2.25).abs() < 0.05, "1/d {fade}");
        assert!((good * 1e3 - 21.4).abs() < 0.3, "1/c {good}");
        assert!((1.0 / (good + fade) - 42.3).abs() < 0.5);
        let (good, fade) = fading_means(45.0 / 3.6, 850e6, -10.0);
        assert!((fade * 1e3 - 3.75).abs() < 0.05, "1/d {fade}");
        assert!((good * 1e3 - 35.6).abs() < 0.5, "1/c {good}");
    }

    #[test]
    fn handoff_loses_every_packet_it_touches() {
        // Handoffs half the time, no bit errors at all: a packet is lost exactly
        // when its air time meets a handoff, which the same process replayed says.
        let cfg = MobileConfig {
            ber_good: 0.0,
            ber_bad: 0.0,
            mean_good_ns: 1e6,
            mean_bad_ns: 1e6,
            mean_normal_ns: 50e6,
            mean_handoff_ns: 50e6,
        };
        let mut ch = Mobile::new(cfg, 1_000_000, ChaCha8Rng::seed_from_u64(4));
        // The channel's handoff process: its stream, after the fading one was split off.
        let mut stream = ChaCha8Rng::seed_from_u64(4);
        let _fading = timeline::child_stream(&mut stream);
        let mut replay = TwoState::new([50e6, 50e6], stream);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut lost, n) = (0, 20_000u64);
        for k in 0..n {
            let (s, e) = (k * 12_000_000, (k + 1) * 12_000_000);
            let hit = replay.occupancy(s, e)[HANDOFF] > 0;
            let l = ch.corrupts(s, e, 12_000, &mut rng);
            assert_eq!(l, hit, "packet {k}");
            lost += l as u64;
        }
        assert!(lost > n / 4 && lost < 3 * n / 4, "{lost}");
    }

    #[test]
    fn cdpd_mobile_matches_its_analytic_rate() {
        // 512-byte segments on 19.2 kb/s take 230 ms: dozens of fades each.
        // Handoffs shortened (1/a = 20 s, 1/b = 1 s) so a test-length run
        // sees hundreds of them.
        let cfg = MobileConfig { ber_bad: 5e-5, mean_normal_ns: 20e9, mean_handoff_ns: 1e9, ..MobileConfig::default() };
        let ch = Mobile::new(cfg, 19_200, ChaCha8Rng::seed_from_u64(8));
        crate::channel::tests::check_timed_rate(Channel::LeungMobile(Box::new(ch)), 552 * 8, 19_200);
    }

    #[test]
    fn slow_fading_mobile_matches_its_analytic_rate() {
        // Fades as long as packets, so the straddling cases matter.
        let cfg = MobileConfig {
            ber_good: 1e-6,
            ber_bad: 2e-4,
            mean_good_ns: 1e9,
            mean_bad_ns: 0.25e9,
            mean_normal_ns: 30e9,
            mean_handoff_ns: 2e9,
        };
        let ch = Mobile::new(cfg, 19_200, ChaCha8Rng::seed_from_u64(9));
        crate::channel::tests::check_timed_rate(Channel::LeungMobile(Box::new(ch)), 552 * 8, 19_200);
    }
}
