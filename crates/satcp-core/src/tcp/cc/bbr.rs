//! BBR v1 (Cardwell et al., ACM Queue 2016; draft-cardwell-iccrg-bbr-
//! congestion-control-00; Linux `tcp_bbr.c`): a model of the path's
//! bottleneck bandwidth (windowed max of delivery-rate samples over ten
//! rounds) and round-trip propagation time (min RTT over ten seconds)
//! sets a pacing rate and a window; Startup, Drain, ProbeBW and ProbeRTT
//! move between probing for more bandwidth and draining the queue.

use super::{Ack, Controller, Loss, Window};
use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.1.1
    //# BBRHighGain = 2/ln(2) ... ~2.89
    pub high_gain: f64,
    //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.3
    //# pacing_gain values ... [5/4, 3/4, 1, 1, 1, 1, 1, 1]
    pub cycle: [f64; 8],
    //# BBR uses a cwnd_gain of 2 in ProbeBW
    pub cwnd_gain: f64,
    //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.1.1.1
    //# BtlBwFilterLen: ... 10 packet-timed round trips
    pub bw_window_rounds: u64,
    //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.1.2.1
    //# RTpropFilterLen: ... 10 seconds
    pub rtprop_window: Time,
    //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.4
    //# ProbeRTTDuration ... 200 ms ... BBRMinPipeCwnd ... 4 packets
    pub probe_rtt_duration: Time,
    pub min_pipe_cwnd_segments: u64,
    //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.2
    //# filled the pipe ... BtlBw has not grown by at least 25% for three rounds
    pub full_bw_growth: f64,
    pub full_bw_rounds: u32,
    //= Linux tcp_bbr.c
    //# static int bbr_pacing_margin_percent = 1;
    pub pacing_margin: f64,
    /// Linux starts ProbeBW at a random phase other than 3/4; runs are
    /// deterministic, so we start at the first phase at gain 1.
    pub first_cycle_index: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            high_gain: 2.0 / std::f64::consts::LN_2,
            cycle: [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            cwnd_gain: 2.0,
            bw_window_rounds: 10,
            rtprop_window: 10_000_000_000,
            probe_rtt_duration: 200_000_000,
            min_pipe_cwnd_segments: 4,
            full_bw_growth: 1.25,
            full_bw_rounds: 3,
            pacing_margin: 0.01,
            first_cycle_index: 2,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

#[derive(Clone, Debug)]
pub struct Bbr {
    cfg: Config,
    mss: u64,
    pub state: State,
    /// Per-round maxima of the delivery rate (bytes/s), the last `bw_window_rounds` rounds.
    bw_rounds: [(u64, f64); 10],
    round: u64,
    next_round_delivered: u64,
    round_start: bool,
    rt_prop: Option<Time>,
    rt_prop_stamp: Time,
    /// The last RTT sample found RTprop older than its window.
    rtprop_expired: bool,
    full_bw: f64,
    full_bw_count: u32,
    filled_pipe: bool,
    cycle_index: usize,
    cycle_stamp: Time,
    probe_rtt_done: Option<Time>,
    probe_rtt_round_done: bool,
    prior_cwnd: u64,
    in_recovery: bool,
    conservation_until_round: u64,
    pacing: Option<f64>,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// The window the connection started with (the draft's InitialCwnd).
    initial_cwnd: Option<u64>,
}

impl Bbr {
    pub fn new(mss: u64) -> Bbr {
        let cfg = Config::default();
        Bbr {
            cfg,
            mss,
            state: State::Startup,
            bw_rounds: [(0, 0.0); 10],
            round: 0,
            next_round_delivered: 0,
            round_start: false,
            rt_prop: None,
            rt_prop_stamp: 0,
            rtprop_expired: false,
            full_bw: 0.0,
            full_bw_count: 0,
            filled_pipe: false,
            cycle_index: 0,
            cycle_stamp: 0,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            prior_cwnd: 0,
            in_recovery: false,
            conservation_until_round: 0,
            pacing: None,
            pacing_gain: cfg.high_gain,
            cwnd_gain: cfg.high_gain,
            initial_cwnd: None,
        }
    }

    /// BtlBw: the max delivery rate over the last ten rounds, bytes/s.
    pub fn btl_bw(&self) -> f64 {
        let horizon = self.round.saturating_sub(self.cfg.bw_window_rounds);
        self.bw_rounds.iter().filter(|(r, _)| *r > horizon || self.round < self.cfg.bw_window_rounds).map(|&(_, b)| b).fold(0.0, f64::max)
    }

    pub fn rt_prop(&self) -> Option<Time> {
        self.rt_prop
    }

    /// The bandwidth-delay product times `gain`, bytes.
    fn inflight(&self, gain: f64) -> Option<u64> {
        let rt = self.rt_prop?;
        let bw = self.btl_bw();
        (bw > 0.0).then(|| (gain * bw * rt as f64 / 1e9) as u64)
    }

    fn update_bw(&mut self, ack: &Ack) {
        let Some(rs) = ack.rate else { return };
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.1.1.3
        //# if (packet.delivered >= BBR.next_round_delivered) { ... round_count++; round_start = true }
        self.round_start = false;
        if rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = ack.total_delivered;
            self.round += 1;
            self.round_start = true;
        }
        // draft-cheng-iccrg-delivery-rate-estimation: an interval shorter
        // than min_rtt is ACK compression, not the path's rate.
        if self.rt_prop.is_some_and(|m| rs.interval < m) {
            return;
        }
        let rate = rs.rate();
        let slot = (self.round % self.cfg.bw_window_rounds) as usize;
        if self.bw_rounds[slot].0 != self.round {
            self.bw_rounds[slot] = (self.round, rate);
        } else if rate > self.bw_rounds[slot].1 {
            self.bw_rounds[slot].1 = rate;
        }
    }

    fn check_full_pipe(&mut self) {
        if self.filled_pipe || !self.round_start {
            return;
        }
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.2.2
        //# if (BBR.BtlBw >= BBR.full_bw * 1.25) { full_bw = BtlBw; full_bw_count = 0; return }
        //# full_bw_count++; if (full_bw_count >= 3) filled_pipe = true
        let bw = self.btl_bw();
        if bw >= self.full_bw * self.cfg.full_bw_growth {
            self.full_bw = bw;
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.filled_pipe = self.full_bw_count >= self.cfg.full_bw_rounds;
    }

    fn enter_probe_bw(&mut self, now: Time) {
        self.state = State::ProbeBw;
        self.pacing_gain = self.cfg.cycle[self.cfg.first_cycle_index];
        self.cwnd_gain = self.cfg.cwnd_gain;
        self.cycle_index = self.cfg.first_cycle_index;
        self.cycle_stamp = now;
    }

    fn update_state(&mut self, ack: &Ack, w: &mut Window) {
        let now = ack.now;
        self.check_full_pipe();
        match self.state {
            State::Startup if self.filled_pipe => {
                self.state = State::Drain;
                self.pacing_gain = 1.0 / self.cfg.high_gain;
                self.cwnd_gain = self.cfg.high_gain;
            }
            //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.2.3
            //# if (BBR.state == Drain and packets_in_flight <= BBRInflight(1.0)) BBREnterProbeBW()
            State::Drain if self.inflight(1.0).is_some_and(|bdp| ack.in_flight <= bdp) => self.enter_probe_bw(now),
            State::ProbeBw => self.advance_cycle(ack),
            _ => {}
        }
        self.check_probe_rtt(ack, w);
    }

    fn advance_cycle(&mut self, ack: &Ack) {
        let Some(rt) = self.rt_prop else { return };
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.3.2
        //# is_full_length = (Now() - BBR.cycle_stamp) > BBR.RTprop
        //# if (BBR.pacing_gain > 1) return is_full_length and (packets_lost > 0 or prior_inflight >= BBRInflight(BBR.pacing_gain))
        //# if (BBR.pacing_gain < 1) return is_full_length or prior_inflight <= BBRInflight(1)
        let full_length = ack.now - self.cycle_stamp > rt;
        let bdp = |g| self.inflight(g).unwrap_or(u64::MAX);
        let next = if self.pacing_gain > 1.0 {
            full_length && (ack.in_recovery || ack.in_flight + ack.delivered >= bdp(self.pacing_gain))
        } else if self.pacing_gain < 1.0 {
            full_length || ack.in_flight <= bdp(1.0)
        } else {
            full_length
        };
        if next {
            self.cycle_index = (self.cycle_index + 1) % self.cfg.cycle.len();
            self.cycle_stamp = ack.now;
            self.pacing_gain = self.cfg.cycle[self.cycle_index];
        }
    }

    fn check_probe_rtt(&mut self, ack: &Ack, w: &mut Window) {
        let now = ack.now;
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.4.4
        //# if (BBR.state != ProbeRTT and BBR.rtprop_expired and not BBR.idle_restart) BBREnterProbeRTT()
        let expired = self.rtprop_expired || (self.rt_prop.is_some() && now > self.rt_prop_stamp + self.cfg.rtprop_window);
        self.rtprop_expired = false;
        if self.state != State::ProbeRtt && expired {
            //# BBREnterProbeRTT() BBRSaveCwnd()
            self.save_cwnd(w);
            self.state = State::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.probe_rtt_done = None;
        }
        if self.state != State::ProbeRtt {
            return;
        }
        let min_pipe = self.cfg.min_pipe_cwnd_segments * self.mss;
        match self.probe_rtt_done {
            None if ack.in_flight <= min_pipe => {
                self.probe_rtt_done = Some(now + self.cfg.probe_rtt_duration);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = ack.total_delivered;
            }
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    //# BBR.rtprop_stamp = Now(); ... BBRExitProbeRTT()
                    self.rt_prop_stamp = now;
                    //# BBRRestoreCwnd()
                    // Linux bbr_check_probe_rtt_done: cwnd = max(cwnd, prior_cwnd).
                    w.cwnd = w.cwnd.max(self.prior_cwnd);
                    if self.filled_pipe {
                        self.enter_probe_bw(now);
                    } else {
                        self.state = State::Startup;
                        self.pacing_gain = self.cfg.high_gain;
                        self.cwnd_gain = self.cfg.high_gain;
                    }
                }
            }
            None => {}
        }
    }

    /// Linux bbr_save_cwnd: the window to come back to after recovery or
    /// ProbeRTT; while either is under way, the larger of the two seen.
    fn save_cwnd(&mut self, w: &Window) {
        self.prior_cwnd = if self.in_recovery || self.state == State::ProbeRtt { self.prior_cwnd.max(w.cwnd) } else { w.cwnd };
    }

    fn set_pacing(&mut self, ack: &Ack, w: &Window) {
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.2.1
        //# rate = pacing_gain * BBR.BtlBw; if (BBR.filled_pipe or rate > pacing_rate) pacing_rate = rate
        let bw = self.btl_bw();
        let rate = if bw > 0.0 {
            self.pacing_gain * bw
        } else {
            // BBRInitPacingRate: high_gain * InitialCwnd / SRTT (1 ms without one).
            let rtt = ack.srtt.unwrap_or(1_000_000).max(1) as f64 / 1e9;
            self.cfg.high_gain * w.cwnd as f64 / rtt
        } * (1.0 - self.cfg.pacing_margin);
        if self.filled_pipe || self.pacing.is_none_or(|p| rate > p) {
            self.pacing = Some(rate);
        }
    }

    fn set_cwnd(&mut self, w: &mut Window, ack: &Ack) {
        let min_pipe = self.cfg.min_pipe_cwnd_segments * self.mss;
        //= Linux tcp_bbr.c, bbr_set_cwnd_to_recover_or_restore
        //# An ACK for P pkts should release at most 2*P packets. We do this
        //# in two steps. First, here we deduct the number of lost packets.
        if ack.newly_lost > 0 {
            w.cwnd = w.cwnd.saturating_sub(ack.newly_lost).max(self.mss);
        }
        // Loss recovery: packet conservation for one round, then the model (draft §4.2.3.4).
        if ack.in_recovery && !self.in_recovery {
            self.in_recovery = true;
            self.prior_cwnd = self.prior_cwnd.max(w.cwnd);
            w.cwnd = (ack.in_flight + ack.delivered).max(self.mss);
            self.conservation_until_round = self.round + 1;
        } else if !ack.in_recovery && self.in_recovery {
            //# BBRRestoreCwnd(): cwnd = max(cwnd, BBR.prior_cwnd)
            self.in_recovery = false;
            w.cwnd = w.cwnd.max(self.prior_cwnd);
        }
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.2.3.2
        //# BBR.target_cwnd = BBRInflight(BBR.cwnd_gain) ... + 3 * SMSS (quantization budget)
        let target = self.inflight(self.cwnd_gain).map(|t| t + 3 * self.mss);
        let initial = *self.initial_cwnd.get_or_insert(w.cwnd);
        let conserving = self.in_recovery && self.round < self.conservation_until_round;
        if conserving {
            w.cwnd = w.cwnd.max(ack.in_flight + ack.delivered);
        } else {
            match target {
                //# if (BBR.filled_pipe) cwnd = min(cwnd + packets_delivered, target_cwnd)
                Some(t) if self.filled_pipe => w.cwnd = (w.cwnd + ack.delivered).min(t),
                //# else if (cwnd < target_cwnd or delivered < InitialCwnd) cwnd += packets_delivered
                Some(t) if w.cwnd < t || ack.total_delivered < initial => w.cwnd += ack.delivered,
                None => w.cwnd += ack.delivered,
                _ => {}
            }
        }
        w.cwnd = w.cwnd.max(min_pipe);
        if self.state == State::ProbeRtt {
            //# cwnd = min(cwnd, BBRMinPipeCwnd)
            w.cwnd = w.cwnd.min(min_pipe);
        }
    }
}

impl Controller for Bbr {
    fn on_rtt(&mut self, rtt: Time, now: Time) {
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.1.2.3
        //# if (rtt <= BBR.RTprop or rtprop_expired) { BBR.RTprop = rtt; BBR.rtprop_stamp = Now() }
        let expired = self.rt_prop.is_some() && now > self.rt_prop_stamp + self.cfg.rtprop_window;
        self.rtprop_expired |= expired;
        if self.rt_prop.is_none_or(|m| rtt <= m) || (expired && self.state != State::ProbeRtt) {
            self.rt_prop = Some(rtt);
            self.rt_prop_stamp = now;
        } else if expired && self.state == State::ProbeRtt {
            self.rt_prop = Some(self.rt_prop.map_or(rtt, |m| m.min(rtt)));
        }
    }

    /// BBR sets its window on every ACK (`on_every_ack`), not here.
    fn on_ack(&mut self, _w: &mut Window, _ack: &Ack) {}

    fn on_every_ack(&mut self, w: &mut Window, ack: &Ack) {
        self.update_bw(ack);
        self.update_state(ack, w);
        self.set_pacing(ack, w);
        self.set_cwnd(w, ack);
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        //= Linux tcp_bbr.c, bbr_ssthresh
        //# bbr_save_cwnd(sk); return tcp_sk(sk)->snd_ssthresh;
        self.save_cwnd(w);
        // The recovery sets cwnd to this on entry: packet conservation, the data in flight.
        loss.flight.max(self.cfg.min_pipe_cwnd_segments * w.mss)
    }

    fn pacing_rate(&self) -> Option<f64> {
        self.pacing
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::ack;
    use super::super::RateSample;
    use super::*;
    use crate::time::{NS_PER_MS, NS_PER_S};

    const MSS: u64 = 1000;

    /// Drives BBR with a path of `rate` bytes/s and `rtt`: one ACK per
    /// segment, the window's worth in flight, until `until`.
    struct Path {
        bbr: Bbr,
        w: Window,
        now: Time,
        delivered: u64,
    }

    impl Path {
        fn new() -> Path {
            Path { bbr: Bbr::new(MSS), w: Window { cwnd: 10 * MSS, ssthresh: u64::MAX, mss: MSS }, now: 0, delivered: 0 }
        }

        /// One ACK: the segment was sent one `rtt` ago when `delivered - in_flight` had been delivered.
        fn ack(&mut self, rate: f64, rtt: Time, flight: u64) {
            let gap = (MSS as f64 / rate * 1e9) as Time;
            self.now += gap;
            self.delivered += MSS;
            let bdp = (rate * rtt as f64 / 1e9) as u64;
            let prior = self.delivered.saturating_sub(bdp.min(flight) + MSS);
            self.bbr.on_rtt(rtt, self.now);
            let mut a = ack(MSS, self.now);
            a.flight = flight;
            a.in_flight = flight;
            a.total_delivered = self.delivered;
            a.rate = Some(RateSample { delivered: self.delivered - prior, interval: ((self.delivered - prior) as f64 / rate * 1e9) as Time, prior_delivered: prior });
            self.bbr.on_every_ack(&mut self.w, &a);
        }
    }

    #[test]
    fn startup_paces_at_high_gain_then_drains_and_probes() {
        let mut p = Path::new();
        let (rate, rtt) = (1e6, 100 * NS_PER_MS);
        // Flight grows with cwnd until the link limits delivery.
        for _ in 0..2000 {
            let flight = p.w.cwnd.min(400 * MSS);
            p.ack(rate, rtt, flight);
            if p.bbr.state != State::Startup {
                break;
            }
            let pacing = p.bbr.pacing_rate().unwrap();
            assert!(pacing >= 0.99 * 2.0 / std::f64::consts::LN_2 * p.bbr.btl_bw() * 0.999, "Startup pacing gain 2/ln 2");
        }
        assert_eq!(p.bbr.state, State::Drain, "three rounds without 25% growth fill the pipe");
        assert!((p.bbr.btl_bw() / rate - 1.0).abs() < 0.05, "BtlBw {}", p.bbr.btl_bw());
        // Drain ends once the flight is down to one BDP (100 KB).
        p.ack(rate, rtt, 90 * MSS);
        assert_eq!(p.bbr.state, State::ProbeBw);
        // ProbeBW: cwnd = 2 BDP + 3 MSS, paced at the cycle's gains.
        for _ in 0..1000 {
            p.ack(rate, rtt, 100 * MSS);
        }
        assert_eq!(p.w.cwnd, 203 * MSS);
        let mut gains = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            // Probing at 5/4 puts a quarter BDP more in flight.
            let flight = if p.bbr.pacing_gain > 1.0 { 126 * MSS } else { 100 * MSS };
            p.ack(rate, rtt, flight);
            gains.insert((p.bbr.pacing_rate().unwrap() / p.bbr.btl_bw() / 0.99 * 100.0).round() as u64);
        }
        assert_eq!(gains.into_iter().collect::<Vec<_>>(), vec![75, 100, 125]);
    }

    #[test]
    fn probe_rtt_after_ten_seconds_without_a_new_minimum() {
        let mut p = Path::new();
        p.bbr.on_rtt(100 * NS_PER_MS, 0);
        let mut entered = None;
        while p.now < 12 * NS_PER_S {
            // Queueing keeps every later sample above the first minimum.
            p.ack(1e6, 120 * NS_PER_MS, p.w.cwnd.min(100 * MSS));
            if p.bbr.state == State::ProbeRtt && entered.is_none() {
                entered = Some(p.now);
            }
        }
        let at = entered.expect("entered ProbeRTT");
        assert!(at > 10 * NS_PER_S && at < 10 * NS_PER_S + 10 * NS_PER_MS, "at {at}");
    }

    #[test]
    fn probe_rtt_holds_four_segments() {
        let mut p = Path::new();
        p.bbr.on_rtt(100 * NS_PER_MS, 0);
        p.now = 11 * NS_PER_S;
        p.ack(1e6, 120 * NS_PER_MS, 50 * MSS);
        assert_eq!(p.bbr.state, State::ProbeRtt);
        assert_eq!(p.w.cwnd, 4 * MSS);
    }

    #[test]
    fn probe_rtt_gives_the_window_back_when_it_ends() {
        //= draft-cardwell-iccrg-bbr-congestion-control-00#section-4.3.4.4
        //# BBREnterProbeRTT() ... BBRSaveCwnd() ... BBRRestoreCwnd() BBRExitProbeRTT()
        let mut p = Path::new();
        p.bbr.on_rtt(100 * NS_PER_MS, 0);
        // A full pipe at 1 Mb/s: the window settles at 2 BDP (+ 3 segments).
        while p.now < 9 * NS_PER_S {
            p.ack(1e6, 120 * NS_PER_MS, p.w.cwnd.min(100 * MSS));
        }
        let before = p.w.cwnd;
        assert!(before > 20 * MSS, "{before}");
        while p.bbr.state != State::ProbeRtt {
            p.ack(1e6, 120 * NS_PER_MS, p.w.cwnd.min(100 * MSS));
        }
        assert_eq!(p.w.cwnd, 4 * MSS);
        while p.bbr.state == State::ProbeRtt {
            p.ack(1e6, 120 * NS_PER_MS, 3 * MSS);
        }
        // Linux bbr_check_probe_rtt_done: not regrown from four segments over many RTTs.
        assert!(p.w.cwnd >= before, "{} < {before}", p.w.cwnd);
    }

    #[test]
    fn probe_rtt_ends_when_the_pipe_drains_though_holes_stay_open() {
        // With SACK, SND.MAX - SND.UNA spans SACKed and lost data; BBR's
        // inflight is the pipe (Linux tcp_packets_in_flight), or ProbeRTT
        // could not end while a hole stays open.
        let mut p = Path::new();
        p.bbr.on_rtt(100 * NS_PER_MS, 0);
        p.now = 11 * NS_PER_S;
        p.ack(1e6, 120 * NS_PER_MS, 50 * MSS);
        assert_eq!(p.bbr.state, State::ProbeRtt);
        for _ in 0..400 {
            p.now += NS_PER_MS;
            p.delivered += MSS;
            let mut a = ack(MSS, p.now);
            a.flight = 500 * MSS;
            a.in_flight = 3 * MSS;
            a.total_delivered = p.delivered;
            a.rate = Some(RateSample { delivered: MSS, interval: 120 * NS_PER_MS, prior_delivered: p.delivered - MSS });
            p.bbr.on_every_ack(&mut p.w, &a);
        }
        assert_ne!(p.bbr.state, State::ProbeRtt, "ProbeRTT lasts 200 ms and a round once the pipe is down to 4 segments");
    }

    #[test]
    fn losses_come_off_the_window_during_recovery() {
        //= Linux tcp_bbr.c, bbr_set_cwnd_to_recover_or_restore
        //# if (rs->losses > 0) cwnd = max_t(s32, cwnd - rs->losses, 1);
        let mut p = Path::new();
        let mut a = ack(MSS, 0);
        a.in_recovery = true;
        a.in_flight = 50 * MSS;
        p.bbr.on_every_ack(&mut p.w, &a);
        assert_eq!(p.w.cwnd, 51 * MSS, "recovery starts from packet conservation");
        a.in_flight = 30 * MSS;
        a.newly_lost = 10 * MSS;
        p.bbr.on_every_ack(&mut p.w, &a);
        assert_eq!(p.w.cwnd, 41 * MSS, "ten segments found lost leave the window");
    }
}
