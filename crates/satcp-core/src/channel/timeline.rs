//! A continuous-time two-state Markov process (exponential sojourns), walked
//! forward lazily as packets ask about spans of time, plus the closed form
//! its packet survival probability needs.
//!
//! The process owns its random stream and starts at time 0, so its path is
//! a function of that stream alone: the weather a link sees does not depend
//! on the traffic that crosses it (two TCP variants run with one seed meet
//! the same fades at the same instants).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The stream a channel's state draws from (rng.rs `Component::ChannelState`).
pub type StateRng = ChaCha8Rng;

/// An exponential time with the given mean, in whole nanoseconds (at least 1).
pub fn exponential_ns<R: Rng>(mean_ns: f64, rng: &mut R) -> u64 {
    let u: f64 = rng.random(); // [0, 1), so 1 - u is in (0, 1] and ln finite
    let t = -mean_ns * (1.0 - u).ln();
    // `as` saturates: a sojourn beyond 584 years simply never ends.
    (t.round() as u64).max(1)
}

/// A child stream for a second independent process of the same channel.
pub fn child_stream(parent: &mut StateRng) -> StateRng {
    StateRng::from_rng(parent)
}

#[derive(Clone, Debug)]
pub struct TwoState {
    /// Mean sojourn in state 0 and state 1, ns.
    mean_ns: [f64; 2],
    state: usize,
    /// When the current sojourn ends, ns.
    until: u64,
    rng: StateRng,
}

impl TwoState {
    /// Starts at time 0 in a state drawn from the stationary distribution;
    /// by memorylessness its residual sojourn is a fresh exponential.
    pub fn new(mean_ns: [f64; 2], mut rng: StateRng) -> TwoState {
        let state = usize::from(rng.random::<f64>() >= stationary(mean_ns)[0]);
        let until = exponential_ns(mean_ns[state], &mut rng);
        TwoState { mean_ns, state, until, rng }
    }

    fn flip(&mut self) {
        self.state ^= 1;
        self.until = self.until.saturating_add(exponential_ns(self.mean_ns[self.state], &mut self.rng));
    }

    /// Nanoseconds spent in each state over [start, end), advancing the
    /// process to `end`. Spans must come in time order; a span that starts
    /// before the previous one ended is counted from where the process is.
    pub fn occupancy(&mut self, start: u64, end: u64) -> [u64; 2] {
        while self.until <= start {
            self.flip();
        }
        let mut spent = [0, 0];
        let mut t = start;
        while t < end {
            let upto = self.until.min(end);
            spent[self.state] += upto - t;
            t = upto;
            if t == self.until {
                self.flip();
            }
        }
        spent
    }

    pub fn state(&self) -> usize {
        self.state
    }
}

/// Long-run share of time in each state: mean sojourn over the cycle.
pub fn stationary(mean_ns: [f64; 2]) -> [f64; 2] {
    let cycle = mean_ns[0] + mean_ns[1];
    [mean_ns[0] / cycle, mean_ns[1] / cycle]
}

/// Probability that a packet occupying the channel for `t_ns`, starting at a
/// stationary instant, survives a two-state process with exit rates
/// `leave[s]` (per ns) whose state s destroys bits at rate `kill[s]` (per ns):
/// pi . exp(M t) . 1 with M = Q - diag(kill), the Feynman-Kac form of a
/// Markov-modulated Poisson error process.
///
/// The 2x2 exponential in closed form: with s = tr(M)/2, delta = (m00-m11)/2,
/// q = sqrt(delta^2 + m01 m10), exp(Mt) = e^{st} [cosh(qt) I + sinh(qt)/q (M - sI)].
/// Written with e^{(s+q)t} and e^{(s-q)t} so nothing overflows (s + q <= 0).
pub fn survival(pi: [f64; 2], leave: [f64; 2], kill: [f64; 2], t_ns: f64) -> f64 {
    let m = [[-leave[0] - kill[0], leave[0]], [leave[1], -leave[1] - kill[1]]];
    let s = (m[0][0] + m[1][1]) / 2.0;
    let delta = (m[0][0] - m[1][1]) / 2.0;
    let q = (delta * delta + m[0][1] * m[1][0]).sqrt();
    let (up, down) = (((s + q) * t_ns).exp(), ((s - q) * t_ns).exp());
    let cosh = (up + down) / 2.0;
    let sinh_over_q = if q * t_ns > 1e-9 { (up - down) / (2.0 * q) } else { t_ns * (s * t_ns).exp() };
    let e = [
        [cosh + sinh_over_q * delta, sinh_over_q * m[0][1]],
        [sinh_over_q * m[1][0], cosh - sinh_over_q * delta],
    ];
    pi[0] * (e[0][0] + e[0][1]) + pi[1] * (e[1][0] + e[1][1])
}


/// Whether a packet of `bits` is lost when its air time was split `spent`
/// (ns) between two states whose bits survive with ln(1 - BER) = `ln_keep`:
/// each state's share of the bits meets that state's error rate.
pub fn bits_lost<R: Rng>(spent: [u64; 2], ln_keep: [f64; 2], bits: u64, rng: &mut R) -> bool {
    let air = (spent[0] + spent[1]) as f64;
    let ln_survive: f64 = (0..2)
        .filter(|&s| spent[s] > 0)
        .map(|s| ln_keep[s] * bits as f64 * spent[s] as f64 / air)
        .sum();
    rng.random::<f64>() < -f64::exp_m1(ln_survive)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(seed: u64) -> StateRng {
        StateRng::seed_from_u64(seed)
    }

    #[test]
    fn occupancy_adds_up_and_time_shares_match_the_means() {
        // Good 9 ms, bad 1 ms on average: 10% of the time bad.
        let mut p = TwoState::new([9e6, 1e6], rng(3));
        let (mut total, mut bad) = (0u64, 0u64);
        for k in 0..200_000u64 {
            let (a, b) = (k * 100_000, k * 100_000 + 70_000);
            let spent = p.occupancy(a, b);
            assert_eq!(spent[0] + spent[1], b - a);
            total += b - a;
            bad += spent[1];
        }
        let share = bad as f64 / total as f64;
        // 20 s of process, ~2000 bad periods: the share is within a few percent.
        assert!((share - 0.1).abs() < 0.01, "bad share {share}");
    }

    #[test]
    fn path_does_not_depend_on_how_it_is_queried() {
        let mut coarse = TwoState::new([5e5, 2e5], rng(9));
        let mut fine = TwoState::new([5e5, 2e5], rng(9));
        let whole = coarse.occupancy(0, 10_000_000);
        let mut pieces = [0, 0];
        for k in 0..1000 {
            let spent = fine.occupancy(k * 10_000, (k + 1) * 10_000);
            pieces[0] += spent[0];
            pieces[1] += spent[1];
        }
        assert_eq!(whole, pieces);
    }

    #[test]
    fn survival_limits() {
        // No errors anywhere: survives.
        assert!((survival([0.5, 0.5], [1e-3, 1e-3], [0.0, 0.0], 1e6) - 1.0).abs() < 1e-12);
        // No transitions: a mixture of two exponentials.
        let got = survival([0.8, 0.2], [0.0, 0.0], [1e-6, 1e-4], 1e4);
        let want = 0.8 * (-1e-2f64).exp() + 0.2 * (-1.0f64).exp();
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        // Equal kill rates: the state does not matter.
        let got = survival([0.3, 0.7], [2e-3, 5e-3], [1e-5, 1e-5], 3e4);
        assert!((got - (-0.3f64).exp()).abs() < 1e-12, "{got}");
        // Very fast switching: errors at the time-averaged rate.
        let got = survival([0.5, 0.5], [10.0, 10.0], [0.0, 2e-5], 1e5);
        assert!((got - (-1.0f64).exp()).abs() < 1e-4, "{got}");
    }
}
