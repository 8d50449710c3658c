//! SACK blocks, RFC 6675 and FACK at the segment level, against the
//! worked examples in Hayes 1997 §2.8.

use super::*;

/// A receiver that ACKs every segment with SACK blocks.
pub(super) fn sack_receiver(timestamps: bool) -> Receiver {
    Receiver::new(ReceiverConfig {
        flow: 0,
        dst: 0,
        buffer: 1 << 20,
        window_scaling: true,
        timestamps,
        delayed_ack: 1,
        delayed_ack_timeout: 200 * NS_PER_MS,
        delayed_ack_tick: 0,
        sack: true,
        expected_bytes: 0,
        ceten_option_bytes: None,
    })
}

/// Hayes's example uses 500-byte segments and starts at byte 3000: the
/// receiver has had the in-order prefix.
fn hayes_receiver(segment: u32, timestamps: bool) -> Receiver {
    let mut r = sack_receiver(timestamps);
    let mut out = Vec::new();
    for n in 0..(3000 / segment as u64) {
        r.on_segment(0, &bytes(n * segment as u64, segment), &mut out);
    }
    r
}

fn bytes(seq: u64, len: u32) -> Packet {
    Packet { flow: 0, kind: Kind::Data, dst: 1, seq, len, ack: 0, wnd: 0, size: 40 + len, ts: None, sack: Default::default(), ceten: None }
}

#[test]
fn sack_blocks_follow_hayes_table_2_2() {
    // Hayes 1997 Table 2.2 (RFC 2018 §5 case 3 shifted by 2000): 500-byte
    // segments from 3000, every second one lost.
    let mut r = hayes_receiver(500, false);
    let mut ack_for = |seq: u64| {
        let mut out = Vec::new();
        r.on_segment(0, &bytes(seq, 500), &mut out);
        let p = out.pop().expect("an ACK per segment");
        (p.ack, p.sack.iter().collect::<Vec<_>>())
    };
    assert_eq!(ack_for(3000), (3500, vec![]));
    assert_eq!(ack_for(4000), (3500, vec![(4000, 4500)]));
    assert_eq!(ack_for(5000), (3500, vec![(5000, 5500), (4000, 4500)]));
    assert_eq!(ack_for(6000), (3500, vec![(6000, 6500), (5000, 5500), (4000, 4500)]));
    // Filling 4500 merges two blocks; the block holding it comes first.
    assert_eq!(ack_for(4500), (3500, vec![(4000, 5500), (6000, 6500)]));
}

#[test]
fn sack_blocks_are_three_with_timestamps_and_count_on_the_wire() {
    let mut r = hayes_receiver(500, true);
    let mut out = Vec::new();
    for seq in [4000, 5000, 6000, 7000, 8000] {
        r.on_segment(0, &bytes(seq, 500), &mut out);
    }
    let last = out.last().unwrap();
    //= rfc2018#section-3
    //# If SACK is used with the Timestamp option, the maximum is 3 blocks
    assert_eq!(last.sack.iter().collect::<Vec<_>>(), [(8000, 8500), (7000, 7500), (6000, 6500)]);
    // 20 IP + 20 TCP + 12 timestamps + 2 NOPs + 2 + 3 x 8.
    assert_eq!(last.size, 20 + 20 + 12 + 28);
}

/// A FACK sender and a SACK receiver joined by a lossless wire except for
/// the segments named lost on their first transmission.
/// Returns what the sender sent on each ACK, and (cwnd, ssthresh) when recovery ended.
fn fack_exchange(lost: &[u64], window: u32) -> (Vec<Vec<(u64, u32)>>, Option<(u64, u64)>) {
    let mut config = sender_config(RecoveryKind::Fack, window);
    config.sack = true;
    let h = Harness::new_quiet(config);
    let mut r = sack_receiver(false);
    let mut h = h;
    let first = h.call(|s, now, out| s.start(now, out));
    let mut in_flight: std::collections::VecDeque<Packet> = first.into_iter().collect();
    let mut sent_log = Vec::new();
    let mut lost_once: Vec<u64> = lost.to_vec();
    let mut at_exit = None;
    while let Some(p) = in_flight.pop_front() {
        if at_exit.is_some() {
            break;
        }
        let n = p.seq / MSS;
        if let Some(i) = lost_once.iter().position(|&l| l == n) {
            lost_once.remove(i);
            continue;
        }
        let mut acks = Vec::new();
        r.on_segment(h.now, &p, &mut acks);
        for a in acks {
            h.now += NS_PER_MS;
            let was_recovering = h.sender.sack.in_recovery;
            let out = h.call(|s, now, out| s.on_ack(now, &a, out));
            if was_recovering && !h.sender.sack.in_recovery && at_exit.is_none() {
                at_exit = Some((h.sender.window.cwnd, h.sender.window.ssthresh));
            }
            sent_log.push(segments(&out));
            in_flight.extend(out);
        }
    }
    (sent_log, at_exit)
}

#[test]
fn fack_follows_hayes_table_2_3() {
    // Hayes 1997 Table 2.3 with segment 10 as our 0: 0..11 sent, 0, 3 and 5 lost.
    let (sends, at_exit) = fack_exchange(&[0, 3, 5], 12);
    let seg_n = |n: u64| vec![seg(n)];
    // Nine duplicate ACKs (from 1, 2, 4, 6..11); the third enters recovery
    // and resends 0, then one send per two ACKs: 3, 5, then new data 12.
    assert_eq!(sends[0], vec![]);
    assert_eq!(sends[1], vec![]);
    assert_eq!(sends[2], seg_n(0), "third duplicate ACK: retransmit 10");
    assert_eq!(sends[3], vec![]);
    assert_eq!(sends[4], seg_n(3), "retransmit 13");
    assert_eq!(sends[5], vec![]);
    assert_eq!(sends[6], seg_n(5), "retransmit 15");
    assert_eq!(sends[7], vec![]);
    assert_eq!(sends[8], seg_n(12), "new segment 22");
    // Rate halving ends when 10's ACK arrives; the hold state sends one per ACK.
    assert_eq!(sends[9], seg_n(13), "ACK 13: send 23");
    assert_eq!(sends[10], seg_n(14), "ACK 15: send 24");
    // Eq. 2.1: (12 - 3) / 2 = 4.5, so four segments are in the window when recovery ends.
    assert_eq!(at_exit, Some((4 * MSS, 6 * MSS)), "ACK 22 ends recovery with cwnd 4, ssthresh 6");
    assert_eq!(sends.len(), 12, "the twelfth ACK is 22");
}

#[test]
fn rfc6675_enters_on_three_sacked_segments_and_sends_by_pipe() {
    let mut config = sender_config(RecoveryKind::Sack(crate::tcp::recovery::SackStyle::Rfc6675), 10);
    config.sack = true;
    let mut h = Harness::new(config);
    let sacked = |blocks: &[(u64, u64)]| {
        let mut sack = crate::packet::SackBlocks::default();
        for &(l, r) in blocks {
            sack.push(l * MSS, r * MSS);
        }
        Packet { flow: 0, kind: Kind::Ack, dst: 0, seq: 0, len: 0, ack: 0, wnd: 1 << 30, size: 40, ts: None, sack, ceten: None }
    };
    // Segment 0 lost; 1 and 2 arrive: two duplicate ACKs, no recovery yet.
    for blocks in [&[(1, 2)][..], &[(1, 3)]] {
        let a = sacked(blocks);
        assert!(segments(&h.call(|s, now, out| s.on_ack(now, &a, out))).is_empty());
    }
    // The third: enter recovery, resend 0; cwnd = ssthresh = 5, pipe = 10 - 3 - 1 + 1 = 7.
    let a = sacked(&[(1, 4)]);
    assert_eq!(segments(&h.call(|s, now, out| s.on_ack(now, &a, out))), vec![seg(0)]);
    assert_eq!(h.sender.window.cwnd, 5 * MSS);
    assert_eq!(h.sender.scoreboard.as_ref().unwrap().pipe(), 7);
    // Three more SACKed segments bring pipe to 4: one new segment fits.
    for right in [5, 6] {
        let a = sacked(&[(1, right)]);
        assert!(segments(&h.call(|s, now, out| s.on_ack(now, &a, out))).is_empty());
    }
    let a = sacked(&[(1, 7)]);
    assert_eq!(segments(&h.call(|s, now, out| s.on_ack(now, &a, out))), vec![seg(10)]);
}

