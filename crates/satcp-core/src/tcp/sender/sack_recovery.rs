//! SACK-based loss recovery, for the sender: RFC 6675 (pipe counted from
//! the scoreboard), Fall & Floyd 1996 as ns "sack1" runs it (an explicit
//! pipe counter, the form Hayes tested), and FACK with rate halving
//! (Mathis & Mahdavi 1996). The scoreboard keeps what the receiver holds;
//! this file decides when to enter and leave recovery and what to send.

use super::prr::Prr;
use super::{Phase, Sender, SenderConfig};
use crate::tcp::cc::Congestion;
use crate::packet::Packet;
use crate::tcp::recovery::{RecoveryKind, SackStyle, DUPACK_THRESHOLD};
use crate::tcp::scoreboard::{LossRule, Scoreboard};
use crate::time::Time;

#[derive(Clone, Debug, Default)]
pub struct SackRecovery {
    pub in_recovery: bool,
    /// RFC 6675 RecoveryPoint (RFC 6582 `recover`): recovery ends when the
    /// cumulative ACK reaches it, and no new one starts before.
    pub recovery_point: u64,
    /// Duplicate ACKs in the RFC 6675 sense: ACKs with new SACK information.
    pub dupacks: u32,
    /// NextSeg searches for retransmissions from this segment (HighRxt + 1).
    next_rxt: u64,
    /// Fall & Floyd's pipe, in segments.
    ff_pipe: i64,
    /// FACK: rate halving lasts until the first retransmission is acknowledged.
    pub rate_halving: bool,
    rate_halving_until: u64,
    rate_halving_acks: u32,
    rate_halving_sends: u32,
    /// After an RTO, lost segments are resent under cwnd up to `recovery_point`.
    pub(super) after_timeout: bool,
    prr: Prr,
}

impl SackRecovery {
    /// NextSeg must look for holes from `segment` again (a lost retransmission lies below HighRxt).
    pub(super) fn rewind_next_rxt(&mut self, segment: u64) {
        self.next_rxt = self.next_rxt.min(segment);
    }
}

pub(super) fn scoreboard_for(cfg: &SenderConfig) -> Option<Scoreboard> {
    let mss = cfg.mss as u64;
    match cfg.recovery {
        _ if !cfg.sack => None,
        RecoveryKind::Sack(SackStyle::Rfc6675 | SackStyle::Prr) => {
            Some(Scoreboard::new(mss, LossRule::SackedAbove(DUPACK_THRESHOLD)))
        }
        // ns sack1's GetNextRetran resends any hole below the highest SACK.
        RecoveryKind::Sack(SackStyle::FallFloyd) => Some(Scoreboard::new(mss, LossRule::SackedAbove(1))),
        RecoveryKind::Fack => Some(Scoreboard::new(mss, LossRule::BelowFack(DUPACK_THRESHOLD))),
        _ => None,
    }
}

enum Next {
    Retransmit(u64),
    NewData,
}

impl Sender {
    fn board(&mut self) -> &mut Scoreboard {
        self.scoreboard.as_mut().expect("SACK recovery without a scoreboard")
    }

    fn board_ref(&self) -> &Scoreboard {
        self.scoreboard.as_ref().expect("SACK recovery without a scoreboard")
    }

    fn style(&self) -> RecoveryKind {
        self.cfg.recovery
    }

    pub(super) fn on_ack_with_sack(&mut self, now: Time, ack: &Packet, out: &mut Vec<Packet>) {
        let snd_max = self.snd_max;
        let new_ack = ack.ack > self.snd_una;
        let una_before = self.snd_una;
        let delivered_before = self.delivered_estimate();
        let mss = self.window.mss;
        let board = self.board();
        board.sent_up_to(snd_max);
        if new_ack {
            board.acked_up_to(ack.ack);
        }
        let mut newly_sacked = 0;
        for (left, right) in ack.sack.iter() {
            if right > ack.ack {
                newly_sacked += board.sack(left.max(ack.ack), right);
            }
        }
        let mut newly_lost = board.mark_losses() * mss;
        newly_lost += self.rack_on_ack(now, ack) * mss;
        let was_in_recovery = self.sack.in_recovery;
        if was_in_recovery && self.style() == RecoveryKind::Fack && self.board().detect_lost_retransmissions() > 0 {
            //= Mathis & Mahdavi 1996 §3 (Hayes §2.8.4)
            //# If snd_fack advances beyond snd_next, then later new data has
            //# arrived and the lost segment is retransmitted again.
            self.sack.next_rxt = self.snd_una / self.window.mss;
        }
        let rate = if new_ack {
            self.sack_new_ack(now, ack)
        } else {
            let top = ack.sack.iter().next().map(|(_, right)| right);
            self.log_ack(now, self.snd_una, top.filter(|_| newly_sacked > 0), None).1
        };
        if !new_ack && ack.ack == self.snd_una && self.snd_max > self.snd_una && newly_sacked > 0 {
            //= rfc6675#section-2
            //# DupAck: ... (c) ... arrives carrying a SACK block that identifies
            //# previously unacknowledged and un-SACKed octets between HighACK
            //# and HighData.
            self.sack.dupacks += 1;
        }
        if was_in_recovery && self.style() == RecoveryKind::Sack(SackStyle::FallFloyd) {
            // ns sack1: every ACK in fast recovery means a packet left the pipe.
            self.sack.ff_pipe -= 1;
        }
        if was_in_recovery && self.sack.rate_halving {
            self.sack.rate_halving_acks += 1;
        }
        let duplicate = !new_ack && newly_sacked > 0;
        let mut info = self.ack_info(now, ack.ack - una_before, duplicate, rate);
        info.delivered = self.delivered_estimate().saturating_sub(delivered_before);
        info.newly_lost = newly_lost;
        //= rfc6937#section-3.1
        //# DeliveredData = change_in(snd.una) + change_in(SACKd)
        let delivered = (ack.ack - una_before) + newly_sacked * mss;
        if !self.sack.in_recovery && !self.sack.after_timeout && (self.loss_detected() || (duplicate && self.vegas_fine_expired(now))) {
            self.enter_sack_recovery(now, delivered, out);
            info.in_recovery = true;
            info.flight = self.flight_size();
            info.in_flight = self.in_flight();
            self.cc.on_every_ack(&mut self.window, &info);
            self.sack_output(now, out);
            return self.schedule_probe(now);
        }
        if was_in_recovery && self.sack.in_recovery && self.style() == RecoveryKind::Sack(SackStyle::Prr) {
            self.apply_prr(delivered);
        }
        self.cc.on_every_ack(&mut self.window, &info);
        if !self.sack.in_recovery && !self.sack.after_timeout && (1..DUPACK_THRESHOLD).contains(&self.sack.dupacks) {
            //= rfc6675#section-5
            //# (3) The TCP MAY transmit previously unsent data segments as per
            //# Limited Transmit [RFC5681]
            if self.cfg.limited_transmit && !new_ack {
                self.limited_transmit(now, self.sack.dupacks, out);
                let snd_max = self.snd_max;
                self.board().sent_up_to(snd_max);
            }
        }
        self.sack_output(now, out);
        if new_ack {
            self.schedule_probe(now);
        }
    }

    fn sack_new_ack(&mut self, now: Time, ack: &Packet) -> Option<crate::tcp::cc::RateSample> {
        let acked = ack.ack - self.snd_una;
        let estimator_sample = self.take_rtt_sample(now, ack);
        let top = ack.sack.iter().next().map(|(_, right)| right);
        let (rtt, rate) = self.log_ack(now, ack.ack, top, estimator_sample);
        if let Some(r) = rtt {
            self.cc.on_rtt(r, now);
        }
        self.snd_una = ack.ack;
        self.snd_nxt = self.snd_nxt.max(self.snd_una);
        self.limited_transmit_bytes = 0;
        //= rfc6675#section-5
        //# If the incoming ACK is a cumulative acknowledgment, the TCP MUST
        //# reset DupAcks to zero.
        self.sack.dupacks = 0;
        if self.sack.in_recovery {
            if ack.ack >= self.sack.recovery_point {
                self.exit_sack_recovery();
            } else {
                self.sack_partial_ack(ack.ack);
            }
        } else {
            if self.sack.after_timeout && ack.ack >= self.sack.recovery_point {
                self.sack.after_timeout = false;
            }
            let info = self.ack_info(now, acked, false, rate);
            self.grow_window(&info);
        }
        if self.snd_una >= self.app_end() {
            self.phase = Phase::Done;
        }
        //= rfc6298#section-5
        //# (5.2) When all outstanding data has been acknowledged, turn off the
        //# retransmission timer.
        //# (5.3) When an ACK is received that acknowledges new data, restart the
        //# retransmission timer
        if self.snd_una == self.snd_max {
            self.rto_timer.disarm();
        } else {
            self.rto_timer.arm(self.rtt.expiry(now));
        }
        rate
    }

    /// RACK's timer marked losses: start recovery, or send what it allows.
    pub(super) fn after_loss_marked(&mut self, now: Time, out: &mut Vec<Packet>) {
        if !self.sack.in_recovery && !self.sack.after_timeout && self.loss_detected() {
            return self.enter_sack_recovery(now, 0, out);
        }
        self.sack_output(now, out);
    }

    fn sack_partial_ack(&mut self, ack: u64) {
        match self.style() {
            //= Fall & Floyd 1996 §4 (ns sack1 without partial_ack_)
            //# for partial acks, pipe is decremented by two packets rather
            //# than one: the original and the retransmitted packet have left.
            RecoveryKind::Sack(SackStyle::FallFloyd) => self.sack.ff_pipe -= 1,
            RecoveryKind::Fack if self.sack.rate_halving && ack > self.sack.rate_halving_until => {
                // One RTT of rate halving is over: hold the window until recovery ends.
                self.sack.rate_halving = false;
            }
            _ => {}
        }
    }

    /// Whether this ACK starts loss recovery.
    fn loss_detected(&self) -> bool {
        if self.snd_una < self.sack.recovery_point || self.snd_max == self.snd_una {
            return false;
        }
        if self.sack.dupacks >= DUPACK_THRESHOLD {
            return true;
        }
        let board = self.board_ref();
        if self.rack_tlp.is_some() && board.lost_segments() > 0 {
            //= rfc8985#section-3.4
            //# RACK-TLP ... starts fast recovery quickly using time-based inferences
            return true;
        }
        match self.style() {
            //= rfc6675#section-5
            //# (2) If DupAcks < DupThresh but IsLost (HighACK + 1) returns true
            //# ... go to step (4).
            RecoveryKind::Sack(SackStyle::Rfc6675 | SackStyle::Prr) => board.is_lost(board.segment_of(self.snd_una)),
            //= Mathis & Mahdavi 1996 §3
            //# (snd.fack - snd.una) > (3 * MSS)
            RecoveryKind::Fack => board.fack() - self.snd_una > DUPACK_THRESHOLD as u64 * self.window.mss,
            _ => false,
        }
    }

    /// PRR sets the window on every ACK of the recovery.
    fn apply_prr(&mut self, delivered: u64) {
        let mss = self.window.mss;
        let pipe = self.board_ref().pipe() * mss;
        self.window.cwnd = self.sack.prr.cwnd(delivered, pipe, self.window.ssthresh, mss).max(mss);
    }

    fn enter_sack_recovery(&mut self, now: Time, delivered: u64, out: &mut Vec<Packet>) {
        self.stats.fast_retransmits += 1;
        let flight = self.flight_size() - self.limited_transmit_bytes;
        let mss = self.window.mss;
        //= rfc6675#section-5
        //# (4.1) RecoveryPoint = HighData
        //# (4.2) ssthresh = cwnd = (FlightSize / 2)
        let loss = self.loss(Congestion::FastRetransmit, now, flight);
        self.window.ssthresh = self.cc.ssthresh_after_loss(&self.window, &loss);
        self.sack.recovery_point = self.snd_max;
        self.sack.in_recovery = true;
        self.sack.next_rxt = self.snd_una / mss;
        if !self.cfg.cc.owns_window() {
            self.window.cwnd = self.window.ssthresh;
        }
        match self.style() {
            RecoveryKind::Sack(SackStyle::FallFloyd) => {
                // ns resets the timer on entering fast recovery.
                self.rto_timer.arm(self.rtt.expiry(now));
            }
            RecoveryKind::Sack(SackStyle::Prr) => self.sack.prr = Prr::start(flight),
            RecoveryKind::Fack => {
                self.sack.rate_halving = true;
                self.sack.rate_halving_until = self.snd_una;
                self.sack.rate_halving_acks = 0;
                self.sack.rate_halving_sends = 0;
            }
            _ => {}
        }
        //= rfc6675#section-5
        //# (4.3) Retransmit the first data segment presumed dropped -- the
        //# segment starting with sequence number HighACK + 1.
        let first = self.snd_una / mss;
        self.retransmit_segment(first, now, out);
        if self.style() == RecoveryKind::Sack(SackStyle::FallFloyd) {
            // ns sack1: pipe = maxseq - highest_ack - numdupacks, and the
            // fast retransmission itself is not counted in it.
            self.sack.ff_pipe = flight.div_ceil(mss) as i64 - DUPACK_THRESHOLD as i64;
        }
        if self.style() == RecoveryKind::Fack {
            // Rate halving from here: no more sends until two ACKs have come back.
            self.window.cwnd = self.fack_awnd();
        }
        if self.style() == RecoveryKind::Sack(SackStyle::Prr) {
            self.apply_prr(delivered);
        }
        self.sack_output(now, out);
    }

    fn exit_sack_recovery(&mut self) {
        self.sack.in_recovery = false;
        self.sack.rate_halving = false;
        match self.style() {
            // ns sack1 clears the scoreboard when fast recovery ends.
            RecoveryKind::Sack(SackStyle::FallFloyd) => self.board().clear(),
            //= Hayes 1997 §3.3.1 (FACK)
            //# Upon Recovery, FACK's recovery congestion window is set to the one
            //# retransmitted segment and enters slow start
            // The held window is what rate halving left; slow start takes it back to ssthresh.
            RecoveryKind::Fack => self.window.cwnd = self.window.cwnd.clamp(self.window.mss, self.window.ssthresh),
            // BBR restores its own window (BBRRestoreCwnd); ssthresh is only the flight at entry.
            _ if self.cfg.cc.owns_window() => {}
            _ => self.window.cwnd = self.window.ssthresh,
        }
    }

    /// The timer fired. Returns true when SACK information steers the resends
    /// (RFC 6675 and FACK); Fall & Floyd clear the board and go back N.
    pub(super) fn sack_timeout(&mut self) -> bool {
        if self.scoreboard.is_none() {
            return false;
        }
        let snd_max = self.snd_max;
        self.sack.in_recovery = false;
        self.sack.rate_halving = false;
        self.sack.dupacks = 0;
        //= rfc6675#section-5.1
        //# If an RTO occurs during loss recovery as specified in this document,
        //# RecoveryPoint MUST be set to HighData.
        self.sack.recovery_point = snd_max;
        self.board().sent_up_to(snd_max);
        if self.style() == RecoveryKind::Sack(SackStyle::FallFloyd) {
            self.board().clear();
            return false;
        }
        self.board().timeout();
        self.sack.after_timeout = true;
        self.sack.next_rxt = self.snd_una / self.window.mss;
        true
    }

    /// FACK's estimate of data in the network: awnd = snd.nxt - snd.fack + retran_data.
    fn fack_awnd(&self) -> u64 {
        let board = self.board_ref();
        self.snd_max - board.fack().max(self.snd_una) + board.retransmissions_out() * self.window.mss
    }

    /// Whether the window has room for one more segment in recovery.
    fn recovery_room(&mut self) -> bool {
        let mss = self.window.mss;
        match self.style() {
            //= Fall & Floyd 1996 §4
            //# The sender only sends new or retransmitted data when the estimated
            //# number of packets in the path is less than the congestion window.
            RecoveryKind::Sack(SackStyle::FallFloyd) => self.sack.ff_pipe < (self.window.cwnd / mss) as i64,
            RecoveryKind::Fack if self.sack.in_recovery => {
                let awnd = self.fack_awnd();
                if !self.sack.rate_halving {
                    // Hold state: the window rate halving left, one send per segment that leaves.
                    return awnd + mss <= self.window.cwnd;
                }
                //= Hayes 1997 §2.8.4
                //# for every two ACKs, check the scoreboard for any hole that
                //# equals or exceeds the retransmit threshold and retransmit that
                //# segment ... If no segment exceeds the retransmit threshold, then
                //# send new data if the advertising window allows.
                // The window follows the data in flight, so that when rate
                // halving ends it holds what was actually sent.
                let may_send = self.sack.rate_halving_acks / 2 > self.sack.rate_halving_sends;
                self.window.cwnd = if may_send { awnd + mss } else { awnd.max(mss) };
                may_send
            }
            //= rfc6675#section-5
            //# (C) If cwnd - pipe >= 1 SMSS the sender SHOULD transmit one or more segments
            _ => self.board_ref().pipe() * mss + mss <= self.window.cwnd,
        }
    }

    /// NextSeg: what to send next in recovery, if anything.
    fn next_segment(&self) -> Option<Next> {
        let board = self.board_ref();
        let new_data = {
            let end = self.data_end();
            let len = end.saturating_sub(self.snd_max).min(self.window.mss);
            len > 0 && self.snd_max + len <= self.snd_una + self.receive_window()
        };
        let from = self.sack.next_rxt;
        match self.style() {
            RecoveryKind::Sack(SackStyle::FallFloyd) => board.next_hole(from).map(Next::Retransmit),
            //= rfc6675#section-4
            //# (1) If there exists a smallest unSACKed sequence number 'S2' that
            //# meets the following three criteria for determining loss ...
            //# (2) If no sequence number 'S2' per rule (1) exists but there
            //# exists available unsent data and the receiver's advertised window
            //# allows, the sequence range of one segment of up to SMSS octets of
            //# previously unsent data starting with sequence number HighData+1
            //# MUST be returned.
            //# (3) If the conditions for rules (1) and (2) fail, but there exists
            //# an unSACKed sequence number 'S3' that meets the criteria for
            //# detecting loss given in steps (1.a) and (1.b) above
            RecoveryKind::Sack(SackStyle::Rfc6675 | SackStyle::Prr) => board
                .next_lost(from)
                .map(Next::Retransmit)
                .or(new_data.then_some(Next::NewData))
                .or_else(|| if self.sack.in_recovery { board.next_hole(from).map(Next::Retransmit) } else { None }),
            _ => board.next_lost(from).map(Next::Retransmit),
        }
        .or(new_data.then_some(Next::NewData))
    }

    /// Sends what recovery allows, or what the window allows outside it.
    pub(super) fn sack_output(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.phase != Phase::Established {
            return;
        }
        if !self.sack.in_recovery && !self.sack.after_timeout {
            let sent_before = self.snd_max;
            self.output(now, out);
            let snd_max = self.snd_max;
            self.board().sent_up_to(snd_max);
            if snd_max > sent_before {
                self.schedule_probe(now);
            }
            return;
        }
        let mut resent = 0;
        while self.recovery_room() && !self.must_wait_to_pace(now) {
            match self.next_segment() {
                Some(Next::Retransmit(_)) if self.retransmit_limit_reached(resent) => break,
                Some(Next::Retransmit(segment)) => {
                    resent += 1;
                    self.retransmit_segment(segment, now, out);
                }
                Some(Next::NewData) => {
                    let len = (self.data_end() - self.snd_max).min(self.window.mss);
                    self.send_segment(self.snd_max, len as u32, now, out);
                    self.sack.prr.sent(len);
                    self.snd_max += len;
                    self.snd_nxt = self.snd_max;
                    let snd_max = self.snd_max;
                    self.board().sent_up_to(snd_max);
                    if self.style() == RecoveryKind::Sack(SackStyle::FallFloyd) {
                        self.sack.ff_pipe += 1;
                    }
                }
                None => break,
            }
            if self.sack.rate_halving {
                self.sack.rate_halving_sends += 1;
            }
        }
    }

    fn retransmit_segment(&mut self, segment: u64, now: Time, out: &mut Vec<Packet>) {
        let (start, end) = self.board_ref().bytes_of(segment);
        self.send_segment(start, (end - start) as u32, now, out);
        self.sack.prr.sent(end - start);
        let snd_max = self.snd_max;
        self.board().mark_retransmitted(segment, snd_max);
        if self.rack_tlp.is_some() && start == self.snd_una {
            // Linux (tcp_xmit_retransmit_queue) restarts the RTO when it resends
            // the head: the timer then waits for this retransmission, not for
            // the original sent an RTT or more before.
            self.rto_timer.arm(self.rtt.expiry(now));
        }
        //= rfc6675#section-5
        //# (C.2) If any of the data octets sent in (C.1) are below HighData,
        //# HighRxt MUST be set to the highest sequence number of the
        //# retransmitted segment
        self.sack.next_rxt = segment + 1;
        if self.style() == RecoveryKind::Sack(SackStyle::FallFloyd) {
            self.sack.ff_pipe += 1;
        }
    }
}
