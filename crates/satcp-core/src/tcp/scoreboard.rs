//! The SACK scoreboard: what the receiver holds above the cumulative ACK,
//! which segments are presumed lost, and which were retransmitted.
//!
//! Every segment starts on a multiple of the MSS (the stream starts at 0 and
//! only the last segment is short), so the board is a ring of per-segment
//! flags indexed by segment number, and the counts that `pipe` needs are
//! kept as the flags change: no per-ACK walk over the window.

use std::collections::VecDeque;

use crate::time::Time;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentState {
    pub sacked: bool,
    pub lost: bool,
    /// Retransmitted and not yet SACKed or cumulatively acknowledged.
    pub retransmitted: bool,
    /// One past the highest byte sent when this segment was last
    /// retransmitted (FACK's test for a lost retransmission).
    pub retransmitted_at_high: u64,
    /// When it was last sent (RACK's clock, RFC 8985 §6.1).
    pub sent_at: Time,
    /// Sent more than once, ever: its ACK is ambiguous for RACK's RTT.
    pub resent: bool,
}

/// The most recently sent of the segments an ACK newly delivered (RFC 8985 §6.2 step 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    pub sent_at: Time,
    /// One past its last byte.
    pub end: u64,
    pub resent: bool,
}

/// How many segments must be SACKed above a hole before it is presumed lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossRule {
    //= rfc6675#section-4
    //# IsLost (SeqNum): This routine returns whether the given sequence number is
    //# considered to be lost.  The routine returns true when either
    //# DupThresh discontiguous SACKed sequences have arrived above
    //# 'SeqNum' or more than (DupThresh - 1) * SMSS bytes with sequence
    //# numbers greater than 'SeqNum' have been SACKed.
    SackedAbove(u32),
    /// FACK (Mathis & Mahdavi 1996): a hole more than DupThresh segments
    /// below the forward-most SACKed byte (snd.fack) is lost.
    BelowFack(u32),
}

#[derive(Clone, Debug)]
pub struct Scoreboard {
    mss: u64,
    rule: LossRule,
    /// Segment number of the first unacknowledged segment.
    base: u64,
    segments: VecDeque<SegmentState>,
    /// One past the highest byte sent.
    high_data: u64,
    sacked_out: u64,
    lost_out: u64,
    retrans_out: u64,
    /// One past the highest SACKed segment (segment number), if any.
    high_sacked: Option<u64>,
    /// Segments below this number have been examined for loss.
    loss_marked_to: u64,
    /// One past the highest segment marked lost by time (RACK), for `next_lost`.
    timed_lost_to: u64,
    /// The newest delivery since `take_delivered`, and one past the highest
    /// byte ever delivered (RACK.fack).
    delivered: Option<Delivered>,
    delivered_high: u64,
    /// A never-resent segment was delivered below one delivered before (RFC 8985 §6.2 step 3).
    pub reordering_seen: bool,
}

impl Scoreboard {
    pub fn new(mss: u64, rule: LossRule) -> Scoreboard {
        Scoreboard {
            mss,
            rule,
            base: 0,
            segments: VecDeque::new(),
            high_data: 0,
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            high_sacked: None,
            loss_marked_to: 0,
            timed_lost_to: 0,
            delivered: None,
            delivered_high: 0,
            reordering_seen: false,
        }
    }

    fn index(&self, segment: u64) -> usize {
        (segment - self.base) as usize
    }

    fn end_segment(&self) -> u64 {
        self.base + self.segments.len() as u64
    }

    pub fn segment_of(&self, seq: u64) -> u64 {
        seq / self.mss
    }

    /// Byte range of a segment, clipped to what was sent.
    pub fn bytes_of(&self, segment: u64) -> (u64, u64) {
        (segment * self.mss, ((segment + 1) * self.mss).min(self.high_data))
    }

    pub fn state(&self, segment: u64) -> Option<SegmentState> {
        segment.checked_sub(self.base).and_then(|i| self.segments.get(i as usize).copied())
    }

    fn state_mut(&mut self, segment: u64) -> Option<&mut SegmentState> {
        segment.checked_sub(self.base).and_then(|i| self.segments.get_mut(i as usize))
    }

    /// Data up to `high_data` has been sent.
    pub fn sent_up_to(&mut self, high_data: u64) {
        self.high_data = self.high_data.max(high_data);
        let end = self.high_data.div_ceil(self.mss);
        while self.end_segment() < end {
            self.segments.push_back(SegmentState::default());
        }
    }

    /// The cumulative ACK moved to `snd_una`.
    pub fn acked_up_to(&mut self, snd_una: u64) {
        // The short last segment is acknowledged when all that was sent is.
        let new_base = if snd_una >= self.high_data { self.end_segment() } else { self.segment_of(snd_una) };
        while self.base < new_base {
            let s = self.segments.pop_front().expect("segment below the sent edge");
            if !s.sacked {
                let end = self.bytes_of(self.base).1;
                self.note_delivery(s, end);
            }
            self.forget(s);
            self.base += 1;
        }
        self.loss_marked_to = self.loss_marked_to.max(self.base);
        if self.high_sacked.is_some_and(|h| h <= self.base) {
            self.high_sacked = None;
        }
    }

    fn note_delivery(&mut self, s: SegmentState, end: u64) {
        //= rfc8985#section-6.2
        //# If Segment.end_seq < RACK.fack and Segment.retransmitted is FALSE,
        //# then set RACK.reordering_seen = TRUE
        if !s.resent && end < self.delivered_high {
            self.reordering_seen = true;
        }
        self.delivered_high = self.delivered_high.max(end);
        let this = Delivered { sent_at: s.sent_at, end, resent: s.resent };
        if self.delivered.is_none_or(|d| (d.sent_at, d.end) < (this.sent_at, this.end)) {
            self.delivered = Some(this);
        }
    }

    /// The most recently sent segment delivered since the last call.
    pub fn take_delivered(&mut self) -> Option<Delivered> {
        self.delivered.take()
    }

    /// Segment `segment` leaves now (it must be below the sent edge).
    pub fn record_send(&mut self, segment: u64, now: Time, resent: bool) {
        if let Some(s) = self.state_mut(segment) {
            s.sent_at = now;
            s.resent |= resent;
        }
    }

    /// RACK found `segment` (sent before a delivered one, and waited long
    /// enough) lost: it is resent again even if it was a retransmission.
    /// Returns true when it newly needs a resend.
    pub fn mark_lost_by_time(&mut self, segment: u64) -> bool {
        let Some(s) = self.state_mut(segment) else { return false };
        if s.sacked || (s.lost && !s.retransmitted) {
            return false;
        }
        let (newly_lost, was_retransmitted) = (!s.lost, s.retransmitted);
        s.lost = true;
        s.retransmitted = false;
        self.lost_out += newly_lost as u64;
        self.retrans_out -= was_retransmitted as u64;
        self.timed_lost_to = self.timed_lost_to.max(segment + 1);
        true
    }

    /// Segments sacked or lost-and-awaiting-resend are no longer RACK's to judge.
    pub fn awaits_verdict(&self, segment: u64, sent_at: Time) -> bool {
        self.state(segment).is_some_and(|s| !s.sacked && s.sent_at == sent_at && !(s.lost && !s.retransmitted))
    }

    pub fn lost_segments(&self) -> u64 {
        self.lost_out
    }

    fn forget(&mut self, s: SegmentState) {
        if s.sacked {
            self.sacked_out -= 1;
        } else {
            self.lost_out -= s.lost as u64;
            self.retrans_out -= s.retransmitted as u64;
        }
    }

    /// Marks the segments a SACK block covers; returns how many were new.
    pub fn sack(&mut self, left: u64, right: u64) -> u64 {
        let first = left.div_ceil(self.mss).max(self.base);
        let mut newly = 0;
        let mut segment = first;
        while segment < self.end_segment() {
            let (start, end) = self.bytes_of(segment);
            if start < left || end > right {
                break;
            }
            let i = self.index(segment);
            let s = self.segments[i];
            if !s.sacked {
                self.lost_out -= s.lost as u64;
                self.retrans_out -= s.retransmitted as u64;
                self.note_delivery(s, end);
                self.segments[i] = SegmentState { sacked: true, ..SegmentState::default() };
                self.sacked_out += 1;
                newly += 1;
            }
            segment += 1;
        }
        if newly > 0 && self.high_sacked.is_none_or(|h| h < segment) {
            self.high_sacked = Some(segment);
        }
        newly
    }

    /// Applies the loss rule to every hole it now condemns and returns how
    /// many segments it newly marked lost. Holes are only ever added to the
    /// lost set, so a moving frontier keeps this cheap.
    pub fn mark_losses(&mut self) -> u64 {
        let Some(frontier) = self.loss_frontier() else { return 0 };
        let before = self.lost_out;
        let mut segment = self.loss_marked_to.max(self.base);
        while segment < frontier {
            let i = self.index(segment);
            let s = &mut self.segments[i];
            if !s.sacked && !s.lost {
                s.lost = true;
                self.lost_out += 1;
            }
            segment += 1;
        }
        self.loss_marked_to = self.loss_marked_to.max(frontier);
        self.lost_out - before
    }

    /// Segments below this number satisfy the loss rule.
    fn loss_frontier(&self) -> Option<u64> {
        let high = self.high_sacked?;
        match self.rule {
            LossRule::SackedAbove(threshold) => {
                // Walk down from the highest SACK to the threshold-th SACKed segment.
                let mut seen = 0;
                let mut segment = high;
                while segment > self.base {
                    segment -= 1;
                    if self.segments[self.index(segment)].sacked {
                        seen += 1;
                        if seen == threshold {
                            return Some(segment);
                        }
                    }
                }
                None
            }
            LossRule::BelowFack(threshold) => high.checked_sub(threshold as u64),
        }
    }

    /// One past the forward-most SACKed byte (snd.fack), or `snd_una`.
    pub fn fack(&self) -> u64 {
        match self.high_sacked {
            Some(h) => self.bytes_of(h - 1).1,
            None => self.base * self.mss,
        }
    }

    pub fn has_sacks(&self) -> bool {
        self.sacked_out > 0
    }

    pub fn is_lost(&self, segment: u64) -> bool {
        self.state(segment).is_some_and(|s| s.lost && !s.sacked)
    }

    /// The first lost segment at or above `from` that is not being retransmitted.
    pub fn next_lost(&self, from: u64) -> Option<u64> {
        let frontier = self.loss_marked_to.max(self.timed_lost_to).min(self.end_segment());
        (from.max(self.base)..frontier).find(|&n| {
            let s = self.segments[self.index(n)];
            s.lost && !s.sacked && !s.retransmitted
        })
    }

    /// The first un-SACKed segment at or above `from` with SACKed data above
    /// it (RFC 6675 NextSeg rule 3; Fall & Floyd's next hole).
    pub fn next_hole(&self, from: u64) -> Option<u64> {
        let high = self.high_sacked?;
        (from.max(self.base)..high).find(|&n| {
            let s = self.segments[self.index(n)];
            !s.sacked && !s.retransmitted
        })
    }

    pub fn mark_retransmitted(&mut self, segment: u64, high_data: u64) {
        let i = self.index(segment);
        let s = &mut self.segments[i];
        if !s.retransmitted {
            s.retransmitted = true;
            self.retrans_out += 1;
        }
        s.retransmitted_at_high = high_data;
    }

    /// FACK: a retransmission is lost when data sent after it has been SACKed.
    /// Returns how many retransmissions were found lost.
    pub fn detect_lost_retransmissions(&mut self) -> u64 {
        let fack = self.fack();
        let mut found = 0;
        for s in self.segments.iter_mut() {
            if s.retransmitted && !s.sacked && s.retransmitted_at_high < fack {
                s.retransmitted = false;
                found += 1;
            }
        }
        self.retrans_out -= found;
        found
    }

    /// After a retransmission timeout every un-SACKed segment is presumed
    /// lost and none is in flight (the SACKed ones stay: our receiver never
    /// reneges).
    pub fn timeout(&mut self) {
        self.retrans_out = 0;
        self.lost_out = 0;
        for s in self.segments.iter_mut() {
            s.retransmitted = false;
            s.lost = !s.sacked;
            self.lost_out += s.lost as u64;
        }
        self.loss_marked_to = self.end_segment();
    }

    /// Fall & Floyd clear the scoreboard when recovery ends or times out.
    pub fn clear(&mut self) {
        let base = self.base;
        self.segments.clear();
        self.sacked_out = 0;
        self.lost_out = 0;
        self.retrans_out = 0;
        self.high_sacked = None;
        self.loss_marked_to = base;
        let high = self.high_data;
        self.high_data = base * self.mss;
        self.sent_up_to(high);
    }

    /// RFC 6675 SetPipe, in segments: those neither SACKed nor presumed lost,
    /// plus every retransmission still out.
    pub fn pipe(&self) -> u64 {
        //= rfc6675#section-4
        //# (a) If IsLost (S1) returns false: Pipe is incremented by 1 octet.
        //# (b) If S1 <= HighRxt: Pipe is incremented by 1 octet.
        self.segments.len() as u64 - self.sacked_out - self.lost_out + self.retrans_out
    }

    pub fn retransmissions_out(&self) -> u64 {
        self.retrans_out
    }

    pub fn sacked_segments(&self) -> u64 {
        self.sacked_out
    }

    /// Checks the kept counts against a recount (tests and debug builds).
    pub fn counts_agree(&self) -> bool {
        let sacked = self.segments.iter().filter(|s| s.sacked).count() as u64;
        let lost = self.segments.iter().filter(|s| s.lost && !s.sacked).count() as u64;
        let retrans = self.segments.iter().filter(|s| s.retransmitted && !s.sacked).count() as u64;
        (sacked, lost, retrans) == (self.sacked_out, self.lost_out, self.retrans_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rule: LossRule, segments: u64) -> Scoreboard {
        let mut b = Scoreboard::new(100, rule);
        b.sent_up_to(segments * 100);
        b
    }

    #[test]
    fn rfc6675_needs_three_sacked_segments_above_a_hole() {
        let mut b = board(LossRule::SackedAbove(3), 10);
        b.sack(100, 300);
        b.mark_losses();
        assert!(!b.is_lost(0), "two SACKed segments above are not enough");
        b.sack(400, 500);
        b.mark_losses();
        assert!(b.is_lost(0), "three SACKed segments above segment 0");
        assert!(!b.is_lost(3), "only one SACKed segment above segment 3");
        // 10 sent, 3 SACKed, 1 lost: pipe = 10 - 3 - 1 = 6.
        assert_eq!(b.pipe(), 6);
        b.mark_retransmitted(0, 1000);
        assert_eq!(b.pipe(), 7, "the retransmission is in flight");
        assert!(b.counts_agree());
    }

    #[test]
    fn cumulative_ack_drops_acknowledged_segments() {
        let mut b = board(LossRule::SackedAbove(3), 10);
        b.sack(200, 500);
        b.mark_losses();
        assert!(b.is_lost(0) && b.is_lost(1));
        b.mark_retransmitted(0, 1000);
        b.acked_up_to(100);
        assert!(b.counts_agree());
        assert_eq!(b.next_lost(0), Some(1));
        b.acked_up_to(500);
        assert_eq!(b.pipe(), 5);
        assert!(!b.has_sacks());
        assert!(b.counts_agree());
    }

    #[test]
    fn short_last_segment_is_sacked_by_its_block() {
        let mut b = Scoreboard::new(100, LossRule::SackedAbove(3));
        b.sent_up_to(250);
        assert_eq!(b.sack(200, 250), 1);
        assert_eq!(b.fack(), 250);
    }

    #[test]
    fn fack_rule_counts_holes_too() {
        // Hayes Table 2.3: 10..21 sent, 10, 13, 15 lost (here segments 0..11; 0, 3, 5 lost).
        let mut b = board(LossRule::BelowFack(3), 12);
        for s in [1, 2, 4] {
            b.sack(s * 100, s * 100 + 100);
        }
        b.mark_losses();
        assert!(b.is_lost(0), "snd.fack is 5 segments: segment 0 is 4 below it");
        assert!(!b.is_lost(3), "segment 3 is 1 below snd.fack");
        b.sack(600, 700);
        b.mark_losses();
        assert!(b.is_lost(3), "fack 7 is 3 above segment 3's end");
        assert!(!b.is_lost(5));
    }

    #[test]
    fn fack_finds_a_lost_retransmission() {
        let mut b = board(LossRule::BelowFack(3), 10);
        b.sack(100, 500);
        b.mark_losses();
        b.mark_retransmitted(0, 1000);
        b.sent_up_to(1200);
        b.sack(1000, 1100);
        assert_eq!(b.detect_lost_retransmissions(), 1, "data sent after the retransmission was SACKed");
        assert_eq!(b.next_lost(0), Some(0));
        assert!(b.counts_agree());
    }

    #[test]
    fn timeout_marks_everything_unsacked_lost() {
        let mut b = board(LossRule::SackedAbove(3), 6);
        b.sack(300, 400);
        b.mark_retransmitted(0, 600);
        b.timeout();
        assert_eq!(b.pipe(), 0);
        assert_eq!(b.next_lost(0), Some(0));
        assert_eq!(b.next_lost(3), Some(4));
        assert!(b.counts_agree());
    }
}
