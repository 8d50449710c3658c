//! Segment-level tests of the sender's congestion-control hooks: Vegas's
//! fine-grained retransmission, CETEN-R's corruption path, BBR's pacing,
//! TCP-ADaLR's RTO offset and retransmission limit, CETEN-R's option bytes.

use super::cc::CcKind;
use super::recovery::{RecoveryKind, SackStyle};
use super::tests::{seg, segments, sender_config, Harness, MSS};
use crate::packet::{CetenOption, Kind, Packet};
use crate::time::{NS_PER_MS, NS_PER_S};

/// Ten segments out at 0, acknowledged one by one 500 ms later.
fn vegas_after_a_window(cc: CcKind) -> Harness {
    let mut config = sender_config(RecoveryKind::Reno, 10);
    config.cc = cc;
    let mut h = Harness::new(config);
    for i in 1..=10 {
        h.ack_at(500 * NS_PER_MS + i * NS_PER_MS, i * MSS);
    }
    h
}

#[test]
fn vegas_resends_on_the_first_duplicate_once_the_fine_timeout_has_passed() {
    //= Brakmo & Peterson 1995 §3.1
    //# Vegas retransmits the segment without having to wait for n (3) duplicate ACKs.
    // Ten samples of about 505 ms: the fine timeout is about 610 ms.
    // Segment 10 was sent at 501 ms (slow start, on the first ACK) and is lost.
    let mut h = vegas_after_a_window(CcKind::Vegas);
    assert!(segments(&h.ack_at(1_050 * NS_PER_MS, 10 * MSS)).is_empty(), "549 ms old: not yet");
    assert_eq!(segments(&h.ack_at(1_200 * NS_PER_MS, 10 * MSS)), vec![seg(10)], "699 ms old: resent on the second duplicate");
    assert_eq!(h.sender.stats.fast_retransmits, 1);
    // Reno waits for the third duplicate.
    let mut h = vegas_after_a_window(CcKind::Reno);
    h.ack_at(1_050 * NS_PER_MS, 10 * MSS);
    assert!(segments(&h.ack_at(1_200 * NS_PER_MS, 10 * MSS)).is_empty());
}

fn ceten_ack(ack: u64, survival: f64, congestion: f64) -> Packet {
    Packet {
        flow: 0,
        kind: Kind::Ack,
        dst: 0,
        seq: 0,
        len: 0,
        ack,
        wnd: 1 << 30,
        size: 72,
        ts: None,
        sack: Default::default(),
        ceten: Some(CetenOption::new(0.1, survival, congestion, false)),
    }
}

fn ceten_after_first_ack() -> Harness {
    let mut config = sender_config(RecoveryKind::NewReno, 10);
    config.cc = CcKind::Ceten;
    config.initial_ssthresh = 8 * MSS;
    let mut h = Harness::new(config);
    h.ack_at(10, MSS);
    h
}

#[test]
fn ceten_resends_a_corruption_loss_without_touching_the_window() {
    //= Carroll 2004 §III (000.md §1.7)
    //# one segment (the one at snd_una) is retransmitted, and cwnd, ssthresh
    //# and the recovery state are unchanged.
    let mut h = ceten_after_first_ack();
    let (cwnd, ssthresh) = (h.sender.window.cwnd, h.sender.window.ssthresh);
    // Survival 0.9, no congestion seen (1.0): P(corruption) = 0.1 / 0.1 = 1.
    let mut out = Vec::new();
    for t in 0..3 {
        h.now = 20 + t;
        let ack = ceten_ack(MSS, 0.9, 1.0);
        out = h.call(|s, now, out| s.on_ack(now, &ack, out));
    }
    assert_eq!(segments(&out), vec![seg(1)]);
    assert_eq!((h.sender.window.cwnd, h.sender.window.ssthresh), (cwnd, ssthresh));
    assert!(!h.sender.recovery.in_fast_recovery);
    assert_eq!((h.sender.stats.corruption_retransmits, h.sender.stats.fast_retransmits), (1, 0));
}

#[test]
fn ceten_takes_a_congestion_loss_through_fast_recovery() {
    let mut h = ceten_after_first_ack();
    let flight = h.sender.flight_size();
    for t in 0..3 {
        h.now = 20 + t;
        // No corruption seen, queue drops seen: P(corruption) = 0.
        let ack = ceten_ack(MSS, 1.0, 0.9);
        h.call(|s, now, out| s.on_ack(now, &ack, out));
    }
    assert!(h.sender.recovery.in_fast_recovery);
    assert_eq!(h.sender.window.ssthresh, flight / 2);
    assert_eq!(h.sender.stats.corruption_retransmits, 0);
}

#[test]
fn bbr_paces_segments_apart_once_it_has_a_rate() {
    let mut config = sender_config(RecoveryKind::Sack(SackStyle::Rfc6675), 10);
    config.cc = CcKind::Bbr;
    config.sack = true;
    let mut h = Harness::new(config);
    let out = h.ack_at(100 * NS_PER_MS, MSS);
    // The window allows several segments, pacing lets one go now.
    assert_eq!(segments(&out), vec![seg(10)]);
    let (at, generation) = h.sender.pace_timer.schedule_request().expect("pacing timer armed");
    assert!(at > 100 * NS_PER_MS, "next send at {at}");
    h.now = at;
    let out = h.call(|s, now, out| s.on_pace(now, generation, out));
    assert_eq!(segments(&out), vec![seg(11)]);
}

#[test]
fn adalr_adds_200_ms_to_the_rto_armed_after_a_timeout() {
    //= Omueti 2007, "Loss recovery mechanism" (001.md §1.8)
    //# 200 ms is added to the current time ... for subsequent RTO timer expirations
    for (cc, extra) in [(CcKind::Reno, 0), (CcKind::Adalr, 200 * NS_PER_MS)] {
        let mut config = sender_config(RecoveryKind::NewReno, 2);
        config.cc = cc;
        let mut h = Harness::new(config);
        h.expire_rto();
        let fired = h.now;
        let (next, _) = h.rto_event.expect("re-armed");
        assert_eq!(next - fired, 2 * NS_PER_S + extra, "{cc:?}: backed-off RTO of 2 s");
    }
}

/// Hybla at rho = 1 in congestion avoidance: segments added over twenty
/// delayed ACKs (each covering two segments).
fn hybla_growth(byte_counting: bool) -> u64 {
    let mut config = sender_config(RecoveryKind::Reno, 10);
    config.cc = CcKind::Hybla;
    config.cc_params.hybla_rtt0 = Some(crate::units::Duration(NS_PER_S));
    config.initial_ssthresh = 5 * MSS;
    config.byte_counting = byte_counting;
    let mut h = Harness::new(config);
    let start = h.sender.window.cwnd;
    for i in 1..=20 {
        h.ack_at(i * NS_PER_MS, 2 * i * MSS);
    }
    (h.sender.window.cwnd - start) / MSS
}

#[test]
fn hybla_grows_per_ack_unless_segments_are_counted() {
    //= Caini & Firrincieli 2004 eq. (8); Linux tcp_hybla.c adds rho^2/W per ACK,
    //= ns-3's TcpHybla per segment acknowledged (what byte_counting selects)
    // rho^2 / W per ACK with W ~ 10-12: twenty ACKs add about two segments, forty calls about four.
    let (per_ack, counted) = (hybla_growth(false), hybla_growth(true));
    assert!((1..=2).contains(&per_ack), "per ACK: {per_ack}");
    assert!((3..=4).contains(&counted), "per segment: {counted}");
}

/// The most segments resent in answer to one ACK while going back N after
/// a timeout that lost a whole window of 20 (every ACK covers all resent).
fn most_resent_per_ack_after_a_timeout(cc: CcKind) -> usize {
    let mut config = sender_config(RecoveryKind::NewReno, 20);
    config.cc = cc;
    let mut h = Harness::new(config);
    let mut out = segments(&h.expire_rto());
    let (mut most, mut t) = (0, h.now);
    while let Some(&(seq, len)) = out.last() {
        if seq >= 20 * MSS {
            break;
        }
        most = most.max(out.iter().filter(|(s, _)| *s < 20 * MSS).count());
        t += 10 * NS_PER_MS;
        out = segments(&h.ack_at(t, seq + len as u64));
    }
    most
}

#[test]
fn adalr_resends_at_most_three_segments_per_ack() {
    //= Omueti 2007, "Loss recovery mechanism" (001.md §1.8 item 3)
    //# Retransmissions from the retransmission buffer are limited to three segments
    assert!(most_resent_per_ack_after_a_timeout(CcKind::Reno) > 3, "NewReno's slow start resends more at once");
    assert_eq!(most_resent_per_ack_after_a_timeout(CcKind::Adalr), 3);
}

#[test]
fn vegas_checks_the_timer_again_on_the_first_new_acks_after_a_retransmission() {
    //= Brakmo & Peterson 1995 §3.1
    //# when a non-duplicate ACK is received, if it is the first or second
    //# one after a retransmission, Vegas again checks to see if the time
    //# interval since the segment was sent is larger than the timeout value.
    // Segments 10 and 11 (sent at about 501 ms) are lost; 10 is resent on
    // the second duplicate. The ACK for 10 is the first new one after that
    // retransmission: 11 is 1.3 s old, past the ~610 ms fine timeout, so it
    // goes at once, without waiting for three more duplicates.
    let mut h = vegas_after_a_window(CcKind::Vegas);
    h.ack_at(1_050 * NS_PER_MS, 10 * MSS);
    assert_eq!(segments(&h.ack_at(1_200 * NS_PER_MS, 10 * MSS)), vec![seg(10)]);
    let out = segments(&h.ack_at(1_800 * NS_PER_MS, 11 * MSS));
    assert_eq!(out.first(), Some(&seg(11)), "resent on the first new ACK: {out:?}");
    // Reno's sender, on the same ACKs after its own fast retransmit, waits.
    let mut h = vegas_after_a_window(CcKind::Reno);
    for t in [1_050, 1_100, 1_200] {
        h.ack_at(t * NS_PER_MS, 10 * MSS);
    }
    assert!(!segments(&h.ack_at(1_800 * NS_PER_MS, 11 * MSS)).contains(&seg(11)));
}

#[test]
fn ceten_segments_carry_their_option_bytes_on_the_wire() {
    //= Carroll 2004, Appendix A, tcp_seg_sup.h
    //# #define TCPC_SEG_CETEN_SIZE 32  /* Size of CETEN option in bytes */
    let headers = |cc: CcKind| {
        let mut config = sender_config(RecoveryKind::NewReno, 10);
        config.cc = cc;
        let mut h = Harness::new(config);
        let out = h.ack_at(10, MSS);
        let data: Vec<_> = out.iter().filter(|p| p.kind == Kind::Data).collect();
        assert!(!data.is_empty());
        assert!(data.iter().all(|p| p.ceten.is_some() == (cc == CcKind::Ceten)));
        data[0].size - data[0].len
    };
    assert_eq!(headers(CcKind::Ceten), headers(CcKind::Reno) + 32);
}
