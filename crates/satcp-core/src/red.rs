//! Random Early Detection (Floyd & Jacobson 1993) for a link's queue: drop
//! arriving packets with a probability that grows with the average queue,
//! so that flows back off before the queue overflows.

use rand::Rng;

use crate::rng::Stream;
use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedConfig {
    /// Thresholds on the average queue, in packets.
    pub min_th: f64,
    pub max_th: f64,
    /// Drop probability as the average reaches `max_th`.
    pub max_p: f64,
    /// Weight of each sample in the average (w_q).
    pub weight: f64,
}

pub struct Red {
    config: RedConfig,
    avg: f64,
    /// Packets since the last drop (-1: the average is below min_th).
    count: i64,
    /// When the queue last went empty, to age the average over idle time.
    idle_since: Option<Time>,
    rng: Stream,
}

impl Red {
    pub fn new(config: RedConfig, rng: Stream) -> Red {
        Red { config, avg: 0.0, count: -1, idle_since: Some(0), rng }
    }

    pub fn average(&self) -> f64 {
        self.avg
    }

    /// The queue just went empty.
    pub fn went_idle(&mut self, now: Time) {
        self.idle_since = Some(now);
    }

    /// A packet arrives to a queue of `queued` packets; `packet_time` is how
    /// long the link takes to send a typical packet. True: drop it.
    pub fn drop_arrival(&mut self, now: Time, queued: usize, packet_time: Time) -> bool {
        let c = self.config;
        match self.idle_since.take() {
            //= Floyd & Jacobson 1993 §4
            //# if the queue is empty: m <- f(time - q_time); avg <- (1 - w_q)^m avg
            Some(since) if queued == 0 => {
                let m = (now - since) as f64 / packet_time.max(1) as f64;
                self.avg *= (1.0 - c.weight).powf(m);
            }
            //# avg <- (1 - w_q) avg + w_q q
            _ => self.avg = (1.0 - c.weight) * self.avg + c.weight * queued as f64,
        }
        if self.avg < c.min_th {
            self.count = -1;
            return false;
        }
        if self.avg >= c.max_th {
            self.count = 0;
            return self.still_idle(now, queued, true);
        }
        //# count <- count + 1
        //# p_b <- max_p (avg - min_th) / (max_th - min_th)
        //# p_a <- p_b / (1 - count p_b)
        self.count += 1;
        let pb = c.max_p * (self.avg - c.min_th) / (c.max_th - c.min_th);
        let denominator = 1.0 - self.count as f64 * pb;
        let pa = if denominator <= 0.0 { 1.0 } else { (pb / denominator).min(1.0) };
        let drop = self.rng.random::<f64>() < pa;
        if drop {
            self.count = 0;
        }
        self.still_idle(now, queued, drop)
    }

    /// A dropped arrival leaves an empty queue empty: its idle time goes on.
    fn still_idle(&mut self, now: Time, queued: usize, drop: bool) -> bool {
        if drop && queued == 0 {
            self.idle_since = Some(now);
        }
        drop
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn red() -> Red {
        Red::new(RedConfig { min_th: 5.0, max_th: 15.0, max_p: 0.1, weight: 0.002 }, Stream::seed_from_u64(1))
    }

    #[test]
    fn no_drops_below_min_threshold_and_all_above_max() {
        let mut r = red();
        assert!((0..1000).all(|i| !r.drop_arrival(i, 4, 1)), "average stays under 5");
        let mut r = red();
        r.avg = 20.0;
        assert!(r.drop_arrival(0, 20, 1));
    }

    #[test]
    fn drops_between_thresholds_at_the_uniformised_rate() {
        // Held at avg 10: p_b = 0.05. With the pseudocode's count (reset to 0
        // on a drop, incremented before p_a), P(gap = n) = p_b / (1 - p_b)
        // for n = 1 .. 1/p_b - 1: uniform, mean 1 / (2 p_b) = 10 (§7's
        // "uniform" spacing; a geometric gap would also average 20).
        let mut r = red();
        let mut drops = 0;
        for i in 0..200_000 {
            r.avg = 10.0;
            r.idle_since = None;
            r.config.weight = 1e-12;
            drops += r.drop_arrival(i, 10, 1) as u32;
        }
        let gap = 200_000.0 / drops as f64;
        assert!((gap - 10.0).abs() < 0.25, "mean packets between drops {gap}");
    }

    #[test]
    fn an_idle_queue_keeps_ageing_through_dropped_arrivals() {
        let mut r = red();
        r.avg = 20.0;
        r.went_idle(0);
        assert!(r.drop_arrival(1, 0, 1), "still above max_th after 1 packet time");
        // 5000 packet times later the average has aged from 20 to 20 * 0.998^5000.
        r.drop_arrival(5000, 0, 1);
        assert!(r.average() < 1.0, "average {}", r.average());
    }

    #[test]
    fn idle_time_ages_the_average() {
        let mut r = red();
        r.avg = 10.0;
        r.went_idle(0);
        r.drop_arrival(1000, 0, 1);
        // 1000 packet times idle: 10 * 0.998^1000 = 1.35.
        assert!((r.average() - 10.0 * 0.998f64.powi(1000)).abs() < 1e-9);
    }
}
