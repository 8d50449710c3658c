//! The studies' headline effects, each on its own setup (the scenarios in
//! `scenarios/`): direction and rough size, from the tables the seed notes
//! extract.

use satcp_core::{run, Scenario};

fn scenario_file(name: &str) -> String {
    let path = format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Replaces `key = ...` lines (the first of each) and appends `extra` to the flow.
fn with(text: &str, keys: &[(&str, &str)], extra: &str) -> Scenario {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for (key, value) in keys {
        let line = lines.iter_mut().find(|l| l.split('=').next().is_some_and(|k| k.trim() == *key));
        *line.unwrap_or_else(|| panic!("no key {key}")) = format!("{key} = {value}");
    }
    let text = lines.join("\n") + "\n" + extra;
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Mean goodput over seeds 1..=n.
fn mean_goodput(s: &Scenario, n: u64) -> f64 {
    (1..=n).map(|seed| run(&Scenario { seed, ..s.clone() }).flows[0].goodput_bps).sum::<f64>() / n as f64
}

#[test]
fn ceten_r_helps_most_at_1e5_and_little_at_1e7() {
    // Carroll 2004 Tables 4-5 (000.md §4.16): New Reno + CETEN-R against New Reno,
    // one client: +146% / +25.6% / +2.3% at 50 ms and +77.5% / +18.9% / +1.7% at
    // 320 ms for BER 1e-5 / 1e-6 / 1e-7. OPNET 10's coarse 500 ms timer
    // (000.md §6.2 item 14) as the BSD tick: without it the RTO sits just
    // above the RTT at 320 ms and spurious timeouts swamp the effect.
    let base = scenario_file("carroll-1client.toml");
    for delay in ["\"50ms\"", "\"320ms\""] {
        let gain = |ber: &str| {
            let keys = |v| vec![("delay", delay), ("ber", ber), ("return_ber", ber), ("variant", v)];
            let off = mean_goodput(&with(&base, &keys("\"newreno\""), "rto_tick = \"500ms\""), 5);
            let on = mean_goodput(&with(&base, &keys("\"ceten-newreno\""), "rto_tick = \"500ms\""), 5);
            on / off - 1.0
        };
        let (high, medium, low) = (gain("1e-5"), gain("1e-6"), gain("1e-7"));
        assert!(high > 0.5, "{delay}: CETEN-R gains {:.0}% at 1e-5; Carroll +77-146%", high * 100.0);
        assert!(high > medium && medium > low, "{delay}: gains {high:.2} {medium:.2} {low:.2} should fall with the BER");
        // Our New Reno pays more for a rare loss in this window-limited flow
        // than OPNET's did (Carroll's is within 4% of the window limit at
        // 1e-7, ours within 10%), so CETEN-R recovers up to ~13% here.
        assert!(low < 0.15, "{delay}: CETEN-R gains {:.0}% at 1e-7; Carroll 0-2%", low * 100.0);
    }
}

#[test]
fn ceten_r_as_coded_decides_on_every_duplicate_and_helps_less() {
    // The code's reading (000.md §1.8 B): C = 0, so P(corruption) <= 1/2 and
    // a bypass at the third duplicate leaves the loss to the next duplicates.
    let base = scenario_file("carroll-1client.toml");
    let keys = |v| vec![("delay", "\"50ms\""), ("ber", "1e-5"), ("return_ber", "1e-5"), ("variant", v)];
    let off = mean_goodput(&with(&base, &keys("\"newreno\""), "rto_tick = \"500ms\""), 5);
    let intent = mean_goodput(&with(&base, &keys("\"ceten-newreno\""), "rto_tick = \"500ms\""), 5);
    let code = mean_goodput(&with(&base, &keys("\"ceten-newreno\""), "rto_tick = \"500ms\"\n[flow.cc]\nceten_mode = \"code\""), 5);
    assert!(code < intent, "as coded {code:.0} b/s, as intended {intent:.0} b/s");
    assert!(code > 0.8 * off, "as coded {code:.0} b/s against New Reno {off:.0} b/s");
}

#[test]
fn adalr_shortens_the_loss_free_50_mb_download_over_geo() {
    // Omueti 2007 (001.md §3.1): 463.5 s for New Reno and SACK, 333.4 s for
    // both ADaLR variants, without delayed ACK: 28% shorter.
    let base = scenario_file("omueti-geo.toml");
    let time = |variant: &str, extra: &str| {
        let s = with(&base, &[("variant", variant)], extra);
        run(&s).flows[0].completion_time_s.expect("the download completes")
    };
    let newreno = time("\"newreno\"", "");
    assert!((newreno / 463.5 - 1.0).abs() < 0.02, "New Reno {newreno:.1} s; the slides' 463.5 s calibrates the delay");
    // The link-limited floor: 50 MiB in 1500-byte packets carrying 1460 at 2 Mb/s.
    let floor = 50.0 * 1048576.0 * 8.0 / 2e6 * 1500.0 / 1460.0;
    for (variant, extra) in [
        ("\"adalr-newreno\"", ""),
        ("\"adalr-sack\"", ""),
        ("\"adalr-newreno\"", "[flow.cc]\nadalr_rwnd = \"headroom\""),
    ] {
        let adalr = time(variant, extra);
        // The two readings of the rwnd increase (001.md §5.2 A1) bracket the
        // slides' 0.72: accumulating on the sender runs at the link rate
        // (0.47), a per-ACK headroom adds 7.5 segments to the 64 KB window (0.83).
        let ratio = adalr / newreno;
        assert!(ratio < 0.85 && adalr >= floor, "{variant} {extra}: {adalr:.1} s against {newreno:.1} s (floor {floor:.0} s)");
    }
}

#[test]
fn vegas_beats_reno_on_the_lossy_satellite_link() {
    // Leung 1998 (002.md §6.1): after joint optimisation Vegas is "about
    // 23-100% over Reno" for PLR 0.001-0.06 (3x and 6x in Table 4.2, each
    // variant at its own optimum). Here both share Vegas's optimum (128 KB
    // window, 10 ms ACK delay) and the Internet's background losses are
    // absent. PLR is 0.12% at 1e-7 and 1.2% at 1e-6.
    let base = scenario_file("leung-vegas.toml");
    for (ber, at_least) in [("1e-7", 1.15), ("1e-6", 1.5)] {
        let keys = |v| vec![("ber", ber), ("return_ber", ber), ("variant", v)];
        let reno = mean_goodput(&with(&base, &keys("\"reno\""), ""), 5);
        let vegas = mean_goodput(&with(&base, &keys("\"vegas\""), ""), 5);
        assert!(vegas > at_least * reno, "BER {ber}: Vegas {vegas:.0} b/s, Reno {reno:.0} b/s");
    }
}
