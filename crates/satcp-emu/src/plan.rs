//! From a scenario to what the emulator sets up: the kernel congestion
//! control of each flow, the per-namespace sysctls and route metrics, and a
//! one-line refusal for every key the real stack cannot honour (never a
//! silent difference).

use satcp_core::scenario::{FlowSpec, Scenario, ScenarioError};
use satcp_core::tcp::variant;
use serde_json::Value;

/// satcp variant -> Linux congestion control. Linux "reno" is NewReno
/// (RFC 6582 partial ACKs) with SACK when negotiated; there is no Tahoe,
/// FACK or RFC 793 stack to run.
const KERNEL_CC: &[(&str, &str)] = &[("reno", "reno"), ("newreno", "reno"), ("cubic", "cubic"), ("bbr", "bbr")];

#[derive(Clone, Debug)]
pub struct FlowPlan {
    /// The name the scenario gave.
    pub variant: String,
    pub cc: String,
    pub mss: u32,
    pub rwnd: u64,
    /// 0 = bulk for the whole run.
    pub bytes: u64,
    pub start_ns: u64,
}

/// Settings shared by every flow: they are per namespace (sysctls) or per route.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StackPlan {
    pub sack: bool,
    /// RACK-TLP: `net.ipv4.tcp_recovery` and `tcp_early_retrans` on or off.
    pub rack: bool,
    pub timestamps: bool,
    pub window_scaling: bool,
    pub initial_cwnd: u32,
    pub min_rto_ms: u64,
    pub max_rto_ms: u64,
    /// Device MTU: the largest flow's segment plus IP, TCP and option headers.
    pub mtu: u32,
}

pub struct Plan {
    pub scenario: Scenario,
    pub flows: Vec<FlowPlan>,
    pub stack: StackPlan,
}

fn error(key: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { key: key.into(), message: message.into() }
}

/// Reads the scenario JSON and plans it for the kernel; `available` is
/// `tcp_available_congestion_control`.
pub fn plan(scenario: &Value, available: &[String]) -> Result<Plan, ScenarioError> {
    // Every variant the kernel runs is also a simulator variant, so the
    // simulator's loader checks the other keys as it would for `satcp run`.
    let mut ccs = Vec::new();
    if let Some(flows) = scenario.get("flow").and_then(Value::as_array) {
        for (i, flow) in flows.iter().enumerate() {
            let name = flow.get("variant").and_then(Value::as_str).unwrap_or("newreno").to_string();
            let cc = kernel_cc(&name, available).map_err(|m| error(format!("flow.{i}.variant"), m))?;
            ccs.push((name, cc));
        }
    }
    let text = serde_json::to_string(scenario).map_err(|e| error("", e.to_string()))?;
    let scenario = Scenario::from_json(&text)?;
    refuse_path(&scenario)?;
    let mut flows = Vec::new();
    for (i, (spec, (name, cc))) in scenario.flows.iter().zip(ccs).enumerate() {
        refuse_flow(spec, &format!("flow.{i}"))?;
        flows.push(FlowPlan {
            variant: name,
            cc,
            mss: spec.mss,
            rwnd: spec.rwnd.0,
            bytes: spec.bytes.0,
            start_ns: spec.start.0,
        });
    }
    let stack = stack_plan(&scenario)?;
    Ok(Plan { scenario, flows, stack })
}

fn kernel_cc(name: &str, available: &[String]) -> Result<String, String> {
    let avail = available.join(", ");
    let Some((_, cc)) = KERNEL_CC.iter().find(|(v, _)| *v == name) else {
        return Err(format!(
            "variant \"{name}\" has no Linux congestion control to run; accepted by emulate: reno, newreno (both Linux reno), cubic, bbr (this kernel has: {avail})"
        ));
    };
    if !available.iter().any(|a| a == cc) {
        return Err(format!("this kernel has no \"{cc}\" congestion control; available: {avail}"));
    }
    Ok(cc.to_string())
}

/// The emulated path: emulate takes the single-path form only (checked in `refuse_path`).
pub fn path(s: &Scenario) -> &satcp_core::scenario::PathSpec {
    s.path.as_ref().expect("emulate plans a [path] scenario")
}

fn refuse_path(s: &Scenario) -> Result<(), ScenarioError> {
    let Some(path) = &s.path else {
        return Err(error("link", "[[node]] / [[link]] topologies are not emulated; accepted: a [path] scenario"));
    };
    if !s.traffic.is_empty() {
        return Err(error("traffic", "background traffic is not emulated; accepted: no [[traffic]] tables with emulate"));
    }
    if !path.drop_packets.is_empty() {
        return Err(error("path.drop_packets", "not emulated (the real stack numbers its own segments); accepted: [] with emulate"));
    }
    Ok(())
}

/// Keys whose value the kernel cannot take: accepted only at their defaults
/// where Linux does the same, refused otherwise.
fn refuse_flow(f: &FlowSpec, at: &str) -> Result<(), ScenarioError> {
    let key = |k: &str| format!("{at}.{k}");
    let ms = |d: satcp_core::units::Duration| d.0 / 1_000_000;
    if !f.handshake {
        return Err(error(key("handshake"), "false is not possible with a real stack; accepted: true with emulate"));
    }
    if f.delayed_ack != 2 {
        return Err(error(key("delayed_ack"), "Linux ACKs every second segment (with its own quick-ACK rules); accepted: 2 with emulate"));
    }
    if f.delayed_ack_timeout.0 != 200_000_000 {
        return Err(error(key("delayed_ack_timeout"), "Linux sets its delayed-ACK timer itself (40-200 ms); accepted: \"200ms\" with emulate"));
    }
    if f.initial_ssthresh.is_some() {
        return Err(error(key("initial_ssthresh"), "Linux has no per-connection initial ssthresh; leave it out with emulate"));
    }
    if f.sack_recovery.is_some() {
        return Err(error(key("sack_recovery"), "Linux recovers with its own RFC 6675/RACK; leave it out with emulate"));
    }
    if f.partial_ack_timer != satcp_core::tcp::recovery::PartialAckTimer::Impatient {
        return Err(error(key("partial_ack_timer"), "Linux's timer is its own; accepted: \"impatient\" with emulate"));
    }
    if f.initial_rto.0 != 1_000_000_000 {
        return Err(error(key("initial_rto"), "Linux's initial RTO is fixed at 1 s (RFC 6298); accepted: \"1s\" with emulate"));
    }
    if f.clock_granularity.0 != 1_000_000 {
        return Err(error(key("clock_granularity"), "the kernel's clock is its own; accepted: \"1ms\" with emulate"));
    }
    if f.rto_tick.0 != 0 || f.delayed_ack_tick.0 != 0 {
        let k = if f.rto_tick.0 != 0 { "rto_tick" } else { "delayed_ack_tick" };
        return Err(error(key(k), "Linux has no BSD timer ticks; accepted: \"0s\" with emulate"));
    }
    if !(1..=120_000).contains(&ms(f.max_rto)) || ms(f.max_rto) < 1000 {
        return Err(error(key("max_rto"), "Linux accepts 1 s to 120 s (net.ipv4.tcp_rto_max_ms)"));
    }
    if ms(f.min_rto) == 0 {
        return Err(error(key("min_rto"), "below the kernel's 1 ms resolution; accepted: at least \"1ms\" with emulate"));
    }
    Ok(())
}

/// Namespace-wide settings must agree between flows: one line if they do not.
fn stack_plan(s: &Scenario) -> Result<StackPlan, ScenarioError> {
    let per_flow = |f: &FlowSpec| {
        let sack = variant::find(&f.variant).map(|v| v.sack_enabled(f.sack)).unwrap_or(false);
        StackPlan {
            sack,
            rack: f.rack,
            timestamps: f.timestamps,
            window_scaling: f.window_scaling,
            initial_cwnd: f.initial_cwnd,
            min_rto_ms: f.min_rto.0 / 1_000_000,
            max_rto_ms: f.max_rto.0 / 1_000_000,
            mtu: 0,
        }
    };
    let first = per_flow(&s.flows[0]);
    for (i, f) in s.flows.iter().enumerate().skip(1) {
        let p = per_flow(f);
        let clash = [
            ("sack", p.sack != first.sack),
            ("rack", p.rack != first.rack),
            ("timestamps", p.timestamps != first.timestamps),
            ("window_scaling", p.window_scaling != first.window_scaling),
            ("initial_cwnd", p.initial_cwnd != first.initial_cwnd),
            ("min_rto", p.min_rto_ms != first.min_rto_ms),
            ("max_rto", p.max_rto_ms != first.max_rto_ms),
        ];
        if let Some((k, _)) = clash.iter().find(|(_, differs)| *differs) {
            return Err(error(
                format!("flow.{i}.{k}"),
                "differs from flow.0's, but the kernel sets it per namespace or route; accepted: the same value for every flow with emulate",
            ));
        }
    }
    let options = if first.timestamps { 12 } else { 0 };
    let mss = s.flows.iter().map(|f| f.mss).max().unwrap_or(1448);
    // Linux will not send segments below TCP_MIN_MSS (88 B, include/net/tcp.h);
    // smaller MTUs than 576 are fine (Hayes's 512 B segments need 552).
    if let Some((i, f)) = s.flows.iter().enumerate().find(|(_, f)| f.mss < 88) {
        return Err(error(format!("flow.{i}.mss"), format!("{} is below Linux's smallest segment; accepted: at least 88 with emulate", f.mss)));
    }
    Ok(StackPlan { mtu: mss + 40 + options, ..first })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn avail() -> Vec<String> {
        ["reno", "cubic", "bbr"].map(String::from).to_vec()
    }

    fn scenario(flow: Value) -> Value {
        serde_json::json!({"path": {"rate": "10Mbps", "delay": "250ms"}, "flow": [flow]})
    }

    #[test]
    fn variants_map_to_kernel_controls() {
        let p = plan(&scenario(serde_json::json!({"variant": "cubic"})), &avail()).unwrap();
        assert_eq!((p.flows[0].variant.as_str(), p.flows[0].cc.as_str()), ("cubic", "cubic"));
        let p = plan(&scenario(serde_json::json!({"variant": "newreno", "timestamps": true})), &avail()).unwrap();
        assert_eq!(p.flows[0].cc, "reno");
        assert_eq!(p.stack.mtu, 1500);
    }

    #[test]
    fn unrunnable_variants_are_refused_naming_the_available_ones() {
        let e = plan(&scenario(serde_json::json!({"variant": "tahoe"})), &avail()).err().unwrap();
        assert_eq!(e.key, "flow.0.variant");
        assert!(e.message.contains("reno, cubic, bbr"), "{e}");
        let e = plan(&scenario(serde_json::json!({"variant": "bbr"})), &["reno".to_string()]).err().unwrap();
        assert!(e.message.contains("no \"bbr\""), "{e}");
    }

    #[test]
    fn keys_the_kernel_cannot_honour_are_refused() {
        for (flow, key) in [
            (serde_json::json!({"delayed_ack": 1}), "flow.0.delayed_ack"),
            (serde_json::json!({"handshake": false}), "flow.0.handshake"),
            (serde_json::json!({"rto_tick": "500ms"}), "flow.0.rto_tick"),
        ] {
            let e = plan(&scenario(flow), &avail()).err().unwrap();
            assert_eq!(e.key, key);
        }
        let mut s = scenario(serde_json::json!({}));
        s["path"]["drop_packets"] = serde_json::json!([3]);
        assert_eq!(plan(&s, &avail()).err().unwrap().key, "path.drop_packets");
    }

    #[test]
    fn flows_sharing_a_namespace_must_agree() {
        let s = serde_json::json!({"path": {"rate": 1e6, "delay": 0.1}, "flow": [{"sack": true}, {"sack": false}]});
        assert_eq!(plan(&s, &avail()).err().unwrap().key, "flow.1.sack");
        let s = serde_json::json!({"path": {"rate": 1e6, "delay": 0.1}, "flow": [{"sack": true, "rack": true}, {"sack": true}]});
        assert_eq!(plan(&s, &avail()).err().unwrap().key, "flow.1.rack");
    }

    #[test]
    fn rack_follows_the_flow() {
        // Off unless asked for, as in the simulator (Linux's own default is on).
        let p = plan(&scenario(serde_json::json!({"sack": true})), &avail()).unwrap();
        assert!(!p.stack.rack);
        let p = plan(&scenario(serde_json::json!({"sack": true, "rack": true})), &avail()).unwrap();
        assert!(p.stack.rack);
    }
}
