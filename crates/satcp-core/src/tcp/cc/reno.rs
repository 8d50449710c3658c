//! Reno's AIMD window (RFC 5681 §3.1): slow start, congestion avoidance,
//! halving on loss. Shared by Tahoe, Reno and NewReno, which differ only in
//! loss recovery.

use super::{halve, Ack, Controller, Loss, Window};

#[derive(Clone, Debug, Default)]
pub struct Reno;

/// RFC 5681 growth, for the controllers that grow as Reno does.
pub(crate) fn grow(w: &mut Window, acked: u64) {
    if w.in_slow_start() {
        //= rfc5681#section-3.1
        //# During slow start, a TCP increments cwnd by at most SMSS bytes for
        //# each ACK received that cumulatively acknowledges new data.
        //#    cwnd += min (N, SMSS)                      (2)
        w.cwnd += acked.min(w.mss);
    } else {
        //= rfc5681#section-3.1
        //#    cwnd += SMSS*SMSS/cwnd                     (3)
        //# ... if the above formula yields 0, the result SHOULD be rounded up to 1 byte.
        w.cwnd += (w.mss * w.mss / w.cwnd).max(1);
    }
}

impl Controller for Reno {
    fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        grow(w, ack.acked);
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        halve(w, loss.flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ack, loss};
    use super::super::Congestion;
    use super::*;

    #[test]
    fn slow_start_adds_at_most_one_mss_per_ack() {
        let mut w = Window { cwnd: 1000, ssthresh: u64::MAX, mss: 1000 };
        Reno.on_ack(&mut w, &ack(2000, 0));
        assert_eq!(w.cwnd, 2000, "a stretch ACK of two segments still adds one SMSS");
        Reno.on_ack(&mut w, &ack(500, 0));
        assert_eq!(w.cwnd, 2500);
    }

    #[test]
    fn congestion_avoidance_adds_one_mss_per_window() {
        let mut w = Window { cwnd: 10_000, ssthresh: 5_000, mss: 1000 };
        for _ in 0..10 {
            Reno.on_ack(&mut w, &ack(1000, 0));
        }
        // Ten ACKs of one segment each: about one SMSS in total.
        assert!((10_900..=11_000).contains(&w.cwnd), "{}", w.cwnd);
    }

    #[test]
    fn halving_keeps_two_segments() {
        let w = Window { cwnd: 10_000, ssthresh: 5_000, mss: 1000 };
        assert_eq!(Reno.ssthresh_after_loss(&w, &loss(Congestion::FastRetransmit, 10_000)), 5_000);
        assert_eq!(Reno.ssthresh_after_loss(&w, &loss(Congestion::Timeout, 1_000)), 2_000);
    }
}
