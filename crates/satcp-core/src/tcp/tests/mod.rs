//! Segment-level tests in the smoltcp style: feed ACKs or segments in,
//! assert exactly what comes out.

mod rack;
mod sack;

use super::cc::CcKind;
use super::receiver::{Receiver, ReceiverConfig};
use super::recovery::{PartialAckTimer, RecoveryKind};
use super::rto::RtoConfig;
use super::sender::{Sender, SenderConfig};
use crate::packet::{Kind, Packet};
use crate::time::{Time, NS_PER_MS, NS_PER_S};

pub(super) const MSS: u64 = 1000;

pub(super) fn sender_config(recovery: RecoveryKind, initial_cwnd: u32) -> SenderConfig {
    SenderConfig {
        flow: 0,
        dst: 1,
        mss: MSS as u32,
        initial_cwnd,
        initial_ssthresh: u64::MAX,
        recovery,
        cc: CcKind::Reno,
        cc_params: Default::default(),
        seed: 1,
        timestamps: false,
        window_scaling: true,
        sack: false,
        handshake: false,
        limited_transmit: false,
        byte_counting: false,
        rack: false,
        partial_ack_timer: PartialAckTimer::Impatient,
        bytes: 0,
        rto: RtoConfig::default(),
        assumed_peer_window: 1 << 30,
    }
}

/// A sender plus the world's side of its timer: it keeps the RTO event the
/// event queue would hold.
pub(super) struct Harness {
    pub(super) sender: Sender,
    pub(super) now: Time,
    pub(super) rto_event: Option<(Time, u32)>,
}

impl Harness {
    pub(super) fn new(config: SenderConfig) -> Harness {
        let mut h = Harness { sender: Sender::new(config), now: 0, rto_event: None };
        let out = h.call(|s, now, out| s.start(now, out));
        assert!(!out.is_empty());
        h
    }

    /// A harness whose caller starts the connection itself.
    fn new_quiet(config: SenderConfig) -> Harness {
        Harness { sender: Sender::new(config), now: 0, rto_event: None }
    }

    pub(super) fn call(&mut self, f: impl FnOnce(&mut Sender, Time, &mut Vec<Packet>)) -> Vec<Packet> {
        let mut out = Vec::new();
        f(&mut self.sender, self.now, &mut out);
        if let Some(event) = self.sender.rto_timer.schedule_request() {
            self.rto_event = Some(event);
        }
        out
    }

    pub(super) fn ack(&mut self, ack: u64) -> Vec<Packet> {
        let packet = Packet { flow: 0, kind: Kind::Ack, dst: 0, seq: 0, len: 0, ack, wnd: 1 << 30, size: 40, ts: None, sack: Default::default(), ceten: None };
        self.call(|s, now, out| s.on_ack(now, &packet, out))
    }

    pub(super) fn ack_at(&mut self, at: Time, ack: u64) -> Vec<Packet> {
        self.now = at;
        self.ack(ack)
    }

    /// Advances time to the pending RTO event and fires it, as the event loop would.
    pub(super) fn expire_rto(&mut self) -> Vec<Packet> {
        loop {
            let (at, generation) = self.rto_event.take().expect("an RTO event is pending");
            self.now = at;
            let before = self.sender.stats.timeouts;
            let out = self.call(|s, now, out| s.on_rto(now, generation, out));
            if self.sender.stats.timeouts > before {
                return out;
            }
        }
    }
}

/// (seq, len) of each data segment, for compact assertions.
pub(super) fn segments(out: &[Packet]) -> Vec<(u64, u32)> {
    out.iter().filter(|p| p.kind == Kind::Data).map(|p| (p.seq, p.len)).collect()
}

pub(super) fn seg(n: u64) -> (u64, u32) {
    (n * MSS, MSS as u32)
}

#[test]
fn initial_window_is_sent_at_once() {
    let mut h = Harness { sender: Sender::new(sender_config(RecoveryKind::Reno, 3)), now: 0, rto_event: None };
    let out = h.call(|s, now, out| s.start(now, out));
    assert_eq!(segments(&out), vec![seg(0), seg(1), seg(2)]);
    assert_eq!(h.rto_event.map(|e| e.0), Some(NS_PER_S), "RFC 6298 (2.1): initial RTO of 1 s");
}

#[test]
fn slow_start_adds_one_segment_per_ack() {
    let mut h = Harness::new(sender_config(RecoveryKind::Reno, 2));
    // ACK of segment 0: cwnd 2 -> 3 MSS; one slot freed, one added: two new segments.
    assert_eq!(segments(&h.ack_at(100, MSS)), vec![seg(2), seg(3)]);
    assert_eq!(h.sender.window.cwnd, 3 * MSS);
    // A delayed ACK covering two segments still adds only one SMSS (RFC 5681 eq. 2).
    assert_eq!(segments(&h.ack_at(200, 3 * MSS)), vec![seg(4), seg(5), seg(6)]);
    assert_eq!(h.sender.window.cwnd, 4 * MSS);
}

#[test]
fn congestion_avoidance_adds_about_one_segment_per_rtt() {
    let mut config = sender_config(RecoveryKind::Reno, 10);
    config.initial_ssthresh = 5 * MSS;
    let mut h = Harness::new(config);
    let start = h.sender.window.cwnd;
    // One window of per-segment ACKs.
    for i in 1..=10 {
        h.ack_at(i * NS_PER_MS, i * MSS);
    }
    let grown = h.sender.window.cwnd - start;
    assert!((900..=1000).contains(&grown), "grew {grown} bytes in one RTT");
}

/// Growth over one window of delayed ACKs (each covering two segments).
fn growth_with_delayed_acks(byte_counting: bool, initial_ssthresh: u64) -> u64 {
    let mut config = sender_config(RecoveryKind::Reno, 10);
    config.initial_ssthresh = initial_ssthresh;
    config.byte_counting = byte_counting;
    let mut h = Harness::new(config);
    let start = h.sender.window.cwnd;
    for i in 1..=5 {
        h.ack_at(i * NS_PER_MS, 2 * i * MSS);
    }
    h.sender.window.cwnd - start
}

#[test]
fn delayed_acks_halve_avoidance_unless_bytes_are_counted() {
    // RFC 5681 eq. 3 per ACK: five ACKs for ten segments add about half a segment.
    let per_ack = growth_with_delayed_acks(false, 5 * MSS);
    assert!((450..=500).contains(&per_ack), "per-ACK growth {per_ack}");
    // RFC 3465: growth per segment acknowledged, about one segment per window.
    let counted = growth_with_delayed_acks(true, 5 * MSS);
    assert!((900..=1000).contains(&counted), "byte-counted growth {counted}");
}

#[test]
fn byte_counting_slow_start_adds_two_segments_per_delayed_ack() {
    // RFC 3465 §2.2 with L = 2: an ACK of two segments adds two, not one.
    assert_eq!(growth_with_delayed_acks(false, u64::MAX), 5 * MSS);
    assert_eq!(growth_with_delayed_acks(true, u64::MAX), 10 * MSS);
}

/// Sends ten segments and returns a harness whose first segment (1) is lost:
/// the ACK of segment 0 arrives, then duplicates.
fn after_first_ack(recovery: RecoveryKind) -> Harness {
    let mut config = sender_config(recovery, 10);
    config.initial_ssthresh = 8 * MSS; // leave slow start early so the ACK adds little
    let mut h = Harness::new(config);
    h.ack_at(10, MSS);
    h
}

#[test]
fn fast_retransmit_on_the_third_duplicate_ack() {
    let mut h = after_first_ack(RecoveryKind::Reno);
    let flight = h.sender.flight_size();
    assert!(segments(&h.ack_at(20, MSS)).is_empty(), "first duplicate");
    assert!(segments(&h.ack_at(30, MSS)).is_empty(), "second duplicate");
    let out = h.ack_at(40, MSS);
    assert_eq!(segments(&out), vec![seg(1)], "third duplicate retransmits SND.UNA");
    assert_eq!(h.sender.window.ssthresh, flight / 2);
    assert_eq!(h.sender.window.cwnd, flight / 2 + 3 * MSS);
    assert_eq!(h.sender.stats.fast_retransmits, 1);
    assert_eq!(h.sender.stats.retransmits, 1);
}

#[test]
fn duplicates_inflate_the_window_until_new_data_can_go() {
    let mut h = after_first_ack(RecoveryKind::Reno);
    for t in 0..3 {
        h.ack_at(20 + t, MSS);
    }
    let cwnd = h.sender.window.cwnd;
    let flight = h.sender.flight_size();
    let mut sent = Vec::new();
    for t in 0..8 {
        sent.extend(segments(&h.ack_at(30 + t, MSS)));
    }
    assert_eq!(h.sender.window.cwnd, cwnd + 8 * MSS);
    // New segments go out once the inflated window exceeds what is outstanding.
    let expected_new = ((cwnd + 8 * MSS).saturating_sub(flight) / MSS) as usize;
    assert_eq!(sent.len(), expected_new);
    assert!(sent.iter().all(|&(seq, _)| seq >= h.sender.snd_max - expected_new as u64 * MSS));
}

#[test]
fn reno_leaves_fast_recovery_on_the_next_new_ack() {
    let mut h = after_first_ack(RecoveryKind::Reno);
    for t in 0..3 {
        h.ack_at(20 + t, MSS);
    }
    let ssthresh = h.sender.window.ssthresh;
    // A partial ACK: Reno deflates and leaves recovery anyway, retransmitting nothing.
    let out = h.ack_at(50, 3 * MSS);
    assert!(!h.sender.recovery.in_fast_recovery);
    assert_eq!(h.sender.window.cwnd, ssthresh);
    assert!(segments(&out).iter().all(|&(seq, _)| seq >= 10 * MSS), "only new data: {:?}", segments(&out));
}

#[test]
fn newreno_retransmits_on_a_partial_ack_and_stays_in_recovery() {
    let mut h = after_first_ack(RecoveryKind::NewReno);
    for t in 0..3 {
        h.ack_at(20 + t, MSS);
    }
    let cwnd = h.sender.window.cwnd;
    // Segments 1 and 3 were lost: the retransmission of 1 brings an ACK up to 3.
    let out = h.ack_at(50, 3 * MSS);
    assert_eq!(segments(&out)[0], seg(3), "partial ACK retransmits the next hole");
    assert!(h.sender.recovery.in_fast_recovery);
    // RFC 6582: deflate by the 2 MSS acknowledged, add back one SMSS.
    assert_eq!(h.sender.window.cwnd, cwnd - 2 * MSS + MSS);
    assert_eq!(h.sender.stats.retransmits, 2);
}

#[test]
fn newreno_full_ack_ends_recovery() {
    let mut h = after_first_ack(RecoveryKind::NewReno);
    for t in 0..3 {
        h.ack_at(20 + t, MSS);
    }
    let ssthresh = h.sender.window.ssthresh;
    let recover = h.sender.recovery.recover.unwrap();
    let flight_after = h.sender.snd_max - recover;
    h.ack_at(60, recover);
    assert!(!h.sender.recovery.in_fast_recovery);
    // RFC 6582 option (1): min(ssthresh, max(FlightSize, SMSS) + SMSS).
    assert_eq!(h.sender.window.cwnd, ssthresh.min(flight_after.max(MSS) + MSS));
}

#[test]
fn newreno_does_not_fast_retransmit_again_below_recover() {
    let mut h = after_first_ack(RecoveryKind::NewReno);
    let out = h.expire_rto();
    assert_eq!(segments(&out), vec![seg(1)]);
    // Duplicate ACKs for data sent before the timeout must not trigger a second halving.
    let ssthresh = h.sender.window.ssthresh;
    for t in 0..3 {
        h.ack_at(h.now + 1 + t, MSS);
    }
    assert_eq!(h.sender.stats.fast_retransmits, 0);
    assert_eq!(h.sender.window.ssthresh, ssthresh);
}

#[test]
fn tahoe_restarts_from_one_segment() {
    let mut h = after_first_ack(RecoveryKind::Tahoe);
    let flight = h.sender.flight_size();
    h.ack_at(20, MSS);
    h.ack_at(30, MSS);
    let out = h.ack_at(40, MSS);
    assert_eq!(segments(&out), vec![seg(1)], "go-back-N from SND.UNA with cwnd = 1 MSS");
    assert_eq!(h.sender.window.cwnd, MSS);
    assert_eq!(h.sender.window.ssthresh, flight / 2);
    // The next ACK slow-starts and resends the following segments.
    assert_eq!(segments(&h.ack_at(50, 2 * MSS)), vec![seg(2), seg(3)]);
}

#[test]
fn timeout_backs_off_and_goes_back_to_snd_una() {
    let mut h = Harness::new(sender_config(RecoveryKind::NewReno, 4));
    let out = h.expire_rto();
    assert_eq!(h.now, NS_PER_S);
    assert_eq!(segments(&out), vec![seg(0)], "cwnd = LW = 1 segment");
    assert_eq!(h.sender.window.cwnd, MSS);
    assert_eq!(h.sender.window.ssthresh, 2 * MSS, "max(FlightSize/2, 2*SMSS)");
    h.expire_rto();
    assert_eq!(h.now, 3 * NS_PER_S, "RTO doubled to 2 s");
    assert_eq!(h.sender.window.ssthresh, 2 * MSS, "held on a repeated timeout");
    h.expire_rto();
    assert_eq!(h.now, 7 * NS_PER_S, "RTO doubled to 4 s");
    assert_eq!(h.sender.stats.timeouts, 3);
}

#[test]
fn karn_takes_no_sample_from_a_retransmitted_segment() {
    let mut h = Harness::new(sender_config(RecoveryKind::NewReno, 1));
    h.expire_rto();
    h.ack_at(h.now + 100 * NS_PER_MS, MSS);
    assert_eq!(h.sender.rtt.srtt(), None, "the ACK is ambiguous");
    assert_eq!(h.sender.rtt.backoffs(), 1, "backoff kept until a valid sample");
    // Segments sent after the retransmission are timed normally.
    let sent_at = h.now;
    h.ack_at(sent_at + 500 * NS_PER_MS, 2 * MSS);
    assert_eq!(h.sender.rtt.srtt(), Some(500 * NS_PER_MS));
    assert_eq!(h.sender.rtt.backoffs(), 0);
}

#[test]
fn retransmission_timer_restarts_on_new_data_and_stops_when_all_is_acked() {
    let mut config = sender_config(RecoveryKind::NewReno, 2);
    config.bytes = 2 * MSS;
    let mut h = Harness::new(config);
    h.ack_at(300 * NS_PER_MS, MSS);
    let rto = h.sender.rtt.rto();
    assert_eq!(h.sender.rto_timer.deadline(), Some(300 * NS_PER_MS + rto), "RFC 6298 (5.3)");
    h.ack_at(400 * NS_PER_MS, 2 * MSS);
    assert_eq!(h.sender.rto_timer.deadline(), None, "RFC 6298 (5.2)");
}

#[test]
fn the_peer_window_limits_what_is_in_flight() {
    let mut config = sender_config(RecoveryKind::NewReno, 10);
    config.assumed_peer_window = 3 * MSS;
    let mut h = Harness { sender: Sender::new(config), now: 0, rto_event: None };
    let out = h.call(|s, now, out| s.start(now, out));
    assert_eq!(segments(&out), vec![seg(0), seg(1), seg(2)]);
}

#[test]
fn handshake_samples_the_rtt_before_data() {
    let mut config = sender_config(RecoveryKind::NewReno, 2);
    config.handshake = true;
    let mut h = Harness { sender: Sender::new(config), now: 0, rto_event: None };
    let out = h.call(|s, now, out| s.start(now, out));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].kind, Kind::Syn);
    h.now = 600 * NS_PER_MS;
    let syn_ack = Packet { flow: 0, kind: Kind::SynAck, dst: 0, seq: 0, len: 0, ack: 0, wnd: 65_535, size: 48, ts: None, sack: Default::default(), ceten: None };
    let out = h.call(|s, now, out| s.on_ack(now, &syn_ack, out));
    assert_eq!(segments(&out), vec![seg(0), seg(1)]);
    assert_eq!(h.sender.rtt.srtt(), Some(600 * NS_PER_MS));
}

#[test]
fn lost_syn_means_an_initial_window_of_one_segment() {
    let mut config = sender_config(RecoveryKind::NewReno, 10);
    config.handshake = true;
    let mut h = Harness { sender: Sender::new(config), now: 0, rto_event: None };
    h.call(|s, now, out| s.start(now, out));
    let out = h.expire_rto();
    assert_eq!(out[0].kind, Kind::Syn);
    let syn_ack = Packet { flow: 0, kind: Kind::SynAck, dst: 0, seq: 0, len: 0, ack: 0, wnd: 1 << 20, size: 48, ts: None, sack: Default::default(), ceten: None };
    h.now += 600 * NS_PER_MS;
    let out = h.call(|s, now, out| s.on_ack(now, &syn_ack, out));
    assert_eq!(segments(&out), vec![seg(0)], "RFC 5681 §3.1");
    assert_eq!(h.sender.rtt.rto(), 3 * NS_PER_S, "RFC 6298 (5.7)");
}

// ---- receiver ----

fn receiver(delayed_ack: u32) -> Receiver {
    Receiver::new(ReceiverConfig {
        flow: 0,
        dst: 0,
        buffer: 64_000,
        window_scaling: true,
        timestamps: false,
        delayed_ack,
        delayed_ack_timeout: 200 * NS_PER_MS,
        delayed_ack_tick: 0,
        sack: false,
        expected_bytes: 0,
        ceten_option_bytes: None,
    })
}

fn data(n: u64) -> Packet {
    Packet { flow: 0, kind: Kind::Data, dst: 1, seq: n * MSS, len: MSS as u32, ack: 0, wnd: 0, size: 1040, ts: None, sack: Default::default(), ceten: None }
}

fn acks(out: &[Packet]) -> Vec<u64> {
    out.iter().filter(|p| p.kind == Kind::Ack).map(|p| p.ack).collect()
}

#[test]
fn delayed_ack_every_second_segment() {
    let mut r = receiver(2);
    let mut out = Vec::new();
    r.on_segment(0, &data(0), &mut out);
    assert!(out.is_empty());
    assert_eq!(r.delayed_ack_timer.deadline(), Some(200 * NS_PER_MS));
    r.on_segment(1, &data(1), &mut out);
    assert_eq!(acks(&out), vec![2 * MSS]);
    assert_eq!(r.delayed_ack_timer.deadline(), None);
}

#[test]
fn delayed_ack_timer_acks_a_lone_segment() {
    let mut r = receiver(2);
    let mut out = Vec::new();
    r.on_segment(0, &data(0), &mut out);
    let (at, generation) = r.delayed_ack_timer.schedule_request().unwrap();
    assert_eq!(at, 200 * NS_PER_MS);
    r.on_delayed_ack_timer(at, generation, &mut out);
    assert_eq!(acks(&out), vec![MSS]);
}

#[test]
fn out_of_order_data_is_acked_at_once_and_a_filled_gap_too() {
    let mut r = receiver(2);
    let mut out = Vec::new();
    r.on_segment(0, &data(0), &mut out);
    r.on_segment(1, &data(2), &mut out);
    r.on_segment(2, &data(3), &mut out);
    assert_eq!(acks(&out), vec![MSS, MSS], "immediate duplicate ACKs");
    assert_eq!(r.out_of_order, vec![(2 * MSS, 4 * MSS)]);
    out.clear();
    r.on_segment(3, &data(1), &mut out);
    assert_eq!(acks(&out), vec![4 * MSS], "the gap filled: one cumulative ACK at once");
    assert_eq!(r.bytes_delivered(), 4 * MSS);
    assert!(r.out_of_order.is_empty());
}

#[test]
fn an_old_duplicate_is_acked_at_once() {
    let mut r = receiver(2);
    let mut out = Vec::new();
    r.on_segment(0, &data(0), &mut out);
    r.on_segment(1, &data(1), &mut out);
    out.clear();
    r.on_segment(2, &data(0), &mut out);
    assert_eq!(acks(&out), vec![2 * MSS]);
}

#[test]
fn out_of_order_ranges_merge() {
    let mut r = receiver(1);
    let mut out = Vec::new();
    for n in [5, 3, 7, 4, 6] {
        r.on_segment(0, &data(n), &mut out);
    }
    assert_eq!(r.out_of_order, vec![(3 * MSS, 8 * MSS)]);
    r.on_segment(0, &data(1), &mut out);
    assert_eq!(r.out_of_order, vec![(MSS, 2 * MSS), (3 * MSS, 8 * MSS)]);
}

#[test]
fn timestamps_echo_the_earliest_unacknowledged_segment() {
    let mut r = Receiver::new(ReceiverConfig { timestamps: true, ..receiver(2).config().clone() });
    let mut out = Vec::new();
    let mut first = data(0);
    first.ts = Some((100, 0));
    let mut second = data(1);
    second.ts = Some((200, 0));
    r.on_segment(150, &first, &mut out);
    r.on_segment(250, &second, &mut out);
    //= rfc7323#section-4.3
    //# the timestamp echoed ... is the one from the earliest segment not yet acknowledged
    assert_eq!(out[0].ts, Some((250, 100)));
    assert_eq!(out[0].size, 52, "12 option bytes on the wire");
}

// ---- RFC 6582 timer variants and RFC 3042 limited transmit ----

fn in_fast_recovery(timer: PartialAckTimer) -> Harness {
    let mut config = sender_config(RecoveryKind::NewReno, 10);
    config.initial_ssthresh = 8 * MSS;
    config.partial_ack_timer = timer;
    let mut h = Harness::new(config);
    h.ack_at(10, MSS);
    for t in 0..3 {
        h.ack_at(20 + t, MSS);
    }
    h
}

#[test]
fn impatient_newreno_restarts_the_timer_on_the_first_partial_ack_only() {
    let mut h = in_fast_recovery(PartialAckTimer::Impatient);
    h.ack_at(100, 3 * MSS);
    let first = h.sender.rto_timer.deadline();
    assert_eq!(first, Some(100 + h.sender.rtt.rto()));
    h.ack_at(200, 5 * MSS);
    assert_eq!(h.sender.rto_timer.deadline(), first, "second partial ACK leaves the timer alone");
}

#[test]
fn slow_but_steady_newreno_restarts_the_timer_on_every_partial_ack() {
    let mut h = in_fast_recovery(PartialAckTimer::SlowButSteady);
    h.ack_at(100, 3 * MSS);
    h.ack_at(200, 5 * MSS);
    assert_eq!(h.sender.rto_timer.deadline(), Some(200 + h.sender.rtt.rto()));
}

#[test]
fn limited_transmit_sends_on_the_first_two_duplicates() {
    let mut config = sender_config(RecoveryKind::NewReno, 4);
    config.initial_ssthresh = 4 * MSS;
    config.limited_transmit = true;
    let mut h = Harness::new(config);
    // Segment 0 lost; 1..3 arrive and produce three duplicate ACKs of 0.
    let flight = h.sender.flight_size();
    assert_eq!(segments(&h.ack_at(10, 0)), vec![seg(4)], "cwnd + 1 SMSS");
    assert_eq!(segments(&h.ack_at(20, 0)), vec![seg(5)], "cwnd + 2 SMSS");
    assert_eq!(h.sender.window.cwnd, 4 * MSS, "cwnd unchanged");
    assert_eq!(segments(&h.ack_at(30, 0)), vec![seg(0)]);
    assert_eq!(h.sender.window.ssthresh, (flight / 2).max(2 * MSS), "limited-transmit bytes left out");
}

#[test]
fn cumulative_acks_follow_hayes_table_2_1() {
    // Hayes 1997 Table 2.1, segment numbers: 3, 4, 6, 7, 5 arrive; ACKs 4, 5, 5, 5, 8.
    let mut r = receiver(1);
    let mut out = Vec::new();
    for n in 0..3 {
        r.on_segment(0, &data(n), &mut out);
    }
    let mut ack_for = |n: u64| {
        let mut out = Vec::new();
        r.on_segment(0, &data(n), &mut out);
        acks(&out)
    };
    let got: Vec<Vec<u64>> = [3, 4, 6, 7, 5].into_iter().map(&mut ack_for).collect();
    let expected: Vec<Vec<u64>> = [4, 5, 5, 5, 8].into_iter().map(|n| vec![n * MSS]).collect();
    assert_eq!(got, expected);
}
