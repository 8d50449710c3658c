//! Hayes 1997 §3.3 drop experiments on the Hayes link (768 kb/s, 290 ms one
//! way, 512-byte segments, a 168-segment window): one, two and four data
//! packets dropped from one full window, and how long each recovery takes.
//! The thesis gives no measured recovery times (003.md §3.4), only that
//! NewReno "requires a round trip time to recover each lost segment" and
//! SACK and FACK need "at most two round trip times if no further loss
//! occurs"; these tests assert exactly that, in RTTs.
//!
//! The unit is the path's unloaded RTT: 2 x 290 ms plus serialising a
//! 552-byte segment and a 40-byte ACK at 768 kb/s (586 ms, the "585 ms"
//! of Hayes §2.9.1). The first retransmission waits behind the queue the
//! 168-segment window built, so a first repair takes longer than that; the
//! marginal cost of each further loss is what tells the algorithms apart.

use satcp_core::sim::Simulation;
use satcp_core::Scenario;

/// Packet 400 is sent long after slow start filled the 168-segment window.
fn hayes(variant: &str, drops: &[u64]) -> Scenario {
    let list = drops.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    Scenario::from_toml(&format!(
        r#"
        duration = "120s"
        [path]
        rate = "768kbps"
        delay = "290ms"
        queue = 200            # no congestion loss: only the listed drops
        drop_packets = [{list}]
        [[flow]]
        variant = "{variant}"
        partial_ack_timer = "slow-but-steady"  # the ns FF96 NewReno Hayes ran (003.md §1.9)
        mss = 512
        rwnd = 86016
        delayed_ack = 1        # Hayes's tables draw one ACK per segment (003.md §1.1)
        initial_cwnd = 1
        bytes = "1MiB"
        "#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

const UNLOADED_RTT_S: f64 = 0.58 + (552.0 + 40.0) * 8.0 / 768_000.0;

struct Recovery {
    /// From the first retransmission to the cumulative ACK passing every drop, in RTTs.
    rtts: f64,
    timeouts: u64,
    retransmits: u64,
}

fn recover(variant: &str, drops: &[u64]) -> Recovery {
    let scenario = hayes(variant, drops);
    let mut sim = Simulation::new(&scenario);
    let mut high_at_last_drop = None;
    let mut first_retransmission = None;
    let mut done = None;
    while sim.step() {
        let sender = &sim.flows[0].sender;
        if high_at_last_drop.is_none() && sim.links[0].stats.listed_drops == drops.len() as u64 {
            high_at_last_drop = Some(sender.snd_max);
        }
        if first_retransmission.is_none() && sender.stats.retransmits > 0 {
            first_retransmission = Some(sim.now());
        }
        if let (Some(high), None) = (high_at_last_drop, done) {
            if sender.snd_una >= high {
                done = Some(sim.now());
                break;
            }
        }
    }
    let start = first_retransmission.expect("a retransmission");
    let end = done.expect("every drop repaired");
    let stats = &sim.flows[0].sender.stats;
    Recovery { rtts: (end - start) as f64 / 1e9 / UNLOADED_RTT_S, timeouts: stats.timeouts, retransmits: stats.retransmits }
}

const TWO: &[u64] = &[400, 410];
const FOUR: &[u64] = &[400, 405, 410, 415];

#[test]
fn one_drop_is_one_fast_retransmit_for_every_variant() {
    // Hayes §3.3.1: "SACK and New Reno perform identical to Reno under a one
    // drop loss event"; the repair is one (loaded) round trip.
    let reno = recover("reno", &[400]).rtts;
    for variant in ["reno", "newreno", "sack", "fack"] {
        let r = recover(variant, &[400]);
        assert_eq!((r.timeouts, r.retransmits), (0, 1), "{variant}");
        assert!((1.0..2.0).contains(&r.rtts), "{variant}: {:.2} RTTs", r.rtts);
        assert!((r.rtts - reno).abs() < 0.1, "{variant}: {:.2} RTTs, Reno {reno:.2}", r.rtts);
    }
}

#[test]
fn reno_needs_a_timeout_for_two_and_four_drops() {
    // Hayes §3.3.2: rwnd-bound, Reno cannot send new data in fast recovery,
    // so no second fast retransmit comes and the timer fires.
    for drops in [TWO, FOUR] {
        let r = recover("reno", drops);
        assert!(r.timeouts >= 1, "{} drops: {} timeouts", drops.len(), r.timeouts);
        assert!(r.rtts > 1.5, "{} drops: {:.2} RTTs", drops.len(), r.rtts);
    }
}

#[test]
fn newreno_repairs_one_loss_per_rtt() {
    let one = recover("newreno", &[400]);
    let two = recover("newreno", TWO);
    let four = recover("newreno", FOUR);
    assert_eq!(two.timeouts + four.timeouts, 0);
    // Each further loss costs one more round trip: one partial ACK per RTT.
    let per_loss_2 = two.rtts - one.rtts;
    let per_loss_4 = (four.rtts - one.rtts) / 3.0;
    assert!((0.8..1.3).contains(&per_loss_2), "two drops: {per_loss_2:.2} RTTs per extra loss");
    assert!((0.8..1.3).contains(&per_loss_4), "four drops: {per_loss_4:.2} RTTs per extra loss");
}

#[test]
fn sack_and_fack_repair_every_loss_in_about_one_rtt() {
    for variant in ["sack", "fack", "newreno-rfc6675", "newreno-prr"] {
        for drops in [TWO, FOUR] {
            let r = recover_any(variant, drops);
            assert_eq!(r.timeouts, 0, "{variant}, {} drops", drops.len());
            assert_eq!(r.retransmits, drops.len() as u64, "{variant}: each lost segment resent once");
            // Hayes §3.4: "at most two round trip times if no further loss occurs".
            assert!(r.rtts < 2.0, "{variant}, {} drops: {:.2} RTTs", drops.len(), r.rtts);
        }
        // All holes are repaired in the same round trip: four cost no more than two.
        let (two, four) = (recover_any(variant, TWO), recover_any(variant, FOUR));
        assert!(four.rtts - two.rtts < 0.25, "{variant}: two drops {:.2}, four {:.2} RTTs", two.rtts, four.rtts);
    }
}

fn recover_any(variant: &str, drops: &[u64]) -> Recovery {
    if variant == "newreno-rfc6675" {
        recover_rfc6675(drops)
    } else if variant == "newreno-prr" {
        recover("newreno\"\n        sack = true\n        sack_recovery = \"prr", drops)
    } else {
        recover(variant, drops)
    }
}

/// newreno with `sack = true` runs RFC 6675 recovery.
fn recover_rfc6675(drops: &[u64]) -> Recovery {
    recover("newreno\"\n        sack = true\n        sack_recovery = \"rfc6675", drops)
}
