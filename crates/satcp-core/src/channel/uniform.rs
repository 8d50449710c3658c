//! Independent bit errors: a packet of n bits survives with probability (1-BER)^n.

use rand::Rng;

#[derive(Clone, Debug)]
pub struct BitErrors {
    ber: f64,
    /// Most packets of a run have one of two sizes; remember the last one.
    cached: (u64, f64),
}

impl BitErrors {
    pub fn new(ber: f64) -> BitErrors {
        BitErrors { ber, cached: (0, 0.0) }
    }

    /// 1 - (1 - BER)^bits, computed without cancellation for tiny BERs.
    pub fn loss_probability(&self, bits: u64) -> f64 {
        -f64::exp_m1(bits as f64 * f64::ln_1p(-self.ber))
    }

    pub fn corrupts<R: Rng>(&mut self, bits: u64, rng: &mut R) -> bool {
        if self.cached.0 != bits {
            self.cached = (bits, self.loss_probability(bits));
        }
        rng.random::<f64>() < self.cached.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn loss_probability_of_a_full_packet() {
        let model = BitErrors::new(1e-6);
        // 1500 bytes = 12,000 bits: 1 - (1 - 1e-6)^12000 = 0.011928...
        let p = model.loss_probability(12_000);
        assert!((p - 0.011928).abs() < 1e-6, "{p}");
    }

    #[test]
    fn simulated_rate_matches_analytic() {
        let mut model = BitErrors::new(1e-5);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let n = 200_000;
        let lost = (0..n).filter(|_| model.corrupts(12_000, &mut rng)).count();
        let p = model.loss_probability(12_000);
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        let observed = lost as f64 / n as f64;
        assert!((observed - p).abs() < 4.0 * sd, "observed {observed}, expected {p}");
    }
}
