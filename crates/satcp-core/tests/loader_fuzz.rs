//! The scenario loader never panics: any text or JSON either loads or gives
//! a ScenarioError naming what was wrong.

use proptest::prelude::*;
use satcp_core::Scenario;

/// Fragments of real scenarios, recombined with random values and keys.
fn scenario_like() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "duration", "seed", "rate", "forward_rate", "delay", "ber", "queue", "link_header",
        "variant", "mss", "rwnd", "delayed_ack", "initial_cwnd", "bytes", "start", "bogus",
        "partial_ack_timer", "initial_ssthresh", "min_rto", "max_rto",
        "model", "ber_bad", "b", "mean_good", "mean_handoff", "burst_bits", "interval_bits", "spacing",
        "orbit", "kind", "altitude", "min_elevation", "handover_gap", "errors",
    ]);
    let value = prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| format!("{v:?}")),
        "\"[0-9.e-]{0,6}(ms|s|Mbps|kbps|KB|MiB|B|x)?\"",
        Just("true".to_string()),
        Just("\"newreno\"".to_string()),
        Just("\"impatient\"".to_string()),
        prop::sample::select(vec!["\"gilbert\"", "\"leung-satellite\"", "\"leung-mobile\"", "\"burst\"", "\"uniform\"", "\"leo\"", "\"geo\"", "\"random\"", "\"780km\""])
            .prop_map(str::to_string),
        Just("[1, 2]".to_string()),
        Just("{}".to_string()),
    ];
    let line = (key, value).prop_map(|(k, v)| format!("{k} = {v}\n"));
    let header = prop::sample::select(vec![
        "[path]\n", "[[flow]]\n", "[node]\n", "", "[path.errors]\n", "[path.return_errors]\n", "[path.orbit]\n",
    ]);
    prop::collection::vec((header, prop::collection::vec(line, 0..5)), 0..5).prop_map(|sections| {
        sections.into_iter().map(|(h, lines)| format!("{h}{}", lines.concat())).collect::<String>()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn toml_loader_never_panics(text in scenario_like()) {
        if let Err(e) = Scenario::from_toml(&text) {
            prop_assert!(!e.to_string().is_empty());
            prop_assert!(!e.to_string().contains('\n'), "one line: {}", e);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = Scenario::from_toml(&text);
        let _ = Scenario::from_json(&text);
    }
}
