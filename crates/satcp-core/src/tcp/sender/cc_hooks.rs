//! Where the sender meets its congestion controller's extra needs: the
//! per-segment send log (Vegas, BBR), pacing (BBR), Vegas's fine-grained
//! retransmission check, CETEN-R's corruption path, and TCP-ADaLR's
//! receive-window increase, RTO offset and retransmission limit. Each is
//! a branch on an `Option` or the controller kind for the others.

use super::Sender;
use crate::packet::{CetenOption, Kind, Packet};
use crate::tcp::cc::{Ack, Cc, Congestion, Loss, RateSample};
use crate::time::Time;

impl Sender {
    pub(super) fn ceten_option_bytes(&self) -> u32 {
        match &self.cc {
            Cc::Ceten(c) => c.cfg.option_bytes,
            _ => 0,
        }
    }

    pub(super) fn ceten_option(&self, kind: Kind) -> Option<CetenOption> {
        match (&self.cc, kind) {
            (Cc::Ceten(c), Kind::Data) => Some(c.cfg.fresh_option()),
            _ => None,
        }
    }

    /// The receiver's window as the sender uses it: TCP-ADaLR adds to it.
    pub fn receive_window(&self) -> u64 {
        self.cc.adalr().map_or(self.peer_window, |a| a.rwnd(self.peer_window))
    }

    /// True when a paced sender must wait; arms the pacing timer.
    pub(super) fn must_wait_to_pace(&mut self, now: Time) -> bool {
        if !self.paced || self.cc.pacing_rate().is_none() || now >= self.next_send_at {
            return false;
        }
        self.pace_timer.arm(self.next_send_at);
        true
    }

    /// TCP-ADaLR's limit on segments resent per ACK or timeout.
    pub(super) fn retransmit_limit_reached(&self, resent: u32) -> bool {
        //= Omueti 2007, "Loss recovery mechanism" (001.md §1.8)
        //# Retransmissions from the retransmission buffer are limited to three segments
        self.cc.adalr().is_some_and(|a| resent >= a.cfg.retransmit_limit)
    }

    /// TCP-ADaLR's extra time on the RTO armed after a timeout.
    pub(super) fn rto_extra(&self) -> Time {
        self.cc.adalr().map_or(0, |a| a.cfg.rto_extra)
    }

    pub(super) fn log_send(&mut self, seq: u64, len: u32, size: u32, now: Time, retransmission: bool) {
        if let Some(log) = &mut self.sent_log {
            log.on_send(seq + len as u64, now, self.snd_una == self.snd_max);
        }
        if retransmission {
            if let Some(v) = self.cc.vegas() {
                v.retransmitted();
            }
        }
        if self.paced {
            if let Some(rate) = self.cc.pacing_rate() {
                let gap = (size as f64 * 1e9 / rate.max(1.0)) as Time;
                self.next_send_at = self.next_send_at.max(now) + gap;
            }
        }
    }

    /// What the send log says about an ACK up to `ack` (and a SACK block
    /// ending at `sack_top`): the RTT sample for the controller and the
    /// delivery-rate sample. Without a log, the RTO estimator's sample.
    pub(super) fn log_ack(&mut self, now: Time, ack: u64, sack_top: Option<u64>, estimator_sample: Option<Time>) -> (Option<Time>, Option<RateSample>) {
        let delivered = self.delivered_estimate_after(ack);
        let Some(log) = &mut self.sent_log else { return (estimator_sample, None) };
        let mut newest = log.acked_up_to(ack);
        if let Some(top) = sack_top.filter(|&t| t > ack) {
            let sacked = log.get(top - 1).copied();
            if sacked.is_some_and(|s| newest.is_none_or(|n| s.sent_at > n.sent_at)) {
                newest = sacked;
            }
        }
        //= Brakmo & Peterson 1995 §3.1
        //# Vegas reads and records the system clock each time a segment is sent.
        //# When an ACK arrives, Vegas reads the clock again and does the RTT
        //# calculation using this time and the timestamp recorded for the relevant segment.
        let rtt = newest.filter(|r| !r.retransmitted).map(|r| now - r.sent_at);
        (rtt, log.sample(delivered, now, newest))
    }

    /// Bytes the receiver holds: cumulatively acknowledged plus SACKed.
    pub(super) fn delivered_estimate(&self) -> u64 {
        self.delivered_estimate_after(self.snd_una)
    }

    fn delivered_estimate_after(&self, una: u64) -> u64 {
        una.max(self.snd_una) + self.scoreboard.as_ref().map_or(0, |b| b.sacked_segments() * self.window.mss)
    }

    pub(super) fn ack_info(&self, now: Time, acked: u64, duplicate: bool, rate: Option<RateSample>) -> Ack {
        Ack {
            now,
            acked,
            delivered: acked,
            flight: self.flight_size(),
            in_flight: self.in_flight(),
            newly_lost: 0,
            rwnd: self.receive_window(),
            srtt: self.rtt.srtt(),
            rate,
            // The resends after an RTO up to its recovery point count too, as
            // Linux's TCP_CA_Loss state does for the controllers.
            in_recovery: self.recovery.in_fast_recovery || self.sack.in_recovery || self.sack.after_timeout,
            duplicate,
            snd_una: self.snd_una,
            snd_max: self.snd_max,
            total_delivered: self.delivered_estimate(),
        }
    }

    /// RFC 6675 pipe in bytes when a scoreboard is kept, else the flight size.
    pub(super) fn in_flight(&self) -> u64 {
        match &self.scoreboard {
            Some(board) => board.pipe() * self.window.mss,
            None => self.flight_size(),
        }
    }

    pub(super) fn loss(&self, event: Congestion, now: Time, flight: u64) -> Loss {
        let lost_sent_at = self.sent_log.as_ref().and_then(|l| l.get(self.snd_una)).map(|r| r.sent_at);
        Loss { event, now, flight, lost_sent_at, snd_max: self.snd_max }
    }

    /// Vegas: the segment at snd_una has outlived the fine-grained timeout.
    pub(super) fn vegas_fine_expired(&mut self, now: Time) -> bool {
        let Some(sent_at) = self.sent_log.as_ref().and_then(|l| l.get(self.snd_una)).map(|r| r.sent_at) else {
            return false;
        };
        self.cc.vegas().is_some_and(|v| v.expired(sent_at, now))
    }

    /// Vegas: on the first two new ACKs after a retransmission, resend the
    /// next segment if it too has outlived the fine timeout.
    pub(super) fn vegas_check_after_retransmission(&mut self, now: Time, out: &mut Vec<Packet>) {
        let worried = self.cc.vegas().is_some_and(|v| v.worried());
        if worried && self.snd_una < self.snd_max && self.vegas_fine_expired(now) {
            self.retransmit_first_unacked(now, out);
        }
    }

    /// CETEN-R as coded: the decision on every duplicate ACK. True when
    /// this duplicate was taken as corruption and handled here.
    pub(super) fn ceten_resend_on_dupack(&mut self, now: Time, out: &mut Vec<Packet>) -> bool {
        let dupacks = self.recovery.dupacks + 1;
        let Some(c) = self.cc.ceten() else { return false };
        if c.cfg.mode != crate::tcp::cc::ceten::Mode::Code || !c.decides_at(dupacks, crate::tcp::recovery::DUPACK_THRESHOLD) {
            return false;
        }
        if !c.corruption() {
            return false;
        }
        //= Carroll 2004, Appendix A, tcp_ack_check (000.md §1.5)
        //# dup_ack_cnt += 1 ... tcp_eten_retransmit()
        self.recovery.dupacks = dupacks;
        self.stats.corruption_retransmits += 1;
        self.retransmit_first_unacked(now, out);
        true
    }

    /// CETEN-R as intended: the decision when fast retransmit would fire.
    pub(super) fn ceten_corruption_at_threshold(&mut self) -> bool {
        match self.cc.ceten() {
            Some(c) if c.cfg.mode == crate::tcp::cc::ceten::Mode::Intent => c.corruption(),
            _ => false,
        }
    }

    /// The pacing timer's event.
    pub fn on_pace(&mut self, now: Time, generation: u32, out: &mut Vec<Packet>) {
        if !self.pace_timer.fire(now, generation) {
            return;
        }
        if self.scoreboard.is_some() {
            self.sack_output(now, out);
        } else {
            self.output(now, out);
        }
    }
}
