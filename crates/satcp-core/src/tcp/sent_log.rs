//! Per-segment send records, for the controllers that need them: Vegas's
//! fine-grained clock (B&P 1995 §3.1: "reads and records the system clock
//! each time a segment is sent") and BBR's delivery-rate samples
//! (draft-cheng-iccrg-delivery-rate-estimation). Kept only for those
//! controllers; the deque reaches the window's size and stays there, so
//! sending does not allocate once the window stops growing.

use std::collections::VecDeque;

use super::cc::RateSample;
use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SentRecord {
    /// One past the segment's last byte.
    pub end: u64,
    pub sent_at: Time,
    pub retransmitted: bool,
    /// The sender's delivered count, and when it last grew, at send time.
    pub delivered: u64,
    pub delivered_at: Time,
    /// Send time of the first segment of the flight this one belongs to.
    pub first_sent_at: Time,
}

/// The connection-level delivery state of the rate estimator.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Delivery {
    pub delivered: u64,
    pub delivered_at: Time,
    pub first_sent_at: Time,
}

#[derive(Clone, Debug, Default)]
pub struct SentLog {
    records: VecDeque<SentRecord>,
    pub delivery: Delivery,
}

impl SentLog {
    /// A segment [seq, end) leaves now; `nothing_in_flight` restarts the rate's clock.
    pub fn on_send(&mut self, end: u64, now: Time, nothing_in_flight: bool) {
        //= draft-cheng-iccrg-delivery-rate-estimation#section-3.2
        //# if (SND.NXT == SND.UNA)  /* no packets in flight yet? */
        //#   C.first_sent_time  = C.delivered_time = Now()
        if nothing_in_flight {
            self.delivery.first_sent_at = now;
            self.delivery.delivered_at = now;
        }
        let record = SentRecord {
            end,
            sent_at: now,
            retransmitted: false,
            delivered: self.delivery.delivered,
            delivered_at: self.delivery.delivered_at,
            first_sent_at: self.delivery.first_sent_at,
        };
        match self.records.back() {
            Some(last) if last.end >= end => {
                let at = self.records.partition_point(|r| r.end < end);
                if let Some(r) = self.records.get_mut(at).filter(|r| r.end == end) {
                    *r = SentRecord { retransmitted: true, ..record };
                }
            }
            _ => self.records.push_back(record),
        }
    }

    /// The record of the segment holding byte `seq`.
    pub fn get(&self, seq: u64) -> Option<&SentRecord> {
        let at = self.records.partition_point(|r| r.end <= seq);
        self.records.get(at)
    }

    /// Drops records the cumulative ACK covers; returns the newest of them.
    pub fn acked_up_to(&mut self, ack: u64) -> Option<SentRecord> {
        let mut newest = None;
        while self.records.front().is_some_and(|r| r.end <= ack) {
            newest = self.records.pop_front();
        }
        newest
    }

    /// Bytes delivered grew to `delivered` at `now`; `newest` is the most
    /// recently sent segment this ACK delivered. Returns the rate sample.
    pub fn sample(&mut self, delivered: u64, now: Time, newest: Option<SentRecord>) -> Option<RateSample> {
        if delivered > self.delivery.delivered {
            self.delivery.delivered = delivered;
            self.delivery.delivered_at = now;
        }
        let p = newest?;
        //= draft-cheng-iccrg-delivery-rate-estimation#section-3.3
        //# C.first_sent_time = P.send_time
        //# rs.interval = max(send_elapsed, ack_elapsed)
        self.delivery.first_sent_at = p.sent_at;
        let send_elapsed = p.sent_at - p.first_sent_at;
        let ack_elapsed = now - p.delivered_at;
        let interval = send_elapsed.max(ack_elapsed);
        (interval > 0).then_some(RateSample { delivered: self.delivery.delivered - p.delivered, interval, prior_delivered: p.delivered })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retransmission_overwrites_the_record() {
        let mut log = SentLog::default();
        for i in 0..4 {
            log.on_send((i + 1) * 1000, i * 10, i == 0);
        }
        log.on_send(2000, 100, false);
        let r = log.get(1500).unwrap();
        assert_eq!((r.sent_at, r.retransmitted), (100, true));
        assert!(!log.get(2500).unwrap().retransmitted);
        assert_eq!(log.acked_up_to(3000).map(|r| r.end), Some(3000));
        assert_eq!(log.get(500).map(|r| r.end), Some(4000));
    }

    #[test]
    fn rate_is_delivered_bytes_over_the_longer_of_send_and_ack_intervals() {
        let mut log = SentLog::default();
        // Ten segments sent 1 ms apart; each ACKed 100 ms after it left.
        for i in 0..10u64 {
            log.on_send((i + 1) * 1000, i * 1_000_000, i == 0);
        }
        let mut last = None;
        for i in 0..10u64 {
            let newest = log.acked_up_to((i + 1) * 1000);
            last = log.sample((i + 1) * 1000, 100_000_000 + i * 1_000_000, newest);
        }
        let rs = last.unwrap();
        // The last segment was sent with 0 delivered at t = 9 ms; 10,000 bytes
        // delivered by 109 ms: ack_elapsed 109 ms (delivered_at was 0).
        assert_eq!(rs.delivered, 10_000);
        assert_eq!(rs.interval, 109_000_000);
    }
}
