//! TCP Westwood+ (Grieco & Mascolo 2004; Linux `tcp_westwood.c`): the
//! sender estimates the bandwidth it gets from the ACK stream, one sample
//! per RTT through a low-pass filter, and after a loss sets ssthresh to
//! the estimate times the smallest RTT, instead of halving. Growth is Reno's.

use super::{Ack, Controller, Loss, Window};
use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= Linux tcp_westwood.c
    //# #define TCP_WESTWOOD_RTT_MIN   (HZ/20)	/* 50ms */
    /// Bandwidth samples are taken at most once per max(RTT, 50 ms).
    pub min_sample_interval: Time,
    //= Linux tcp_westwood.c, westwood_do_filter
    //# return ((7 * a) + b) >> 3;
    /// The filter keeps 7/8 of the old estimate.
    pub filter_keep: f64,
    /// Which low-pass filter smooths the samples.
    pub filter: Filter,
    /// How acknowledged data is counted into a sample.
    pub count: Count,
}

/// What a sample counts (`westwood_count` in `[flow.cc]`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Count {
    /// Linux `westwood_acked_count`: an MSS per duplicate ACK, and a
    /// cumulative ACK less what its duplicates already counted.
    #[default]
    Linux,
    /// ns-3 3.44 `TcpSocketBase::ProcessAck`: one segment per duplicate and
    /// per partial ACK, and at the end of fast recovery the whole jump from
    /// the old SND.UNA, so SACKed segments count twice (its comment says it
    /// counts from the recovery point; the code counts from oldHeadSequence).
    Ns3,
}

/// The bandwidth filter (`westwood_filter` in `[flow.cc]`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Filter {
    /// Linux `tcp_westwood.c`: two cascaded 7/8 EWMAs, the first seeded with the first sample.
    #[default]
    Linux,
    /// ns-3 `TcpWestwoodPlus` (3.44) default: one Tustin (bilinear) stage,
    /// bwe = 0.9 bwe + 0.1 (sample + previous sample) / 2, starting from 0.
    Tustin,
}

impl Default for Config {
    fn default() -> Self {
        Config { min_sample_interval: 50_000_000, filter_keep: 7.0 / 8.0, filter: Filter::Linux, count: Count::Linux }
    }
}

impl From<&super::CcParams> for Config {
    fn from(p: &super::CcParams) -> Self {
        let filter = match p.westwood_filter.as_deref() {
            Some("tustin") => Filter::Tustin,
            _ => Filter::Linux,
        };
        let count = match p.westwood_count.as_deref() {
            Some("ns3") => Count::Ns3,
            _ => Count::Linux,
        };
        Config { filter, count, ..Config::default() }
    }
}

//= ns-3 3.44 src/internet/model/tcp-westwood-plus.cc, EstimateBW
//# constexpr double ALPHA = 0.9;
const TUSTIN_ALPHA: f64 = 0.9;

#[derive(Clone, Debug, Default)]
pub struct Westwood {
    cfg: Config,
    /// Bytes counted in the current sample window.
    bk: u64,
    window_start: Option<Time>,
    /// Bytes credited for duplicate ACKs and not yet matched by a cumulative ACK.
    accounted: u64,
    /// Filtered estimates, bytes per second (bw_ns_est, bw_est in Linux).
    bw_ns_est: f64,
    bw_est: f64,
    first_sample: bool,
    /// The previous raw sample (the Tustin filter averages two).
    last_sample: f64,
    rtt: Time,
    rtt_min: Option<Time>,
}

impl Westwood {
    pub fn new(cfg: Config) -> Westwood {
        Westwood { cfg, ..Westwood::default() }
    }

    /// The bandwidth estimate, bytes per second.
    pub fn bandwidth(&self) -> f64 {
        self.bw_est
    }

    /// Bytes this ACK delivered, as Linux's `westwood_acked_count` counts them.
    fn acked_count(&mut self, ack: &Ack, mss: u64) -> u64 {
        //= Linux tcp_westwood.c, westwood_acked_count
        //# If cumul_ack is 0 this is a dupack since it's not moving tp->snd_una.
        let mut cumul = ack.acked;
        if self.cfg.count == Count::Ns3 {
            //= ns-3 3.44 tcp-socket-base.cc, ProcessAck
            //# DupAck. Artificially call PktsAcked: after all, one segment has been ACKed.
            //# segsAcked = static_cast<uint32_t>(ackNumber - oldHeadSequence) / m_tcb->m_segmentSize;
            return if cumul == 0 || ack.in_recovery { mss } else { cumul };
        }
        if cumul == 0 {
            self.accounted += mss;
            cumul = mss;
        }
        if cumul > mss {
            //# Partial or delayed ack
            if self.accounted >= cumul {
                self.accounted -= cumul;
                cumul = mss;
            } else {
                cumul -= self.accounted;
                self.accounted = 0;
            }
        }
        cumul
    }

    fn filter(&self, old: f64, sample: f64) -> f64 {
        self.cfg.filter_keep * old + (1.0 - self.cfg.filter_keep) * sample
    }

    /// ssthresh from the estimate: bw_est * RTTmin, at least two segments.
    fn bw_rttmin(&self, w: &Window) -> u64 {
        //= Grieco & Mascolo 2004 §2 (Linux tcp_westwood_bw_rttmin)
        //# ssthresh = (BWE * RTTmin) / seg_size
        let rtt_min = self.rtt_min.unwrap_or(0) as f64 / 1e9;
        ((self.bw_est * rtt_min) as u64).max(2 * w.mss)
    }
}

impl Controller for Westwood {
    fn on_rtt(&mut self, rtt: Time, _now: Time) {
        self.rtt = rtt;
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
    }

    fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        super::reno::grow(w, ack.acked);
    }

    fn on_every_ack(&mut self, w: &mut Window, ack: &Ack) {
        if ack.acked == 0 && !ack.duplicate {
            return;
        }
        self.bk += self.acked_count(ack, w.mss);
        let start = *self.window_start.get_or_insert(ack.now);
        let delta = ack.now - start;
        //= Linux tcp_westwood.c, westwood_update_window
        //# See if a RTT-window has passed.
        //# Be careful since if RTT is less than
        //# 50ms we don't filter but we continue 'building the sample'.
        if self.rtt > 0 && delta > self.rtt.max(self.cfg.min_sample_interval) {
            let sample = self.bk as f64 * 1e9 / delta as f64;
            if self.cfg.filter == Filter::Tustin {
                self.bw_est = TUSTIN_ALPHA * self.bw_est + (1.0 - TUSTIN_ALPHA) * (sample + self.last_sample) / 2.0;
                self.bw_ns_est = self.bw_est;
                self.last_sample = sample;
                self.first_sample = true;
            } else if !self.first_sample {
                self.bw_ns_est = sample;
                self.bw_est = sample;
                self.first_sample = true;
            } else {
                self.bw_ns_est = self.filter(self.bw_ns_est, sample);
                self.bw_est = self.filter(self.bw_est, self.bw_ns_est);
            }
            self.bk = 0;
            self.window_start = Some(ack.now);
        }
    }

    fn ssthresh_after_loss(&mut self, w: &Window, _loss: &Loss) -> u64 {
        //= Mascolo et al. 2001 §2.1 (Westwood; Westwood+ keeps it)
        //# if (3 DUPACKs are received) ssthresh = (BWE*RTTmin)/seg_size; ...
        //# if (coarse timeout expires) ssthresh = (BWE*RTTmin)/seg_size; cwin = 1
        // Before the first estimate there is nothing to go on but Reno.
        if !self.first_sample {
            return (w.cwnd / 2).max(2 * w.mss);
        }
        self.bw_rttmin(w)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ack, loss};
    use super::super::Congestion;
    use super::*;
    use crate::time::NS_PER_MS;

    const MSS: u64 = 1000;

    /// One 1000-byte ACK per millisecond (1 MB/s) for `ms` milliseconds.
    fn feed(wwd: &mut Westwood, w: &mut Window, from_ms: u64, ms: u64) {
        for t in from_ms..from_ms + ms {
            wwd.on_every_ack(w, &ack(MSS, t * NS_PER_MS));
        }
    }

    #[test]
    fn estimate_follows_the_ack_rate_and_sets_ssthresh() {
        let mut wwd = Westwood::default();
        let mut w = Window { cwnd: 100 * MSS, ssthresh: u64::MAX, mss: MSS };
        wwd.on_rtt(100 * NS_PER_MS, 0);
        feed(&mut wwd, &mut w, 0, 3000);
        let bw = wwd.bandwidth();
        assert!((bw / 1e6 - 1.0).abs() < 0.02, "estimate {bw} B/s for 1 MB/s of ACKs");
        // ssthresh = BWE * RTTmin = 1 MB/s * 100 ms = 100 KB, whatever cwnd is.
        let ssthresh = wwd.ssthresh_after_loss(&w, &loss(Congestion::FastRetransmit, 300 * MSS));
        assert!((ssthresh as f64 / 100_000.0 - 1.0).abs() < 0.02, "{ssthresh}");
    }

    #[test]
    fn one_sample_per_rtt_through_the_seven_eighths_filter() {
        let mut wwd = Westwood::default();
        let mut w = Window { cwnd: 100 * MSS, ssthresh: u64::MAX, mss: MSS };
        wwd.on_rtt(100 * NS_PER_MS, 0);
        feed(&mut wwd, &mut w, 0, 102);
        // First sample: 101 ACKs over 101 ms.
        let first = wwd.bandwidth();
        assert!((first / 1e6 - 1.0).abs() < 0.02, "{first}");
        // The rate doubles (two ACKs per ms) for one RTT: the estimate moves
        // by (1/8)^2 of the step through the two filters, not all of it.
        for t in 102..204 {
            wwd.on_every_ack(&mut w, &ack(2 * MSS, t * NS_PER_MS));
        }
        let second = wwd.bandwidth();
        assert!(second > first && second < first * 1.05, "{first} -> {second}");
    }

    #[test]
    fn tustin_filter_averages_two_samples_from_zero() {
        let mut wwd = Westwood::new(Config { filter: Filter::Tustin, ..Config::default() });
        let mut w = Window { cwnd: 100 * MSS, ssthresh: u64::MAX, mss: MSS };
        wwd.on_rtt(100 * NS_PER_MS, 0);
        feed(&mut wwd, &mut w, 0, 102);
        //= ns-3 tcp-westwood-plus.cc: bwe = 0.9 bwe + 0.1 (sample + last sample) / 2
        // First sample ~1 MB/s, previous sample and estimate 0: 0.05 MB/s
        // (the Linux filter starts at the sample itself, 1 MB/s).
        let first = wwd.bandwidth();
        assert!((first / 1e6 - 0.05).abs() < 0.002, "{first}");
        feed(&mut wwd, &mut w, 102, 101);
        // 0.9 x 0.05 + 0.1 x (1 + 1) / 2 = 0.145 MB/s
        let second = wwd.bandwidth();
        assert!((second / 1e6 - 0.145).abs() < 0.005, "{second}");
    }

    #[test]
    fn duplicate_acks_count_one_segment_and_are_not_counted_twice() {
        let mut wwd = Westwood::default();
        let mut dup = ack(0, 0);
        dup.duplicate = true;
        assert_eq!(wwd.acked_count(&dup, MSS), MSS);
        assert_eq!(wwd.acked_count(&dup, MSS), MSS);
        // The cumulative ACK that covers the two duplicates' segments and one more.
        assert_eq!(wwd.acked_count(&ack(3 * MSS, 0), MSS), MSS);
    }

    #[test]
    fn ns3_counting_credits_a_recovery_twice() {
        // Four duplicate ACKs in fast recovery, then the ACK that ends it
        // covering those four segments and the retransmitted one.
        let total = |count: Count| {
            let mut wwd = Westwood::new(Config { count, ..Config::default() });
            let mut dup = ack(0, 0);
            dup.duplicate = true;
            dup.in_recovery = true;
            let dups: u64 = (0..4).map(|_| wwd.acked_count(&dup, MSS)).sum();
            dups + wwd.acked_count(&ack(5 * MSS, 0), MSS)
        };
        assert_eq!(total(Count::Linux), 5 * MSS, "Linux: each segment once");
        assert_eq!(total(Count::Ns3), 9 * MSS, "ns-3: the four SACKed segments again at the exit");
    }
}
