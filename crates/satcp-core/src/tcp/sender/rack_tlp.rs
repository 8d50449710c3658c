//! RACK-TLP (RFC 8985) for a SACK sender, when the flow asks for it
//! (`rack = true`): RACK marks losses by time on every ACK and on its
//! reordering timer (tcp::rack), and the Tail Loss Probe sends one segment
//! when ACKs stop before the RTO would, so that a lost tail is repaired by
//! SACK recovery rather than a timeout. One timer serves both, as in Linux.

use super::Sender;
use crate::packet::Packet;
use crate::tcp::cc::Congestion;
use crate::tcp::rack::Rack;
use crate::time::{Time, NS_PER_MS, NS_PER_S};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LossTimer {
    #[default]
    Reorder,
    Probe,
}

/// The loss probe outstanding (RFC 8985 §7.3: TLP.end_seq, TLP.is_retrans).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    end: u64,
    resent: bool,
    /// Recoveries and timeouts when it was sent: one starting later repairs the tail itself.
    episodes: u64,
}

#[derive(Clone, Debug, Default)]
pub struct RackTlp {
    pub rack: Rack,
    pub timer_kind: LossTimer,
    probe: Option<Probe>,
    pub probes_sent: u64,
}

//= rfc8985#section-7.2
//# WCDelAckT stands for worst-case delayed ACK timer ... RECOMMENDED 200 ms
const WORST_CASE_DELAYED_ACK: Time = 200 * NS_PER_MS;

impl Sender {
    fn episodes(&self) -> u64 {
        self.stats.fast_retransmits + self.stats.timeouts
    }

    /// A data segment left: RACK records its send time.
    pub(super) fn rack_on_send(&mut self, seq: u64, len: u32, now: Time, resent: bool) {
        let (Some(tlp), Some(board)) = (&mut self.rack_tlp, &mut self.scoreboard) else { return };
        board.sent_up_to(seq + len as u64);
        let segment = board.segment_of(seq);
        let stamp = tlp.rack.sent(segment, now);
        board.record_send(segment, stamp, resent);
    }

    /// After the scoreboard took an ACK: RACK's update and loss check.
    /// Returns the segments newly found lost.
    pub(super) fn rack_on_ack(&mut self, now: Time, ack: &Packet) -> u64 {
        if self.rack_tlp.is_none() {
            return 0;
        }
        let board = self.scoreboard.as_mut().expect("RACK runs on the SACK scoreboard");
        if let (Some(d), Some(tlp)) = (board.take_delivered(), &mut self.rack_tlp) {
            tlp.rack.update(d, now);
        }
        self.tlp_on_ack(now, ack.ack);
        self.rack_detect(now)
    }

    fn rack_detect(&mut self, now: Time) -> u64 {
        let recovering = self.sack.in_recovery || self.sack.after_timeout;
        let srtt = self.rtt.srtt();
        let (Some(tlp), Some(board)) = (&mut self.rack_tlp, &mut self.scoreboard) else { return 0 };
        let reo_wnd = tlp.rack.reorder_window(board, recovering, srtt);
        let verdict = tlp.rack.detect(board, reo_wnd, now);
        if let Some(at) = verdict.recheck_at {
            tlp.timer_kind = LossTimer::Reorder;
            self.loss_timer.arm(at);
        }
        if verdict.lost > 0 {
            // Lost retransmissions lie below HighRxt: NextSeg looks again from the start.
            self.sack.rewind_next_rxt(self.snd_una / self.window.mss);
        }
        verdict.lost
    }

    /// RFC 8985 §7.4: the ACK that covers a retransmitted probe, without a
    /// recovery since, means the probe repaired a loss by itself: respond to
    /// congestion as fast recovery would (no DSACK here, so always).
    fn tlp_on_ack(&mut self, now: Time, ack: u64) {
        let episodes = self.episodes();
        let Some(tlp) = &mut self.rack_tlp else { return };
        let Some(probe) = tlp.probe.filter(|p| ack >= p.end) else { return };
        tlp.probe = None;
        if probe.resent && probe.episodes == episodes {
            //= rfc8985#section-7.4.2
            //# the sender MUST invoke a congestion control response equivalent
            //# to fast recovery.
            let loss = self.loss(Congestion::FastRetransmit, now, self.flight_size());
            self.window.ssthresh = self.cc.ssthresh_after_loss(&self.window, &loss);
            self.window.cwnd = self.window.ssthresh;
        }
    }

    /// RFC 8985 §7.2: arms the probe timer after new data or a new
    /// cumulative ACK, when no recovery runs, nothing is SACKed and no probe
    /// is out.
    pub(super) fn schedule_probe(&mut self, now: Time) {
        let quiet = !self.sack.in_recovery && !self.sack.after_timeout;
        let flight = self.flight_size();
        let srtt = self.rtt.srtt();
        let rto_at = self.rto_timer.deadline();
        let mss = self.window.mss;
        let (Some(tlp), Some(board)) = (&mut self.rack_tlp, &self.scoreboard) else { return };
        if tlp.probe.is_some() || !quiet || board.has_sacks() || flight == 0 {
            if tlp.timer_kind == LossTimer::Probe {
                self.loss_timer.disarm();
            }
            return;
        }
        if tlp.timer_kind == LossTimer::Reorder && self.loss_timer.is_armed() {
            return;
        }
        //= rfc8985#section-7.2
        //# If SRTT is available: PTO = 2 * SRTT; If FlightSize is one segment,
        //# PTO += WCDelAckT ... If SRTT is not available: PTO = 1 second
        let pto = match srtt {
            Some(s) => 2 * s + if flight <= mss { WORST_CASE_DELAYED_ACK } else { 0 },
            None => NS_PER_S,
        };
        //# If RTO.deadline is earlier than the PTO deadline, PTO = RTO
        // One nanosecond ahead, so the probe goes out in the RTO's place.
        let at = rto_at.map_or(now + pto, |r| (now + pto).min(r.saturating_sub(1).max(now)));
        tlp.timer_kind = LossTimer::Probe;
        self.loss_timer.arm(at);
    }

    /// The loss timer's event: RACK's reordering timer, or the probe timeout.
    pub fn on_loss_timer(&mut self, now: Time, generation: u32, out: &mut Vec<Packet>) {
        if !self.loss_timer.fire(now, generation) || self.phase != super::Phase::Established {
            return;
        }
        let Some(tlp) = &self.rack_tlp else { return };
        match tlp.timer_kind {
            LossTimer::Reorder => {
                self.rack_detect(now);
                self.after_loss_marked(now, out);
            }
            LossTimer::Probe => self.send_probe(now, out),
        }
    }

    /// RFC 8985 §7.3: new data if the windows allow any, else the last segment again.
    fn send_probe(&mut self, now: Time, out: &mut Vec<Packet>) {
        let mss = self.window.mss;
        let end = self.data_end();
        let new_len = end.saturating_sub(self.snd_max).min(mss);
        let episodes = self.episodes();
        let resent = !(new_len > 0 && self.snd_max + new_len <= self.snd_una + self.receive_window());
        if !resent {
            //= rfc8985#section-7.3
            //# If a previously unsent segment exists AND the receive window
            //# allows new data to be sent: Transmit that new segment
            let seq = self.snd_max;
            self.send_segment(seq, new_len as u32, now, out);
            self.snd_max += new_len;
            self.snd_nxt = self.snd_max;
        } else if self.snd_max > self.snd_una {
            //# Else: Retransmit the last segment
            let start = ((self.snd_max - 1) / mss * mss).max(self.snd_una);
            self.send_segment(start, (self.snd_max - start) as u32, now, out);
        } else {
            return;
        }
        let tlp = self.rack_tlp.as_mut().expect("probing with RACK-TLP");
        tlp.probe = Some(Probe { end: self.snd_max, resent, episodes });
        tlp.probes_sent += 1;
        //# the sender MUST re-arm the RTO timer, not the PTO timer
        self.rto_timer.arm(self.rtt.expiry(now));
    }

    /// After a retransmission timeout: RACK starts afresh, no probe is out.
    pub(super) fn rack_on_timeout(&mut self) {
        if let Some(tlp) = &mut self.rack_tlp {
            tlp.rack.clear_sent();
            tlp.probe = None;
            self.loss_timer.disarm();
        }
    }
}
