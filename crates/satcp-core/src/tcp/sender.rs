//! The TCP sender: sequence space, send window (min of cwnd and the peer's
//! window), the retransmission timer, and the options it puts on the wire.
//! Loss recovery decisions come from `recovery` (or, with SACK, from
//! `sack_recovery` and the scoreboard), window sizes from `cc`.

mod cc_hooks;
mod prr;
mod rack_tlp;
mod sack_recovery;

use super::cc::{Ack, Cc, CcKind, CcParams, Congestion, Window};
use super::recovery::{OnDupAck, OnNewAck, PartialAckTimer, Recovery, RecoveryKind};
use super::rto::{RtoConfig, RttEstimator};
use super::scoreboard::Scoreboard;
use super::sent_log::SentLog;
use super::timer::Timer;
use crate::packet::{FlowId, Kind, NodeId, Packet, SackBlocks, IP_HEADER, SACK_PERMITTED_OPTION, TCP_HEADER, TIMESTAMP_OPTION};
use sack_recovery::SackRecovery;
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct SenderConfig {
    pub flow: FlowId,
    /// The receiver's node.
    pub dst: NodeId,
    pub mss: u32,
    pub initial_cwnd: u32,
    pub initial_ssthresh: u64,
    pub recovery: RecoveryKind,
    pub cc: CcKind,
    /// The flow's `[flow.cc]` parameters.
    pub cc_params: CcParams,
    /// The run's seed, for the controller's own random stream (CETEN-R).
    pub seed: u64,
    pub timestamps: bool,
    pub window_scaling: bool,
    /// RFC 2018 SACK negotiated (the recovery kind decides how it is used).
    pub sack: bool,
    pub handshake: bool,
    /// RFC 3042: a new segment on each of the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// RFC 3465 byte counting: window growth per segment acknowledged, not per ACK.
    pub byte_counting: bool,
    /// RFC 8985 RACK-TLP beside RFC 6675's duplicate-ACK rule (SACK senders only).
    pub rack: bool,
    pub partial_ack_timer: PartialAckTimer,
    /// Bytes to transfer; 0 = unlimited.
    pub bytes: u64,
    pub rto: RtoConfig,
    /// The peer's window before any ACK says otherwise (no handshake).
    pub assumed_peer_window: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub bytes_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// CETEN-R: losses classified as corruption and resent without a window cut.
    pub corruption_retransmits: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Closed,
    SynSent,
    Established,
    /// Every byte of a finite transfer is acknowledged.
    Done,
}

#[derive(Clone, Debug)]
pub struct Sender {
    cfg: SenderConfig,
    pub phase: Phase,
    pub window: Window,
    cc: Cc,
    pub recovery: Recovery,
    pub rtt: RttEstimator,
    /// Oldest unacknowledged byte.
    pub snd_una: u64,
    /// Next byte to send (rewound on go-back-N).
    pub snd_nxt: u64,
    /// One past the highest byte ever sent.
    pub snd_max: u64,
    /// Latest window the receiver advertised.
    pub peer_window: u64,
    /// The segment being timed for an RTT sample (end, send time), without timestamps.
    timed: Option<(u64, Time)>,
    syn_sent_at: Time,
    syn_retransmitted: bool,
    /// TSval of the latest ACK, echoed as TSecr.
    ts_recent: Time,
    /// Bytes sent by limited transmit since the last new ACK.
    limited_transmit_bytes: u64,
    /// What the receiver holds above `snd_una`, when SACK is on.
    pub scoreboard: Option<Scoreboard>,
    pub sack: SackRecovery,
    pub rto_timer: Timer,
    /// RACK-TLP's state and its reordering/probe timer, when the flow runs it.
    pub(super) rack_tlp: Option<rack_tlp::RackTlp>,
    pub loss_timer: Timer,
    /// Per-segment send records, for Vegas and BBR only.
    sent_log: Option<SentLog>,
    /// Pacing (BBR): the next segment may leave at `next_send_at`.
    pub pace_timer: Timer,
    next_send_at: Time,
    paced: bool,
    pub stats: SenderStats,
    /// One past the last byte the upstream has handed over (a PEP relaying
    /// another connection's data); `u64::MAX` for an application that always has data.
    supply: u64,
    /// Header bytes saved per segment by SCPS-TP header compression.
    header_saving: u32,
}

impl Sender {
    pub fn new(cfg: SenderConfig) -> Sender {
        let mss = cfg.mss as u64;
        Sender {
            phase: Phase::Closed,
            //= rfc5681#section-3.1
            //# The initial value of ssthresh SHOULD be set arbitrarily high
            window: Window { cwnd: cfg.initial_cwnd as u64 * mss, ssthresh: cfg.initial_ssthresh, mss },
            cc: Cc::new(
                cfg.cc,
                &cfg.cc_params,
                mss,
                crate::rng::stream(cfg.seed, crate::rng::Component::CcDecisions { flow: cfg.flow }),
            ),
            recovery: Recovery::new(cfg.recovery),
            rtt: RttEstimator::new(cfg.rto),
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            peer_window: cfg.assumed_peer_window,
            timed: None,
            syn_sent_at: 0,
            syn_retransmitted: false,
            ts_recent: 0,
            limited_transmit_bytes: 0,
            scoreboard: sack_recovery::scoreboard_for(&cfg),
            sack: SackRecovery::default(),
            rto_timer: Timer::default(),
            rack_tlp: (cfg.rack && cfg.sack).then(rack_tlp::RackTlp::default),
            loss_timer: Timer::default(),
            sent_log: cfg.cc.needs_send_log().then(SentLog::default),
            pace_timer: Timer::default(),
            next_send_at: 0,
            paced: cfg.cc == CcKind::Bbr,
            stats: SenderStats::default(),
            supply: u64::MAX,
            header_saving: 0,
            cfg,
        }
    }

    /// One past the last byte the application offers.
    fn data_end(&self) -> u64 {
        self.app_end().min(self.supply)
    }

    /// One past the last byte of the whole transfer: the connection is done there.
    pub(super) fn app_end(&self) -> u64 {
        if self.cfg.bytes == 0 { u64::MAX } else { self.cfg.bytes }
    }

    /// A relay (PEP) has `upto` bytes for this connection now: send what the window allows.
    pub fn offer(&mut self, upto: u64, now: Time, out: &mut Vec<Packet>) {
        if upto <= self.supply && self.supply != u64::MAX {
            return;
        }
        self.supply = upto;
        if self.scoreboard.is_some() {
            self.sack_output(now, out);
        } else {
            self.output(now, out);
        }
    }

    /// Starts with nothing to send: a relay hands data over with `offer`.
    pub fn relay_fed(&mut self) {
        self.supply = 0;
    }

    /// SCPS-TP header compression: `saving` fewer header bytes on every data segment.
    pub fn compress_headers(&mut self, saving: u32) {
        self.header_saving = saving;
    }

    /// SCPS-TP's rate-based congestion control: pace at `rate_bps`, hold `window`.
    pub fn use_rate_control(&mut self, rate_bps: u64, window: u64) {
        self.cc = Cc::Rate(crate::tcp::cc::rate::Rate { rate: rate_bps as f64 / 8.0, window });
        self.window.cwnd = window;
        self.paced = true;
    }

    /// SCPS-TP's corruption response on a Vegas sender: loss does not shrink the window.
    pub fn assume_corruption(&mut self) {
        if let Some(v) = self.cc.vegas() {
            v.assume_corruption();
        }
    }

    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    fn header_bytes(&self) -> u32 {
        (IP_HEADER + TCP_HEADER + if self.cfg.timestamps { TIMESTAMP_OPTION } else { 0 } + self.ceten_option_bytes())
            .saturating_sub(self.header_saving)
    }

    /// SYN options: MSS (4), window scale (3 + NOP), timestamps (10 + 2 NOPs).
    fn syn_size(&self) -> u32 {
        IP_HEADER
            + TCP_HEADER
            + 4
            + if self.cfg.window_scaling { 4 } else { 0 }
            + if self.cfg.timestamps { TIMESTAMP_OPTION } else { 0 }
            + if self.cfg.sack { SACK_PERMITTED_OPTION } else { 0 }
    }

    fn packet(&self, kind: Kind, seq: u64, len: u32, size: u32, now: Time) -> Packet {
        Packet {
            flow: self.cfg.flow,
            kind,
            dst: self.cfg.dst,
            seq,
            len,
            ack: 0,
            wnd: 0,
            size,
            ts: self.cfg.timestamps.then_some((now, self.ts_recent)),
            sack: SackBlocks::default(),
            ceten: self.ceten_option(kind),
        }
    }

    /// The application opens the connection.
    pub fn start(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.cfg.handshake {
            self.phase = Phase::SynSent;
            self.send_syn(now, out);
        } else {
            self.phase = Phase::Established;
            self.output(now, out);
        }
    }

    fn send_syn(&mut self, now: Time, out: &mut Vec<Packet>) {
        self.syn_sent_at = now;
        out.push(self.packet(Kind::Syn, 0, 0, self.syn_size(), now));
        self.rto_timer.arm(self.rtt.expiry(now));
    }

    fn on_syn_ack(&mut self, now: Time, ack: &Packet, out: &mut Vec<Packet>) {
        self.rto_timer.disarm();
        self.peer_window = ack.wnd;
        if self.syn_retransmitted {
            //= rfc6298#section-5
            //# (5.7) If the timer expires awaiting the ACK of a SYN segment and the
            //# TCP implementation is using an RTO less than 3 seconds, the RTO MUST
            //# be re-initialized to 3 seconds when data transmission begins
            self.rtt.reset_after_lost_syn();
            //= rfc5681#section-3.1
            //# if the SYN or SYN/ACK is lost, the initial window used by a
            //# sender after a correctly transmitted SYN MUST be one segment
            self.window.cwnd = self.window.mss;
        } else {
            self.rtt.sample_between(self.syn_sent_at, now);
        }
        self.phase = Phase::Established;
        self.output(now, out);
    }

    /// Sends what the window allows: new data, or old data after go-back-N.
    pub fn output(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.phase != Phase::Established {
            return;
        }
        let window = self.window.cwnd.min(self.receive_window());
        let end = self.data_end();
        let mut resent = 0;
        while self.snd_nxt < end {
            let len = (end - self.snd_nxt).min(self.window.mss);
            if self.snd_nxt + len > self.snd_una + window {
                //= rfc1122#section-4.2.2.17
                //# A TCP MAY keep its offered receive window closed indefinitely. ... the
                //# sending TCP MUST regularly transmit at least one octet of new data
                // A relay's (PEP's) window update can be lost: probe a closed window.
                if self.snd_una == self.snd_max && !self.rto_timer.is_armed() {
                    self.rto_timer.arm(self.rtt.expiry(now));
                }
                break;
            }
            if self.must_wait_to_pace(now) {
                break;
            }
            if self.snd_nxt < self.snd_max {
                if self.retransmit_limit_reached(resent) {
                    break;
                }
                resent += 1;
            }
            self.send_segment(self.snd_nxt, len as u32, now, out);
            self.snd_nxt += len;
            self.snd_max = self.snd_max.max(self.snd_nxt);
        }
    }

    fn send_segment(&mut self, seq: u64, len: u32, now: Time, out: &mut Vec<Packet>) {
        let is_retransmission = seq < self.snd_max;
        if is_retransmission {
            self.stats.retransmits += 1;
            // Karn: an ACK covering a retransmitted segment is ambiguous.
            self.timed = None;
        } else if self.timed.is_none() && !self.cfg.timestamps {
            self.timed = Some((seq + len as u64, now));
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len as u64;
        let size = self.header_bytes() + len;
        self.log_send(seq, len, size, now, is_retransmission);
        self.rack_on_send(seq, len, now, is_retransmission);
        out.push(self.packet(Kind::Data, seq, len, size, now));
        //= rfc6298#section-5
        //# (5.1) Every time a packet containing data is sent (including a
        //# retransmission), if the timer is not running, start it running
        if !self.rto_timer.is_armed() {
            self.rto_timer.arm(self.rtt.expiry(now));
        }
    }

    fn retransmit_first_unacked(&mut self, now: Time, out: &mut Vec<Packet>) {
        let len = (self.data_end() - self.snd_una).min(self.window.mss) as u32;
        self.send_segment(self.snd_una, len, now, out);
    }

    /// An ACK (or SYN-ACK) from the receiver.
    pub fn on_ack(&mut self, now: Time, ack: &Packet, out: &mut Vec<Packet>) {
        if let Some((tsval, _)) = ack.ts {
            self.ts_recent = tsval;
        }
        match (self.phase, ack.kind) {
            (Phase::SynSent, Kind::SynAck) => return self.on_syn_ack(now, ack, out),
            (Phase::Established, Kind::Ack) => {}
            _ => return,
        }
        self.peer_window = ack.wnd;
        if let (Some(option), Some(ceten)) = (ack.ceten, self.cc.ceten()) {
            ceten.feedback(&option);
        }
        if self.scoreboard.is_some() {
            return self.on_ack_with_sack(now, ack, out);
        }
        let una_before = self.snd_una;
        let duplicate = ack.ack == self.snd_una && self.snd_max > self.snd_una;
        let mut rate = None;
        if ack.ack > self.snd_una {
            rate = self.on_new_ack(now, ack, out);
        } else if duplicate {
            self.on_dupack(now, out);
        }
        let info = self.ack_info(now, ack.ack.saturating_sub(una_before), duplicate, rate);
        self.cc.on_every_ack(&mut self.window, &info);
        self.output(now, out);
    }

    /// Window growth for an ACK outside recovery. RFC 5681 grows per ACK, so
    /// delayed ACKs halve congestion avoidance; with `byte_counting` the
    /// controller sees one call per segment acknowledged, at most L = 2
    /// (RFC 3465 §2.2), which is how Linux's Reno grows (`tcp_cong_avoid_ai`
    /// counts packets acked).
    fn grow_window(&mut self, info: &Ack) {
        if !self.cfg.byte_counting {
            return self.cc.on_ack(&mut self.window, info);
        }
        //= rfc3465#section-2.2
        //# the TCP sender SHOULD increase cwnd by no more than L*SMSS bytes
        //# ... L=2*SMSS bytes
        let mss = self.window.mss;
        let segments = info.acked.div_ceil(mss).clamp(1, 2);
        for k in 0..segments {
            let share = Ack { acked: (info.acked - k * mss).min(mss), ..*info };
            self.cc.on_ack(&mut self.window, &share);
        }
    }

    /// A new cumulative ACK; returns the delivery-rate sample, when kept.
    fn on_new_ack(&mut self, now: Time, ack: &Packet, out: &mut Vec<Packet>) -> Option<super::cc::RateSample> {
        let acked = ack.ack - self.snd_una;
        let estimator_sample = self.take_rtt_sample(now, ack);
        let (rtt, rate) = self.log_ack(now, ack.ack, None, estimator_sample);
        if let Some(r) = rtt {
            self.cc.on_rtt(r, now);
        }
        self.snd_una = ack.ack;
        self.snd_nxt = self.snd_nxt.max(self.snd_una);
        self.limited_transmit_bytes = 0;
        let mut restart_timer = true;
        match self.recovery.on_new_ack(ack.ack) {
            OnNewAck::Grow => {
                let info = self.ack_info(now, acked, false, rate);
                self.grow_window(&info);
            }
            OnNewAck::Exit => self.exit_fast_recovery(acked),
            OnNewAck::Partial => {
                self.partial_ack(now, acked, out);
                //= rfc6582#section-3.2
                //# For the first partial ACK that arrives during fast recovery, also
                //# reset the retransmit timer.
                restart_timer = self.cfg.partial_ack_timer == PartialAckTimer::SlowButSteady
                    || self.recovery.partial_acks == 1;
            }
        }
        if self.snd_una >= self.app_end() {
            self.phase = Phase::Done;
        }
        //= rfc6298#section-5
        //# (5.2) When all outstanding data has been acknowledged, turn off the
        //# retransmission timer.
        //# (5.3) When an ACK is received that acknowledges new data, restart the
        //# retransmission timer so that it will expire after RTO seconds
        if self.snd_una == self.snd_max {
            self.rto_timer.disarm();
        } else if restart_timer {
            self.rto_timer.arm(self.rtt.expiry(now));
        }
        self.vegas_check_after_retransmission(now, out);
        rate
    }

    /// Feeds the RTO estimator; returns the sample taken, if any.
    fn take_rtt_sample(&mut self, now: Time, ack: &Packet) -> Option<Time> {
        match ack.ts {
            //= rfc7323#section-4.1
            //# an RTT measurement can be made from every ACK that acknowledges new data
            Some((_, ecr)) => {
                self.rtt.sample_between(ecr, now);
                Some(now - ecr)
            }
            _ => {
                let (end, sent) = self.timed?;
                if ack.ack < end {
                    return None;
                }
                self.rtt.sample_between(sent, now);
                self.timed = None;
                Some(now - sent)
            }
        }
    }

    fn exit_fast_recovery(&mut self, acked: u64) {
        if self.cfg.recovery == RecoveryKind::NewReno {
            if let Some(cwnd) = self.cc.cwnd_after_recovery(&self.window, acked) {
                self.window.cwnd = cwnd.max(self.window.mss);
                return;
            }
        }
        let w = &mut self.window;
        match self.cfg.recovery {
            RecoveryKind::NewReno => {
                //= rfc6582#section-3.2
                //# Set cwnd to either (1) min (ssthresh, max(FlightSize, SMSS) + SMSS)
                //# or (2) ssthresh
                // Option (1): it avoids a burst when few segments are in flight.
                let flight = self.snd_max - self.snd_una;
                w.cwnd = w.ssthresh.min(flight.max(w.mss) + w.mss);
            }
            //= rfc5681#section-3.2
            //# When the next ACK arrives that acknowledges previously
            //# unacknowledged data, a TCP MUST set cwnd to ssthresh
            _ => w.cwnd = w.ssthresh,
        }
    }

    fn partial_ack(&mut self, now: Time, acked: u64, out: &mut Vec<Packet>) {
        //= rfc6582#section-3.2
        //# If this ACK does *not* acknowledge all of the data up to and
        //# including recover, then this is a partial ACK.  In this case,
        //# retransmit the first unacknowledged segment.  Deflate the congestion
        //# window by the amount of new data acknowledged by the Cumulative
        //# Acknowledgment field.  If the partial ACK acknowledges at least one
        //# SMSS of new data, then add back SMSS bytes to the congestion window.
        self.retransmit_first_unacked(now, out);
        let add_back = self.cc.adalr().map_or(self.window.mss, |a| a.partial_ack_add_back(self.window.mss));
        let w = &mut self.window;
        w.cwnd = w.cwnd.saturating_sub(acked);
        if acked >= w.mss {
            w.cwnd += add_back;
        }
        w.cwnd = w.cwnd.max(w.mss);
    }

    fn on_dupack(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.ceten_resend_on_dupack(now, out) {
            return;
        }
        match self.recovery.on_dupack(self.snd_una) {
            OnDupAck::FastRetransmit if self.ceten_corruption_at_threshold() => {
                //= Carroll 2004 §III (000.md §1.1)
                //# retransmits just the first unacknowledged packet and then continues
                //# transmitting data normally, bypassing the normal congestion control mechanisms
                self.stats.corruption_retransmits += 1;
                self.retransmit_first_unacked(now, out);
            }
            OnDupAck::Nothing if self.vegas_fine_expired(now) => self.fast_retransmit(now, out),
            OnDupAck::Nothing => {
                if self.cfg.limited_transmit && self.recovery.dupacks <= 2 {
                    self.limited_transmit(now, self.recovery.dupacks, out);
                }
            }
            OnDupAck::Inflate => {
                //= rfc5681#section-3.2
                //# For each additional duplicate ACK received (after the third),
                //# cwnd MUST be incremented by SMSS.
                self.window.cwnd += self.window.mss;
            }
            OnDupAck::FastRetransmit => self.fast_retransmit(now, out),
        }
    }

    fn limited_transmit(&mut self, now: Time, dupacks: u32, out: &mut Vec<Packet>) {
        //= rfc3042#section-2
        //# the sender can transmit new segments upon the first and second
        //# duplicate ACKs ... provided that the receiver's advertised window
        //# allows, the total FlightSize would remain less than or equal to cwnd
        //# plus 2*SMSS, and that new data is available for transmission.
        let end = self.data_end();
        if self.snd_nxt != self.snd_max || self.snd_max >= end {
            return;
        }
        let len = (end - self.snd_max).min(self.window.mss);
        let allowed = (self.window.cwnd + dupacks as u64 * self.window.mss).min(self.receive_window());
        if self.snd_max + len <= self.snd_una + allowed {
            self.send_segment(self.snd_max, len as u32, now, out);
            self.snd_max += len;
            self.snd_nxt = self.snd_max;
            self.limited_transmit_bytes += len;
        }
    }

    fn fast_retransmit(&mut self, now: Time, out: &mut Vec<Packet>) {
        self.stats.fast_retransmits += 1;
        //= rfc5681#section-3.2
        //# When [RFC3042] is in use, additional data sent in limited transmit
        //# MUST NOT be included in this calculation.
        let flight = self.flight_size() - self.limited_transmit_bytes;
        let loss = self.loss(Congestion::FastRetransmit, now, flight);
        self.window.ssthresh = self.cc.ssthresh_after_loss(&self.window, &loss);
        self.recovery.entered(self.snd_max);
        if self.cfg.recovery == RecoveryKind::Tahoe {
            // Tahoe: slow start from one segment, resending everything after the loss.
            self.window.cwnd = self.window.mss;
            self.snd_nxt = self.snd_una;
            self.timed = None;
            return;
        }
        //= rfc5681#section-3.2
        //# 3.  The lost segment starting at SND.UNA MUST be retransmitted and
        //#     cwnd set to ssthresh plus 3*SMSS.
        self.retransmit_first_unacked(now, out);
        // Three duplicates, or fewer when Vegas's fine-grained check fired first.
        self.window.cwnd = self.window.ssthresh + self.recovery.dupacks.min(3) as u64 * self.window.mss;
    }

    /// The retransmission timer's event.
    pub fn on_rto(&mut self, now: Time, generation: u32, out: &mut Vec<Packet>) {
        if !self.rto_timer.fire(now, generation) {
            return;
        }
        if self.phase == Phase::SynSent {
            self.syn_retransmitted = true;
            self.rtt.back_off();
            self.stats.timeouts += 1;
            self.send_syn(now, out);
            return;
        }
        if self.phase != Phase::Established {
            return;
        }
        if self.snd_una == self.snd_max && self.snd_nxt < self.data_end() {
            // The persist timer: one segment past the closed window (RFC 1122 §4.2.2.17).
            let len = (self.data_end() - self.snd_nxt).min(self.window.mss);
            self.send_segment(self.snd_nxt, len as u32, now, out);
            self.snd_nxt += len;
            self.snd_max = self.snd_nxt;
            self.rtt.back_off();
            return;
        }
        self.stats.timeouts += 1;
        //= rfc5681#section-3.1
        //# when a TCP sender detects segment loss using the retransmission timer
        //# and the given segment has already been retransmitted by way of the
        //# retransmission timer at least once, the value of ssthresh is held
        //# constant.
        if self.rtt.backoffs() == 0 {
            let loss = self.loss(Congestion::Timeout, now, self.flight_size());
            self.window.ssthresh = self.cc.ssthresh_after_loss(&self.window, &loss);
        }
        //# Furthermore, upon a timeout (as specified in [RFC2988]) cwnd MUST be
        //# set to no more than the loss window, LW, which equals 1 full-sized segment
        self.window.cwnd = self.window.mss;
        self.recovery.on_timeout(self.snd_max);
        self.timed = None;
        //= rfc6298#section-5
        //# (5.5) The host MUST set RTO <- RTO * 2 ("back off the timer").
        //# (5.6) Start the retransmission timer
        self.rtt.back_off();
        self.rto_timer.arm(self.rtt.expiry(now) + self.rto_extra());
        self.rack_on_timeout();
        if self.sack_timeout() {
            return self.sack_output(now, out);
        }
        // Go-back-N from the first unacknowledged byte, as BSD does.
        self.snd_nxt = self.snd_una;
        self.output(now, out);
    }
}
