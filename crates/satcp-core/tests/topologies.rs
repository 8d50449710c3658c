//! `[[node]]` / `[[link]]` topologies, router forwarding limits, RED and
//! background traffic, checked against capacity arithmetic.

use satcp_core::{run, RunResult, Scenario};

fn scenario(toml: &str) -> Scenario {
    Scenario::from_toml(toml).unwrap_or_else(|e| panic!("{e}"))
}

fn jain(xs: &[f64]) -> f64 {
    //= Jain, Chiu & Hawe 1984 (ADaLR's fairness index, 001.md §2.7)
    //# FI = (sum x)^2 / (n sum x^2)
    let sum: f64 = xs.iter().sum();
    sum * sum / (xs.len() as f64 * xs.iter().map(|x| x * x).sum::<f64>())
}

/// `n` senders on 10 Mb/s access links into a router, a shared bottleneck to one receiver.
fn dumbbell(n: usize, bottleneck: &str, extra_link: &str, flow_extra: &str, duration: &str) -> String {
    let mut t = format!("duration = \"{duration}\"\n[[node]]\nname = \"router\"\nkind = \"router\"\n[[node]]\nname = \"sink\"\n");
    t += &format!("[[link]]\nfrom = \"router\"\nto = \"sink\"\nrate = \"{bottleneck}\"\ndelay = \"100ms\"\nqueue = 100\n{extra_link}\n");
    for i in 0..n {
        t += &format!("[[node]]\nname = \"h{i}\"\n[[link]]\nfrom = \"h{i}\"\nto = \"router\"\nrate = \"10Mbps\"\ndelay = \"1ms\"\n");
    }
    for i in 0..n {
        t += &format!("[[flow]]\nfrom = \"h{i}\"\nto = \"sink\"\nrwnd = \"1MB\"\nstart = \"{}ms\"\n{flow_extra}\n", 100 * i);
    }
    t
}

fn goodputs(r: &RunResult) -> Vec<f64> {
    r.flows.iter().map(|f| f.goodput_bps).collect()
}

#[test]
fn identical_flows_share_a_bottleneck_fairly_and_within_capacity() {
    let r = run(&scenario(&dumbbell(4, "2Mbps", "", "", "600s")));
    let g = goodputs(&r);
    // 1448 payload bytes in 1488 on the wire.
    let capacity = 2e6 * 1448.0 / 1488.0;
    let total: f64 = g.iter().sum();
    assert!(total <= capacity * 1.001, "{total:.0} b/s through a {capacity:.0} b/s bottleneck");
    assert!(total > 0.85 * capacity, "the bottleneck stays busy: {total:.0} b/s");
    assert!(jain(&g) > 0.95, "Jain's index {:.3} for {g:?}", jain(&g));
}

#[test]
fn a_router_forwarding_rate_is_the_bottleneck_on_fast_links() {
    // Carroll's network at 50 ms and 1e-7: 10 Mb/s links everywhere, routers
    // forwarding 1.544 Mb/s. His four clients together reached "1.4 Mb/s ...
    // very close to the router's datagram forwarding rate" (000.md §3.1).
    let text = include_str!("../../../scenarios/carroll-topology.toml")
        .replace("delay = \"320ms\"", "delay = \"50ms\"")
        .replace("ber = 1e-6", "ber = 1e-7")
        .replace("return_ber = 1e-6", "return_ber = 1e-7")
        .replace("duration = \"600s\"", "duration = \"300s\"");
    let r = run(&scenario(&text));
    let total: f64 = goodputs(&r).iter().sum();
    // 536 payload bytes per 576-byte datagram, processed at 1.544 Mb/s.
    let ceiling = 1.544e6 * 536.0 / 576.0;
    assert!(total <= ceiling * 1.001, "{total:.0} b/s above the forwarding rate's {ceiling:.0}");
    assert!(total > 0.85 * ceiling, "{total:.0} b/s: the routers should be nearly saturated");
    let forwarding = r.links.iter().find(|l| l.name == "router1 forwarding").expect("router1's processor");
    assert!(forwarding.utilization > 0.85, "router1 busy {:.2}", forwarding.utilization);
    let satellite = r.links.iter().find(|l| l.name == "router1->router2").unwrap();
    assert!(satellite.utilization < 0.2, "the 10 Mb/s hop idles: {:.2}", satellite.utilization);
}

#[test]
fn red_keeps_the_queue_shorter_than_drop_tail() {
    let drop_tail = run(&scenario(&dumbbell(2, "2Mbps", "", "", "300s")));
    let red = run(&scenario(&dumbbell(2, "2Mbps", "queue_discipline = \"red\"\nred_min = 5\nred_max = 15", "", "300s")));
    let srtt = |r: &RunResult| r.flows.iter().map(|f| f.srtt_s.unwrap()).sum::<f64>() / r.flows.len() as f64;
    // RTT without queueing is 2 x 101 ms plus serialisation; a full 100-packet
    // drop-tail queue adds up to 0.6 s, RED's average of 5-15 packets far less.
    assert!(srtt(&red) + 0.1 < srtt(&drop_tail), "RED srtt {:.3} s, drop-tail {:.3} s", srtt(&red), srtt(&drop_tail));
    let total = |r: &RunResult| goodputs(r).iter().sum::<f64>();
    assert!(total(&red) > 0.8 * total(&drop_tail), "RED {:.0}, drop-tail {:.0}", total(&red), total(&drop_tail));
}

fn with_traffic(kind_keys: &str) -> RunResult {
    run(&scenario(&format!(
        "duration = \"200s\"\n[path]\nrate = \"10Mbps\"\ndelay = \"50ms\"\n[[flow]]\nrwnd = 2000\n\
         [[traffic]]\nfrom = \"sender\"\nto = \"receiver\"\npacket_size = 1000\n{kind_keys}\n"
    )))
}

#[test]
fn background_sources_send_at_their_rates() {
    let cbr = &with_traffic("kind = \"cbr\"\nrate = \"2Mbps\"").traffic[0];
    // 2 Mb/s of 1000-byte packets for 200 s: 250 a second.
    assert_eq!(cbr.packets_sent, 50_000);
    assert!((cbr.throughput_bps / 2e6 - 1.0).abs() < 1e-3, "{}", cbr.throughput_bps);
    let poisson = &with_traffic("kind = \"poisson\"\nrate = \"2Mbps\"").traffic[0];
    // Poisson count over 200 s: mean 50,000, sd 224; allow 4 sd.
    assert!((poisson.packets_sent as f64 - 50_000.0).abs() < 900.0, "{}", poisson.packets_sent);
    let on_off = &with_traffic("kind = \"on-off\"\nrate = \"4Mbps\"\nmean_on = \"1s\"\nmean_off = \"1s\"").traffic[0];
    // On half the time at 4 Mb/s: 2 Mb/s on average, over ~100 on-periods.
    assert!((on_off.throughput_bps / 2e6 - 1.0).abs() < 0.15, "{}", on_off.throughput_bps);
}

#[test]
fn tcp_takes_what_constant_rate_traffic_leaves() {
    let r = run(&scenario(
        "duration = \"300s\"\n[path]\nrate = \"2Mbps\"\ndelay = \"50ms\"\nqueue = 50\n[[flow]]\nrwnd = \"1MB\"\n\
         [[traffic]]\nkind = \"cbr\"\nfrom = \"sender\"\nto = \"receiver\"\nrate = \"500kbps\"\npacket_size = 1000\n",
    ));
    let tcp = r.flows[0].goodput_bps;
    let udp = r.traffic[0].throughput_bps;
    let link_payload = (2e6 - udp) * 1448.0 / 1488.0;
    assert!(tcp + udp <= 2e6, "{tcp:.0} + {udp:.0} over 2 Mb/s");
    assert!(tcp > 0.75 * link_payload, "TCP {tcp:.0} b/s of the {link_payload:.0} left");
}

#[test]
fn topology_mistakes_name_the_key() {
    let base = dumbbell(1, "2Mbps", "", "", "10s");
    let cases = [
        (base.replace("to = \"sink\"\nrwnd", "to = \"nowhere\"\nrwnd"), "flow.0.to", "no node named"),
        (base.replace("from = \"h0\"\nto = \"sink\"", "from = \"router\"\nto = \"sink\""), "flow.0.from", "router"),
        (base.replace("name = \"h0\"\n[[link]]", "name = \"sink\"\n[[link]]"), "node.2.name", "two nodes"),
        (base.replace("from = \"h0\"\nto = \"router\"", "from = \"h0\"\nto = \"h0\""), "link.1.to", "itself"),
        (base.replace("queue = 100", "queue = 100\nqueue_discipline = \"codel\""), "link.0.queue_discipline", "red"),
        (format!("{base}[path]\nrate = 1\ndelay = 1\n"), "link", "[path]"),
    ];
    for (text, key, words) in cases {
        let err = Scenario::from_toml(&text).expect_err(key);
        assert_eq!(err.key, key, "{err}");
        assert!(err.to_string().contains(words) && !err.to_string().contains('\n'), "{err}");
    }
    // A host cut off from the rest.
    let island = base.replace("[[flow]]", "[[node]]\nname = \"island\"\n[[flow]]\nfrom = \"h0\"\nto = \"island\"\n[[flow]]");
    assert!(Scenario::from_toml(&island).unwrap_err().to_string().contains("no path"));
}

#[test]
fn topologies_are_deterministic() {
    let s = scenario(&dumbbell(3, "1Mbps", "ber = 1e-6", "", "60s"));
    let (mut a, mut b) = (run(&s), run(&s));
    a.wall_s = 0.0;
    b.wall_s = 0.0;
    assert_eq!(a, b);
}

#[test]
fn leung_background_load_gives_his_congestion_loss() {
    // Leung §3.3.1 measured 0.05 +- 0.01 congestion loss at the Internet's
    // bottleneck router; scenarios/leung-internet.toml sets its Poisson load for it.
    let text = include_str!("../../../scenarios/leung-internet.toml").replace("duration = \"300s\"", "duration = \"100s\"");
    let r = run(&scenario(&text));
    let t3 = r.links.iter().find(|l| l.name == "internet->gateway").unwrap();
    let loss = t3.queue_drops as f64 / (t3.packets + t3.queue_drops) as f64;
    assert!((0.04..=0.06).contains(&loss), "congestion loss {loss:.4}");
}
