//! RACK (RFC 8985 §6): a segment is lost when a segment sent after it has
//! been delivered and more than an RTT (plus a reordering window) has
//! passed since it was sent. Unlike the duplicate-ACK threshold this needs
//! one delivery, not three, and it finds lost retransmissions. The
//! scoreboard keeps each segment's send time; this keeps RACK's own state
//! and the segments in the order they were sent, so a check walks only the
//! segments sent before the newest delivered one (Linux's tsorted list).

use std::collections::VecDeque;

use super::scoreboard::{Delivered, Scoreboard};
use crate::time::Time;

#[derive(Clone, Debug, Default)]
pub struct Rack {
    /// Send time and end of the most recently sent segment known delivered.
    newest: Option<(Time, u64)>,
    /// RACK.rtt: the RTT of that segment's delivery.
    rtt: Time,
    /// RACK.min_RTT.
    min_rtt: Option<Time>,
    /// (segment, send time), oldest send first; entries go stale when the
    /// segment is delivered, resent or marked lost, and are dropped lazily.
    sent_order: VecDeque<(u64, Time)>,
    /// The last send stamp given out.
    last_stamp: Option<Time>,
}

/// What a check found: segments newly lost, and when to look again.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    pub lost: u64,
    pub recheck_at: Option<Time>,
}

impl Rack {
    /// A segment left now; returns its send stamp. Stamps strictly increase
    /// (1 ns apart within one event) so that RACK's order is the true send
    /// order: the RFC's tie-break by sequence (for coarse clocks) would put a
    /// retransmission sent just after new data in the same instant before it,
    /// and condemn it as soon as that data is SACKed.
    pub fn sent(&mut self, segment: u64, now: Time) -> Time {
        let stamp = self.last_stamp.map_or(now, |last| now.max(last + 1));
        self.last_stamp = Some(stamp);
        self.sent_order.push_back((segment, stamp));
        stamp
    }

    /// RFC 8985 §6.2 step 2: learn from the newest segment this ACK delivered.
    pub fn update(&mut self, delivered: Delivered, now: Time) {
        let rtt = now.saturating_sub(delivered.sent_at);
        //= rfc8985#section-6.2
        //# If Segment.retransmitted is TRUE and rtt < RACK.min_RTT, then continue
        // The RFC's other test (echo_reply < xmit_ts) is left out, as Linux
        // leaves it out: a receiver keeps TS.Recent from in-order segments
        // only (RFC 7323 §4.3), so every SACK of a retransmission above a
        // hole echoes an older stamp and would look ambiguous.
        if delivered.resent && self.min_rtt.is_some_and(|m| rtt < m) {
            return;
        }
        self.rtt = rtt;
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        if self.newest.is_none_or(|n| sent_after((delivered.sent_at, delivered.end), n)) {
            self.newest = Some((delivered.sent_at, delivered.end));
        }
    }

    /// RFC 8985 §6.2 step 4: the reordering window. Zero while no
    /// reordering has been seen and the sender is recovering or already has
    /// DupThresh segments SACKed; else a quarter of the minimum RTT, at most SRTT.
    pub fn reorder_window(&self, board: &Scoreboard, recovering: bool, srtt: Option<Time>) -> Time {
        //= rfc8985#section-6.2
        //# If RACK.reordering_seen is FALSE:
        //#     If in loss recovery: return 0
        //#     Else if RACK.segs_sacked >= DupThresh: return 0
        //# return min(RACK.reo_wnd_mult * RACK.min_RTT / 4, SRTT)
        if !board.reordering_seen && (recovering || board.sacked_segments() >= super::recovery::DUPACK_THRESHOLD as u64) {
            return 0;
        }
        let quarter = self.min_rtt.unwrap_or(0) / 4;
        srtt.map_or(quarter, |s| quarter.min(s))
    }

    /// RFC 8985 §6.2 step 5: marks lost every segment sent before the newest
    /// delivered one that has waited RACK.rtt + `reo_wnd` since it was sent.
    pub fn detect(&mut self, board: &mut Scoreboard, reo_wnd: Time, now: Time) -> Verdict {
        let mut verdict = Verdict::default();
        let Some(newest) = self.newest else { return verdict };
        while let Some(&(segment, sent_at)) = self.sent_order.front() {
            if !board.awaits_verdict(segment, sent_at) {
                self.sent_order.pop_front();
                continue;
            }
            let end = board.bytes_of(segment).1;
            if !sent_after(newest, (sent_at, end)) {
                break;
            }
            //= rfc8985#section-6.2
            //# remaining = Segment.xmit_ts + RACK.rtt + RACK.reo_wnd - Now()
            //# If remaining <= 0: Segment.lost = TRUE
            let deadline = sent_at + self.rtt + reo_wnd;
            if deadline > now {
                // Later entries were sent later: this one is due first.
                verdict.recheck_at = Some(deadline);
                break;
            }
            self.sent_order.pop_front();
            verdict.lost += board.mark_lost_by_time(segment) as u64;
        }
        verdict
    }

    /// After a retransmission timeout every segment is lost and none is in
    /// flight; what is resent is entered afresh.
    pub fn clear_sent(&mut self) {
        self.sent_order.clear();
    }
}

/// RACK_sent_after: `a` was sent after `b` (send time, then sequence).
fn sent_after(a: (Time, u64), b: (Time, u64)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::scoreboard::LossRule;

    const MS: Time = 1_000_000;

    /// Ten segments of 100 B sent 1 ms apart from t = 0.
    fn sent_ten() -> (Rack, Scoreboard) {
        let mut board = Scoreboard::new(100, LossRule::SackedAbove(3));
        let mut rack = Rack::default();
        board.sent_up_to(1000);
        for s in 0..10 {
            let stamp = rack.sent(s, s * MS);
            board.record_send(s, stamp, false);
        }
        (rack, board)
    }

    fn deliver(rack: &mut Rack, board: &mut Scoreboard, segment: u64, now: Time) {
        board.sack(segment * 100, segment * 100 + 100);
        let d = board.take_delivered().expect("newly delivered");
        rack.update(d, now);
    }

    #[test]
    fn one_later_delivery_condemns_a_hole_once_an_rtt_has_passed() {
        // Segment 0 lost; segment 1's SACK arrives at 501 ms (RTT 500 ms).
        let (mut rack, mut board) = sent_ten();
        deliver(&mut rack, &mut board, 1, 501 * MS);
        let verdict = rack.detect(&mut board, 0, 501 * MS);
        assert_eq!(verdict.lost, 1, "sent 1 ms before a delivered segment, 500 ms ago");
        assert!(board.is_lost(0), "the duplicate-ACK rule would still wait for two more SACKs");
        assert!(!board.is_lost(2), "sent after the newest delivered segment");
    }

    #[test]
    fn the_reordering_window_delays_the_verdict_and_asks_for_a_timer() {
        let (mut rack, mut board) = sent_ten();
        deliver(&mut rack, &mut board, 1, 501 * MS);
        let reo_wnd = rack.reorder_window(&board, false, Some(500 * MS));
        assert_eq!(reo_wnd, 125 * MS, "min_RTT / 4 with one SACKed segment and no recovery");
        let verdict = rack.detect(&mut board, reo_wnd, 501 * MS);
        assert_eq!(verdict, Verdict { lost: 0, recheck_at: Some(625 * MS) });
        assert_eq!(rack.detect(&mut board, reo_wnd, 625 * MS).lost, 1);
        assert_eq!(rack.reorder_window(&board, true, Some(500 * MS)), 0, "in recovery without reordering");
    }

    #[test]
    fn a_lost_retransmission_is_found_by_a_later_delivery() {
        let (mut rack, mut board) = sent_ten();
        for s in 1..10 {
            deliver(&mut rack, &mut board, s, (500 + s) * MS);
        }
        assert_eq!(rack.detect(&mut board, 0, 509 * MS).lost, 1);
        // Segment 0 resent at 510 ms, then new segment 10 at 511 ms.
        board.mark_retransmitted(0, 1000);
        let stamp = rack.sent(0, 510 * MS);
        board.record_send(0, stamp, true);
        board.sent_up_to(1100);
        let stamp = rack.sent(10, 511 * MS);
        board.record_send(10, stamp, false);
        assert_eq!(board.next_lost(0), None, "being retransmitted");
        // Segment 10 arrives; the resent 0 does not.
        deliver(&mut rack, &mut board, 10, 1011 * MS);
        assert_eq!(rack.detect(&mut board, 0, 1011 * MS).lost, 1);
        assert_eq!(board.next_lost(0), Some(0), "resent again");
        assert!(board.counts_agree());
    }

    #[test]
    fn an_ambiguous_delivery_does_not_move_the_clock() {
        let (mut rack, mut board) = sent_ten();
        deliver(&mut rack, &mut board, 5, 505 * MS);
        board.mark_retransmitted(0, 1000);
        board.record_send(0, 600 * MS, true);
        // 20 ms after the resend, less than the minimum RTT: the ACK was for the first transmission.
        board.acked_up_to(100);
        let d = board.take_delivered().unwrap();
        rack.update(d, 620 * MS);
        assert_eq!(rack.newest, Some((5 * MS, 600)), "RACK stays on segment 5");
    }

    #[test]
    fn a_late_original_is_reordering() {
        let (mut rack, mut board) = sent_ten();
        deliver(&mut rack, &mut board, 3, 503 * MS);
        deliver(&mut rack, &mut board, 1, 504 * MS);
        assert!(board.reordering_seen);
        assert_eq!(rack.reorder_window(&board, true, Some(500 * MS)), 125 * MS);
    }
}
