//! Performance-enhancing proxies (pep.rs) on Lawson's T1 GEO testbed
//! (../shared/seed-notes/004.md §1.6, §3.3, §5.3), and conservation of bytes
//! across the split.

use proptest::prelude::*;
use satcp_core::{run, RunResult, Scenario};

const LINK_BPS: f64 = 1_544_000.0;

fn load_text(path: &str, ber: f64, seed: u64) -> String {
    let text = std::fs::read_to_string(format!("{}/../../scenarios/{path}", env!("CARGO_MANIFEST_DIR"))).expect("scenario file");
    // link.0 is the satellite hop in both files; BER both ways (004.md §5.2 item 5).
    text.replace("ber = 1e-7", &format!("ber = {ber:e}")).replace("seed = 1", &format!("seed = {seed}"))
}

fn load(path: &str, ber: f64, seed: u64) -> Scenario {
    Scenario::from_toml(&load_text(path, ber, seed)).unwrap_or_else(|e| panic!("{e}"))
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
    // Each connection reports itself, in path order, and passes on no more than it received.
    let legs = &r.flows[0].legs;
    let hops: Vec<(&str, &str)> = legs.iter().map(|l| (l.from.as_str(), l.to.as_str())).collect();
    assert_eq!(hops, [("netperfc", "SCPS10"), ("SCPS10", "SCPS20"), ("SCPS20", "netperfs")]);
    assert_eq!(legs[1].variant, "vegas", "the SCPS-TP profile runs Vegas over the satellite");
    assert!(legs.windows(2).all(|w| w[0].bytes_delivered >= w[1].bytes_delivered));
    assert_eq!(legs[2].bytes_delivered, r.flows[0].bytes_delivered);
    let plain = run(&load("lawson-testbed.toml", 1e-9, 1));
    assert_eq!((plain.flows[0].split_legs, plain.flows[0].acked_undelivered_bytes), (1, 0));
    assert!(plain.flows[0].legs.is_empty());
}

#[test]
fn header_compression_shrinks_every_satellite_segment() {
    //= Lawson 2006 §1.6 (004.md): "header size can fall by up to 50%"
    // Off in Lawson's runs; on, the saturated T1 carries the same segments
    // in 1,488 wire bytes instead of 1,514 (1448 + 52 IP/TCP/timestamps + 14
    // Ethernet, 26 saved), so goodput rises by that ratio and no more.
    let goodput = |compress: bool| {
        let text = std::fs::read_to_string(format!("{}/../../scenarios/lawson-pep.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let text = text.replace("ber = 1e-7", "ber = 1e-9").replace("header_compression = false", &format!("header_compression = {compress}"));
        run(&Scenario::from_toml(&text).unwrap()).flows[0].goodput_bps
    };
    let gain = goodput(true) / goodput(false);
    let wire = 1514.0 / 1488.0;
    assert!((gain / wire - 1.0).abs() < 0.003, "gain {gain:.5}, wire ratio {wire:.5}");
}

/// PEP / end-to-end TCP goodput from Lawson's means (004.md §3.3; 128k and 512k tables).
//= Lawson 2006 Tables 12/14, 16/18, 20/22 (004.md §3.3)
//# 1e-5: 150.67/40.64 = 3.71, 150.34/41.06 = 3.66; 1e-6: 401.63/177.9 = 2.26,
//# 398.43/174.73 = 2.28; 1e-7: 1157.87/359.03 = 3.22, 1153.1/357.5 = 3.23
const LAWSON_RATIO: (f64, f64) = (2.26, 3.71);

/// PEP over Lawson's plain TCP (the 32 KB effective window, `technique`).
fn ratio(ber: f64) -> f64 {
    let tcp = (1..=3).map(|seed| technique("TCP", ber, seed)).sum::<f64>() / 3.0;
    mean_goodput("lawson-pep.toml", ber) / tcp
}

#[test]
fn pep_beats_end_to_end_tcp_by_lawsons_factor_at_1e6_and_1e7() {
    for ber in [1e-6, 1e-7] {
        let r = ratio(ber);
        assert!((LAWSON_RATIO.0..=LAWSON_RATIO.1).contains(&r), "BER {ber:e}: PEP / TCP = {r:.2}");
    }
}

#[test]
#[ignore = "known gap: at 1e-5 our SCPS leg reaches ~2.0 x TCP, Lawson 2.26-3.71; his gateways lay between SCPS-TP's congestion and corruption responses (corruption_response_keeps_the_rate_and_brackets_lawsons_gateways); benches/README.md says why"]
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

/// Lawson's four end-to-end techniques as flow settings on the testbed:
/// effective windows of 32,767 B without scaling and 65,535 B with it
/// (004.md §5.2 items 2 and 3).
fn technique(name: &str, ber: f64, seed: u64) -> f64 {
    if name == "PEP" {
        return goodput("lawson-pep.toml", ber, seed);
    }
    let (window, ws, sack) = match name {
        "TCP" => ("32767", "false", "false"),
        "SACK" => ("32767", "false", "true"),
        "WS" => ("65535", "true", "false"),
        _ => ("65535", "true", "true"),
    };
    let text = std::fs::read_to_string(format!("{}/../../scenarios/lawson-testbed.toml", env!("CARGO_MANIFEST_DIR"))).expect("scenario");
    let text = text
        .replace("ber = 1e-7", &format!("ber = {ber:e}"))
        .replace("seed = 1", &format!("seed = {seed}"))
        .replace("rwnd = \"64KB\"", &format!("rwnd = {window}\nsack = {sack}"))
        .replace("window_scaling = false", &format!("window_scaling = {ws}"));
    let s = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    run(&s).flows[0].goodput_bps
}

fn means(ber: f64) -> std::collections::HashMap<&'static str, f64> {
    ["TCP", "SACK", "WS", "WS+SACK", "PEP"]
        .into_iter()
        .map(|t| (t, (1..=3).map(|seed| technique(t, ber, seed)).sum::<f64>() / 3.0))
        .collect()
}

#[test]
fn techniques_rank_as_lawson_found() {
    //= Lawson 2006 §3.4 groupings; 004.md §5.3 item 1
    //# At 10⁻⁷: WS+SACK > WS > SACK > TCP ... At 10⁻⁸ and 10⁻⁹: WS ≈ WS+SACK ≈ 2.1 × TCP
    //# SCPS-PEP is the best at every BER
    // At 1e-6 the four end-to-end techniques lie within 10% of each other,
    // and at 1e-8 and 1e-9 SACK is TCP's equal (within 3%). Not asserted:
    // his 1e-5 grouping (SACK and WS+SACK 1.2 x TCP); ours has SACK 4% below
    // TCP there, where a 32 KB window holds too few segments for SACK to help.
    let spread = |m: &std::collections::HashMap<&str, f64>, ts: &[&str]| {
        let (lo, hi) = ts.iter().map(|t| m[t]).fold((f64::MAX, 0.0_f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
        hi / lo - 1.0
    };
    for ber in [1e-5, 1e-6, 1e-7, 1e-8, 1e-9] {
        let m = means(ber);
        let best_e2e = ["TCP", "SACK", "WS", "WS+SACK"].iter().map(|t| m[t]).fold(0.0, f64::max);
        assert!(m["PEP"] > best_e2e, "BER {ber:e}: {m:?}");
        // At 1e-5 the margin is the open gap of issue 7 (about 2 x, Lawson 3.7 x).
        if ber < 1e-5 {
            assert!(m["PEP"] > 2.0 * best_e2e.min(m["TCP"]), "BER {ber:e}: {m:?}");
        }
        if ber == 1e-7 {
            assert!(m["WS+SACK"] > m["WS"] && m["WS"] > m["SACK"] && m["SACK"] > m["TCP"], "{m:?}");
        }
        if ber == 1e-6 {
            assert!(spread(&m, &["TCP", "SACK", "WS", "WS+SACK"]) < 0.10, "{m:?}");
        }
        if ber <= 1e-8 {
            let low = m["TCP"].max(m["SACK"]);
            assert!(m["WS"].min(m["WS+SACK"]) > 1.5 * low, "BER {ber:e}: {m:?}");
            assert!(spread(&m, &["TCP", "SACK"]) < 0.03, "BER {ber:e}: {m:?}");
        }
    }
}

#[test]
#[ignore = "prints the five techniques' mean goodputs per BER, for benches and reports"]
fn print_technique_table() {
    for ber in [1e-5, 1e-6, 1e-7, 1e-8, 1e-9] {
        let m = means(ber);
        let row: Vec<String> = ["TCP", "SACK", "WS", "WS+SACK", "PEP"].iter().map(|t| format!("{t} {:.1}", m[t] / 1e3)).collect();
        eprintln!("{ber:e}: {}", row.join(", "));
    }
}

#[test]
fn bad_pep_keys_are_one_line_naming_the_key() {
    let base = std::fs::read_to_string(format!("{}/../../scenarios/lawson-pep.toml", env!("CARGO_MANIFEST_DIR"))).expect("scenario");
    for (from, to, key, words) in [
        ("transport = \"scps\"", "transport = \"warp\"", "node.2.transport", "accepted: \"scps\" or a variant"),
        ("buffer = \"1MB\"", "buffer = 100", "node.2.buffer", "at least 3000"),
        ("transport = \"scps\"", "transport = \"sack\"\nrate = \"1Mbps\"", "node.2.rate", "belongs to transport = \"scps\""),
        ("kind = \"pep\"", "kind = \"router\"", "node.2.transport", "belongs to PEPs"),
        ("kind = \"pep\"", "kind = \"gateway\"", "node.2.kind", "pep"),
        ("name = \"netperfc\"", "name = \"netperfc\"\nack_filtering = true", "node.0.ack_filtering", "belongs to gateways"),
        ("transport = \"scps\"", "transport = \"scps\"\nloss_response = \"bits\"", "node.2.loss_response", "expected `congestion` or `corruption`"),
        ("transport = \"scps\"", "transport = \"scps\"\nrate = \"1Mbps\"\nloss_response = \"congestion\"", "node.2.loss_response", "never shrinks its window"),
        ("name = \"netperfc\"", "name = \"netperfc\"\nloss_response = \"corruption\"", "node.0.loss_response", "belongs to PEPs"),
    ] {
        let text = base.replacen(from, to, 1);
        let e = Scenario::from_toml(&text).expect_err(key).to_string();
        assert!(e.contains(key) && e.contains(words) && !e.contains('\n'), "{e}");
    }
    let cubic = base.replacen("transport = \"scps\"", "transport = \"cubic\"", 1).replacen("header_compression = false", "loss_response = \"corruption\"", 1);
    let e = Scenario::from_toml(&cubic).expect_err("loss_response on cubic").to_string();
    assert!(e.contains("node.2.loss_response") && e.contains("belongs to transport = \"scps\""), "{e}");
}

/// a -> gw -> b; the gateway's link back to a is slow (16 kb/s), so the
/// receiver's ACKs (one per segment) queue at the gateway.
fn asymmetric(gateway: &str) -> (satcp_core::sim::Simulation, RunResult) {
    let text = format!(
        "duration = \"60s\"\n[[node]]\nname = \"a\"\n[[node]]\nname = \"b\"\n[[node]]\nname = \"gw\"\n{gateway}\n\
         [[link]]\nfrom = \"a\"\nto = \"gw\"\nforward_rate = \"10Mbps\"\nreturn_rate = \"16kbps\"\ndelay = \"1ms\"\nqueue = 1000\n\
         [[link]]\nfrom = \"gw\"\nto = \"b\"\nrate = \"2Mbps\"\ndelay = \"250ms\"\nqueue = 1000\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\nrwnd = \"1MB\"\ndelayed_ack = 1\n"
    );
    let mut sim = satcp_core::sim::Simulation::new(&Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}")));
    while sim.step() {}
    let r = sim.finish(0.0);
    (sim, r)
}

fn link<'a>(sim: &'a satcp_core::sim::Simulation, name: &str) -> &'a satcp_core::link::Link {
    sim.links.iter().find(|l| l.name == name).expect("link")
}

#[test]
fn ack_filtering_and_spacing_at_a_gateway() {
    let (plain, plain_r) = asymmetric("kind = \"router\"");
    let (filtered, filtered_r) = asymmetric("kind = \"router\"\nack_filtering = true");
    let (spaced, _) = asymmetric("kind = \"pep\"\nack_spacing = \"100ms\"");
    assert_eq!(link(&plain, "gw->a").stats.acks_filtered, 0);
    let dropped = link(&filtered, "gw->a").stats.acks_filtered;
    assert!(dropped > 100, "{dropped}");
    // Fewer, fresher ACKs cross the slow link: the sender learns sooner.
    assert!(link(&filtered, "gw->a").stats.packets < link(&plain, "gw->a").stats.packets);
    assert!(filtered_r.flows[0].goodput_bps >= plain_r.flows[0].goodput_bps, "{} < {}", filtered_r.flows[0].goodput_bps, plain_r.flows[0].goodput_bps);
    // At most one ACK per 100 ms leaves the PEP towards a (60 s: 600, plus the handshake's).
    let acks = link(&spaced, "gw->a").stats.packets;
    assert!((100..=602).contains(&acks), "{acks}");
}

/// The times ACKs reached the sender `a`, from the run's own trace.
fn ack_arrivals(gateway: &str) -> Vec<f64> {
    let text = format!(
        "duration = \"30s\"\n[[node]]\nname = \"a\"\n[[node]]\nname = \"b\"\n[[node]]\nname = \"gw\"\n{gateway}\n\
         [[link]]\nfrom = \"a\"\nto = \"gw\"\nforward_rate = \"10Mbps\"\nreturn_rate = \"16kbps\"\ndelay = \"1ms\"\nqueue = 1000\n\
         [[link]]\nfrom = \"gw\"\nto = \"b\"\nrate = \"2Mbps\"\ndelay = \"250ms\"\nqueue = 1000\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\nrwnd = \"1MB\"\ndelayed_ack = 1\n"
    );
    let dir = std::env::temp_dir().join(format!("satcp-ack-spacing-{}-{}", std::process::id(), gateway.len()));
    let options = satcp_core::trace::TraceOptions { dir: Some(dir.clone()), pcap: None };
    satcp_core::run_traced(&Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}")), &options).expect("trace written");
    let csv = std::fs::read_to_string(dir.join("flow-0-acks.csv")).expect("ACK trace");
    std::fs::remove_dir_all(&dir).ok();
    csv.lines().skip(1).map(|l| l.split(',').next().and_then(|t| t.parse().ok()).expect("a time")).collect()
}

#[test]
fn ack_spacing_releases_acks_at_least_the_interval_apart() {
    //= RFC 3135 §3.2.3
    //# ACK spacing ... to prevent ACK bunching
    let gaps = |acks: &[f64]| acks.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>();
    let plain = gaps(&ack_arrivals("kind = \"router\""));
    let spaced = gaps(&ack_arrivals("kind = \"router\"\nack_spacing = \"100ms\""));
    let least = |g: &[f64]| g.iter().cloned().fold(f64::MAX, f64::min);
    // 16 kb/s serialises a 40-byte ACK in 20 ms: unspaced ACKs leave back to back.
    assert!(least(&plain) < 0.05, "plain: closest ACKs {:.3} s apart", least(&plain));
    assert!(least(&spaced) >= 0.1 - 1e-6, "spaced: closest ACKs {:.3} s apart", least(&spaced));
    assert!(spaced.len() > 100, "the flow kept being acknowledged: {} ACKs", spaced.len() + 1);
}

/// Lawson's PEP testbed with `keys` added to both gateways' SCPS-TP transport.
fn scps_with(keys: &str, ber: f64, seed: u64) -> RunResult {
    let text = load_text("lawson-pep.toml", ber, seed).replace("transport = \"scps\"", &format!("transport = \"scps\"\n{keys}"));
    run(&Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}")))
}

/// Lawson's PEP testbed with both gateways in SCPS-TP's rate-based mode.
fn rate_based(rate: &str, ber: f64) -> RunResult {
    scps_with(&format!("rate = \"{rate}\""), ber, 1)
}

#[test]
fn rate_based_scps_paces_at_its_rate_and_ignores_loss() {
    //= CCSDS 714.0-B-2 SCPS-TP, rate control and the corruption response (rate.rs)
    // Below the link's rate, the configured rate is the ceiling: 500 kb/s of
    // 1,514-byte frames carries at most 500k x 1448/1514 of payload.
    let slow = rate_based("500kbps", 1e-9).flows[0].goodput_bps;
    let ceiling = 500e3 * 1448.0 / 1514.0;
    assert!(slow <= ceiling * 1.01 && slow >= 0.9 * ceiling, "{slow:.0} b/s against a {ceiling:.0} b/s ceiling");
    // Loss does not shrink the window: at 1e-6 (1.2% of frames corrupted)
    // the paced leg keeps its rate, far above Vegas's window-limited leg.
    let paced = rate_based("1.4Mbps", 1e-6).flows[0].goodput_bps;
    let vegas = goodput("lawson-pep.toml", 1e-6, 1);
    assert!(paced > 2.0 * vegas && paced > 0.8 * 1.4e6 * 1448.0 / 1514.0, "paced {paced:.0}, Vegas {vegas:.0} b/s");
}

/// Lawson's PEP testbed with SCPS-TP's default source of loss set to `response`.
fn with_loss_response(response: &str, ber: f64, seed: u64) -> f64 {
    scps_with(&format!("loss_response = \"{response}\""), ber, seed).flows[0].goodput_bps
}

#[test]
fn corruption_response_keeps_the_rate_and_brackets_lawsons_gateways() {
    //= SCPS-TP Users Manual (MITRE reference implementation) §2.2.1.1, §2.2.7.3
    //# both the transmission rate (controlled by the congestion window) and the
    //# retransmission time out value remain unchanged ... each route to be
    //# configured with a default source of loss, congestion or corruption
    let mean = |response: &str, ber: f64| (1..=3).map(|seed| with_loss_response(response, ber, seed)).sum::<f64>() / 3.0;
    // Without loss the two responses are one protocol.
    let (congestion, corruption) = (mean("congestion", 1e-9), mean("corruption", 1e-9));
    assert!((corruption / congestion - 1.0).abs() < 0.02, "1e-9: {congestion:.0} against {corruption:.0} b/s");
    // At 1e-6 (1.2% of frames lost) the corruption response keeps most of the
    // loss-free rate, and the congestion response a third or less.
    let (lossy_congestion, lossy_corruption) = (mean("congestion", 1e-6), mean("corruption", 1e-6));
    assert!(lossy_corruption > 0.85 * corruption, "1e-6: {lossy_corruption:.0} of {corruption:.0} b/s");
    assert!(lossy_congestion < 0.33 * congestion, "1e-6: {lossy_congestion:.0} of {congestion:.0} b/s");
    // Lawson's gateways at 1e-5 (Table 12: 150.67 kb/s) lay between the two
    // documented responses; which one, and with what settings, was not published
    // (004.md §1.6), so neither is fitted to his row.
    let (low, high) = (mean("congestion", 1e-5), mean("corruption", 1e-5));
    assert!(low < 150_670.0 && 150_670.0 < high, "1e-5: congestion {low:.0}, corruption {high:.0} b/s");
}
