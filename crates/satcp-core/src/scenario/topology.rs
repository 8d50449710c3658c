//! `[[node]]`, `[[link]]` and `[[traffic]]`: any topology of hosts and
//! routers, checked for names that resolve and paths that exist.

use serde::Deserialize;
use std::collections::{HashMap, VecDeque};

use super::{error, QueueLimit, Scenario, ScenarioError};
use crate::units::{Bytes, Duration, Rate};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    /// Ends flows; does not forward.
    #[default]
    Host,
    /// Forwards by static shortest-path routes.
    Router,
    /// A performance-enhancing proxy (RFC 3135): forwards like a router, and
    /// splits every TCP flow whose route crosses it (`pep.rs`).
    Pep,
}

/// SCPS-TP's default source of loss, for losses nothing else explains
/// (SCPS-TP Users Manual §2.2.7.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LossResponse {
    /// The window shrinks, as TCP's does (Vegas: 3/4 once per lossy window).
    #[default]
    Congestion,
    /// Neither the window nor the rate changes (§2.2.1.1).
    Corruption,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
    #[serde(default)]
    pub kind: NodeKind,
    /// A router's datagram forwarding rate: every packet it forwards is
    /// processed at this rate, one at a time (Carroll's "1.544 Mb/s datagram
    /// forwarding rate", 000.md §3.1); none = forwarding is free.
    pub forwarding_rate: Option<Rate>,
    /// Packets (or bytes) waiting for the forwarding processor.
    pub forwarding_queue: Option<QueueLimit>,
    /// PEP: the transport toward the next PEP: "scps" or any variant name.
    pub transport: Option<String>,
    /// PEP: bytes it buffers per connection it terminates (its advertised window).
    pub buffer: Option<Bytes>,
    /// PEP with transport "scps": rate-based congestion control at this rate;
    /// without it, Vegas.
    pub rate: Option<Rate>,
    /// PEP with transport "scps": SCPS-TP's default source of loss.
    pub loss_response: Option<LossResponse>,
    /// PEP with transport "scps": SCPS-TP header compression.
    pub header_compression: Option<bool>,
    /// Router or PEP: drop queued ACKs a newer cumulative ACK supersedes, on
    /// the links it sends on (RFC 3135 §3.2, RFC 3449 §5.3.2).
    pub ack_filtering: Option<bool>,
    /// Router or PEP: send at most one ACK per this interval on each of its links (RFC 3135 §3.2.3).
    pub ack_spacing: Option<Duration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrafficKind {
    /// Constant bit rate: one packet every size / rate.
    Cbr,
    /// Exponential on and off periods, constant rate while on.
    OnOff,
    /// Poisson arrivals of fixed-size packets at a mean rate (Leung's background load, 002.md §1.4).
    Poisson,
}

/// A UDP-like source: packets that nobody acknowledges or retransmits.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficSpec {
    pub kind: TrafficKind,
    /// Sending and receiving host (with `[path]`: "sender" and "receiver").
    pub from: String,
    pub to: String,
    /// The mean rate (cbr, poisson) or the rate while on (on-off).
    pub rate: Rate,
    /// IP datagram size.
    #[serde(default = "default_packet_size")]
    pub packet_size: Bytes,
    pub mean_on: Option<Duration>,
    pub mean_off: Option<Duration>,
    #[serde(default = "zero")]
    pub start: Duration,
    /// When the source stops (default: the end of the run).
    pub stop: Option<Duration>,
}

fn zero() -> Duration {
    Duration(0)
}

fn default_packet_size() -> Bytes {
    Bytes(1500)
}

/// The node names of the single-path form, for `[[traffic]]` beside a `[path]`.
pub const PATH_SENDER: &str = "sender";
pub const PATH_RECEIVER: &str = "receiver";

/// Node names in order; with `[path]`, the sender and the receiver.
pub fn node_names(scenario: &Scenario) -> Vec<String> {
    if scenario.path.is_some() {
        vec![PATH_SENDER.to_string(), PATH_RECEIVER.to_string()]
    } else {
        scenario.nodes.iter().map(|n| n.name.clone()).collect()
    }
}

/// Names resolve, links join distinct known nodes, flows run host to host
/// over a path that exists.
pub(super) fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let mut index = HashMap::new();
    for (i, node) in s.nodes.iter().enumerate() {
        if node.name.trim().is_empty() {
            return Err(error(format!("node.{i}.name"), "empty; accepted: a name such as \"client1\""));
        }
        if index.insert(node.name.as_str(), i).is_some() {
            return Err(error(format!("node.{i}.name"), format!("\"{}\" names two nodes; accepted: unique names", node.name)));
        }
        if node.kind != NodeKind::Router && (node.forwarding_rate.is_some() || node.forwarding_queue.is_some()) {
            return Err(error(format!("node.{i}.forwarding_rate"), "belongs to routers; accepted with kind = \"router\""));
        }
        crate::pep::validate_node(i, node).map_err(|(key, message)| error(key, message))?;
    }
    let known = |at: String, name: &str| -> Result<usize, ScenarioError> {
        index.get(name).copied().ok_or_else(|| {
            let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
            error(at, format!("no node named \"{name}\"; accepted: {}", names.join(", ")))
        })
    };
    let mut adjacent = vec![Vec::new(); s.nodes.len()];
    for (i, link) in s.links.iter().enumerate() {
        let a = known(format!("link.{i}.from"), link.from.as_deref().unwrap_or_default())?;
        let b = known(format!("link.{i}.to"), link.to.as_deref().unwrap_or_default())?;
        if a == b {
            return Err(error(format!("link.{i}.to"), "joins a node to itself; accepted: two different nodes"));
        }
        adjacent[a].push(b);
        adjacent[b].push(a);
    }
    let host = |at: String, name: &str| -> Result<usize, ScenarioError> {
        let n = known(at.clone(), name)?;
        if s.nodes[n].kind != NodeKind::Host {
            return Err(error(at, format!("\"{name}\" is not a host; flows and traffic run between hosts")));
        }
        Ok(n)
    };
    let ends = s.flows.iter().enumerate().map(|(i, f)| (format!("flow.{i}"), f.from.as_deref(), f.to.as_deref()));
    let sources = s.traffic.iter().enumerate().map(|(i, t)| (format!("traffic.{i}"), Some(t.from.as_str()), Some(t.to.as_str())));
    for (at, from, to) in ends.chain(sources) {
        let (Some(from), Some(to)) = (from, to) else {
            return Err(error(format!("{at}.from"), "missing; with [[node]] tables every flow names its hosts: from = \"a\", to = \"b\""));
        };
        let a = host(format!("{at}.from"), from)?;
        let b = host(format!("{at}.to"), to)?;
        if a == b {
            return Err(error(format!("{at}.to"), "the same host as `from`; accepted: two different hosts"));
        }
        if !reachable(&adjacent, a, b) {
            return Err(error(format!("{at}.to"), format!("no path of [[link]]s from \"{from}\" to \"{to}\"")));
        }
    }
    Ok(())
}

fn reachable(adjacent: &[Vec<usize>], from: usize, to: usize) -> bool {
    let mut seen = vec![false; adjacent.len()];
    let mut queue = VecDeque::from([from]);
    seen[from] = true;
    while let Some(n) = queue.pop_front() {
        if n == to {
            return true;
        }
        for &m in &adjacent[n] {
            if !std::mem::replace(&mut seen[m], true) {
                queue.push_back(m);
            }
        }
    }
    false
}

/// Checks `[[traffic]]` ranges and, beside a `[path]`, its endpoint names.
pub(super) fn validate_traffic(s: &Scenario) -> Result<(), ScenarioError> {
    for (i, t) in s.traffic.iter().enumerate() {
        let key = |name: &str| format!("traffic.{i}.{name}");
        if s.path.is_some() {
            for (name, value) in [("from", &t.from), ("to", &t.to)] {
                if value != PATH_SENDER && value != PATH_RECEIVER {
                    return Err(error(key(name), format!("\"{value}\"; with [path] accepted: \"{PATH_SENDER}\" or \"{PATH_RECEIVER}\"")));
                }
            }
            if t.from == t.to {
                return Err(error(key("to"), "the same host as `from`; accepted: two different hosts"));
            }
        }
        if !(28..=65_535).contains(&t.packet_size.0) {
            return Err(error(key("packet_size"), format!("{} bytes; accepted: 28 (IP + UDP headers) to 65535", t.packet_size.0)));
        }
        let needs_periods = t.kind == TrafficKind::OnOff;
        for (name, value) in [("mean_on", t.mean_on), ("mean_off", t.mean_off)] {
            match (needs_periods, value) {
                (true, None) => return Err(error(key(name), "missing; an on-off source needs mean_on and mean_off")),
                (true, Some(d)) if d.0 < 1000 => return Err(error(key(name), "shorter than 1us; accepted: such as \"500ms\"")),
                (false, Some(_)) => return Err(error(key(name), "belongs to kind = \"on-off\" sources")),
                _ => {}
            }
        }
        if t.stop.is_some_and(|stop| stop.0 <= t.start.0) {
            return Err(error(key("stop"), "not after `start`"));
        }
    }
    Ok(())
}
