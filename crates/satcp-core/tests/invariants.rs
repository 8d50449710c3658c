//! Invariants on randomised scenarios (property tests).

use proptest::prelude::*;
use satcp_core::sim::Simulation;
use satcp_core::Scenario;

fn arb_scenario() -> impl Strategy<Value = String> {
    let flow = (
        prop::sample::select(vec![
            "variant = \"rfc793\"",
            "variant = \"tahoe\"",
            "variant = \"reno\"",
            "variant = \"newreno\"",
            "variant = \"newreno\"\nsack = true",
            "variant = \"newreno\"\nsack = true\nsack_recovery = \"prr\"",
            "variant = \"reno\"\nsack = true\nsack_recovery = \"fall-floyd\"",
            "variant = \"sack\"",
            "variant = \"sack\"\nsack_recovery = \"rfc6675\"",
            "variant = \"fack\"",
            "variant = \"vegas\"",
            "variant = \"vegas\"\nsack = true",
            "variant = \"cubic\"",
            "variant = \"cubic\"\nsack = true",
            "variant = \"hybla\"",
            "variant = \"westwood\"\nsack = true",
            "variant = \"bbr\"",
            "variant = \"adalr-newreno\"",
            "variant = \"adalr-sack\"",
            "variant = \"ceten-reno\"",
            "variant = \"ceten-newreno\"\n[flow.cc]\nceten_mode = \"code\"\nceten_alpha = 0.3",
        ]),
        500u32..1461,
        prop::sample::select(vec!["8KB", "30KB", "64KB", "400KB", "4MB"]),
        1u32..4,
        1u32..11,
        prop::sample::select(vec![0u64, 50_000, 300_000]),
        0u32..5,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(variant, mss, rwnd, delack, iw, bytes, start, ts, handshake, lt)| {
            // A [flow.cc] table ends the flow's keys: it goes last (see below).
            let (variant, cc) = variant.split_once("\n[flow.cc]").unwrap_or((variant, ""));
            let cc = if cc.is_empty() { String::new() } else { format!("[flow.cc]{cc}\n") };
            (format!(
                "[[flow]]\n{variant}\nmss = {mss}\nrwnd = \"{rwnd}\"\ndelayed_ack = {delack}\n\
                 initial_cwnd = {iw}\nbytes = {bytes}\nstart = {start}\ntimestamps = {ts}\nhandshake = {handshake}\n\
                 limited_transmit = {lt}\n"
            ), cc)
        });
    ((
        prop::sample::select(vec!["64kbps", "768kbps", "1.544Mbps", "10Mbps"]),
        1u32..300,
        prop::sample::select(vec![0.0, 1e-7, 1e-6, 1e-5, 5e-5]),
        prop::sample::select(vec![0.0, 1e-6, 1e-5]),
        prop::sample::select(vec!["5", "20", "100", "\"16KB\""]),
        prop::collection::vec(flow, 1..4),
        0u64..1000,
        prop::collection::vec(1u64..400, 0..6),
        prop::sample::select(vec!["", "rto_tick = \"500ms\"\ndelayed_ack_tick = \"200ms\"\n"]),
    ),
        any::<bool>(),
    )
        .prop_map(|((rate, delay_ms, ber, return_ber, queue, flows, seed, drops, ticks), chain)| {
            let flows: Vec<String> = flows.into_iter().map(|(f, cc)| f + ticks + &cc).collect();
            let link = format!(
                "rate = \"{rate}\"\ndelay = \"{delay_ms}ms\"\nber = {ber}\nreturn_ber = {return_ber}\nqueue = {queue}\n"
            );
            if !chain {
                return format!(
                    "duration = \"30s\"\nseed = {seed}\n[path]\n{link}drop_packets = {drops:?}\n{}",
                    flows.concat()
                );
            }
            // The same path as a topology: a router with a forwarding limit
            // and RED in front of the lossy hop, flows named by host.
            let flows: Vec<String> = flows.into_iter().map(|f| f.replace("[[flow]]\n", "[[flow]]\nfrom = \"a\"\nto = \"b\"\n")).collect();
            format!(
                "duration = \"30s\"\nseed = {seed}\n[[node]]\nname = \"a\"\n[[node]]\nname = \"r\"\nkind = \"router\"\n\
                 forwarding_rate = \"{rate}\"\n[[node]]\nname = \"b\"\n[[link]]\nfrom = \"a\"\nto = \"r\"\nrate = \"100Mbps\"\n\
                 delay = \"1ms\"\n[[link]]\nfrom = \"r\"\nto = \"b\"\n{link}queue_discipline = \"red\"\n{}",
                flows.concat()
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn transport_invariants_hold_at_every_event(text in arb_scenario()) {
        let scenario = Scenario::from_toml(&text).unwrap();
        let mut sim = Simulation::new(&scenario);
        let mut sent_before: Vec<u64> = vec![0; sim.flows.len()];
        let spec_lt: Vec<bool> = scenario.flows.iter().map(|f| f.limited_transmit).collect();
        while sim.step() {
            for (i, flow) in sim.flows.iter().enumerate() {
                let s = &flow.sender;
                let r = &flow.receiver;
                prop_assert!(s.window.cwnd >= s.window.mss, "cwnd {} below one MSS", s.window.cwnd);
                // Unique bytes acknowledged never exceed bytes delivered in order,
                // which never exceed bytes sent.
                prop_assert!(s.snd_una <= r.bytes_delivered());
                prop_assert!(r.bytes_delivered() <= s.snd_max);
                // New data only goes out inside min(cwnd, rwnd), plus the two
                // segments RFC 3042 allows on duplicate ACKs.
                if s.snd_max > sent_before[i] {
                    let limit = match &s.scoreboard {
                        // SACK recovery sends by pipe, not by snd_una + cwnd:
                        // SACKed data has left the network (RFC 6675 §5).
                        Some(_) if s.sack.in_recovery || s.stats.timeouts > 0 => s.snd_una + s.receive_window(),
                        _ => {
                            let extra = if spec_lt[i] { 2 * s.window.mss } else { 0 };
                            // receive_window() is the peer's window, plus what
                            // TCP-ADaLR's adaptive rwnd increase adds by design.
                            s.snd_una + (s.window.cwnd + extra).min(s.receive_window())
                        }
                    };
                    prop_assert!(s.snd_max <= limit, "sent to {} beyond {}", s.snd_max, limit);
                }
                if let Some(board) = &s.scoreboard {
                    prop_assert!(board.counts_agree(), "scoreboard counts drifted");
                    let outstanding = s.flight_size().div_ceil(s.window.mss);
                    prop_assert!(board.pipe() <= outstanding + board.retransmissions_out());
                    prop_assert!(board.sacked_segments() <= outstanding);
                }
                if flow.variant == "rfc793" {
                    prop_assert_eq!(s.stats.fast_retransmits, 0, "RFC 793 has no fast retransmit");
                }
                sent_before[i] = s.snd_max;
                // The receiver never holds data beyond its advertised window.
                // (TCP-ADaLR sends past it on purpose: its own window bounds it.)
                if let Some(&(_, end)) = r.out_of_order.last() {
                    prop_assert!(end <= r.rcv_nxt + r.window().max(s.receive_window()));
                }
            }
        }
        let result = sim.finish(0.0);
        for (flow, spec) in result.flows.iter().zip(&scenario.flows) {
            if let Some(_) = flow.completion_time_s {
                prop_assert_eq!(flow.bytes_delivered, spec.bytes.0);
            }
            prop_assert!(spec.bytes.0 == 0 || flow.bytes_delivered <= spec.bytes.0);
        }
    }

    #[test]
    fn same_seed_gives_an_identical_result(text in arb_scenario()) {
        let scenario = Scenario::from_toml(&text).unwrap();
        let mut a = satcp_core::run(&scenario);
        let mut b = satcp_core::run(&scenario);
        a.wall_s = 0.0;
        b.wall_s = 0.0;
        prop_assert_eq!(a, b);
    }
}
