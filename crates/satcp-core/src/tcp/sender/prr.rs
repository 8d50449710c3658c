//! Proportional Rate Reduction (RFC 6937): during SACK recovery, send in
//! proportion to what the receiver reports delivered, so the window comes
//! down to ssthresh smoothly instead of all at once. Linux and ns-3
//! (`TcpPrrRecovery`, its default) recover this way; the reduction bound
//! here is PRR-SSRB, as both use.

#[derive(Clone, Copy, Debug, Default)]
pub struct Prr {
    /// Bytes the receiver reported delivered (cumulatively or SACKed) since recovery began.
    delivered: u64,
    /// Bytes sent since recovery began.
    out: u64,
    /// FlightSize when recovery began.
    recover_fs: u64,
}

impl Prr {
    //= rfc6937#section-3.1
    //# prr_delivered = 0; prr_out = 0; RecoverFS = snd.nxt - snd.una
    pub fn start(flight: u64) -> Prr {
        Prr { delivered: 0, out: 0, recover_fs: flight.max(1) }
    }

    pub fn sent(&mut self, bytes: u64) {
        //# On any data transmission or retransmission: prr_out += (data sent)
        self.out += bytes;
    }

    /// The window for this ACK: pipe plus what PRR lets go out now.
    pub fn cwnd(&mut self, delivered_now: u64, pipe: u64, ssthresh: u64, mss: u64) -> u64 {
        //# prr_delivered += DeliveredData
        self.delivered += delivered_now;
        let sndcnt = if pipe > ssthresh {
            //# sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out
            (self.delivered * ssthresh).div_ceil(self.recover_fs).saturating_sub(self.out)
        } else {
            //# limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS
            //# sndcnt = MIN(ssthresh - pipe, limit)
            let limit = self.delivered.saturating_sub(self.out).max(delivered_now) + mss;
            (ssthresh - pipe).min(limit)
        };
        //# cwnd = pipe + sndcnt
        pipe + sndcnt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_the_sending_rate_while_pipe_exceeds_ssthresh() {
        // RFC 6937 §5's example: 20 segments in flight, ssthresh 10: one
        // segment out for every two delivered.
        let mss = 1000;
        let mut prr = Prr::start(20 * mss);
        let mut sent = 0;
        for delivered in 1..=10u64 {
            let pipe = (20 - delivered) * mss + sent * mss;
            let cwnd = prr.cwnd(mss, pipe, 10 * mss, mss);
            let allowed = cwnd.saturating_sub(pipe) / mss;
            prr.sent(allowed * mss);
            sent += allowed;
        }
        assert_eq!(sent, 5, "ten segments delivered, five sent");
    }

    #[test]
    fn slow_starts_back_to_ssthresh_when_pipe_falls_below() {
        let mss = 1000;
        let mut prr = Prr::start(20 * mss);
        // Heavy loss: pipe already 4 segments below ssthresh; SSRB allows
        // what was delivered plus one segment.
        let cwnd = prr.cwnd(2 * mss, 6 * mss, 10 * mss, mss);
        assert_eq!(cwnd, 6 * mss + 3 * mss);
    }
}
