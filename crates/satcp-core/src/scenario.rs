//! The scenario a run is a pure function of (with its seed), as DESIGN.md
//! fixes its keys. Deserialisation rejects unknown keys; `validate` checks
//! ranges and combinations, naming the key at fault.

use serde::Deserialize;
use std::fmt;

use crate::tcp::cc::CcParams;
use crate::tcp::recovery::{PartialAckTimer, RecoveryKind, SackStyle};
use crate::tcp::variant::{self, SackUse};
use crate::time::NS_PER_S;
use crate::units::{Bytes, Duration, Rate};

mod path;
mod physical;
mod topology;
pub use physical::{ErrorsSpec, OrbitSpec, OrbitTable};
pub use topology::{node_names, LossResponse, NodeKind, NodeSpec, TrafficKind, TrafficSpec, PATH_RECEIVER, PATH_SENDER};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Simulated time.
    #[serde(default = "defaults::duration")]
    pub duration: Duration,
    #[serde(default = "defaults::seed")]
    pub seed: u64,
    /// The single-path shorthand: sender -> link -> receiver.
    pub path: Option<PathSpec>,
    /// Any topology: hosts and routers ...
    #[serde(default, rename = "node")]
    pub nodes: Vec<NodeSpec>,
    /// ... joined by two-way links, each with a `[path]`'s keys plus `from` and `to`.
    #[serde(default, rename = "link")]
    pub links: Vec<PathSpec>,
    #[serde(rename = "flow")]
    pub flows: Vec<FlowSpec>,
    /// Background traffic that is not TCP: constant-rate, on/off and Poisson sources.
    #[serde(default, rename = "traffic")]
    pub traffic: Vec<TrafficSpec>,
}

/// Queue capacity: a packet count (integer) or a byte size (string with a unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueueLimit {
    Packets(u64),
    Bytes(u64),
}

impl<'de> Deserialize<'de> for QueueLimit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Count(i64),
            Size(String),
        }
        match Raw::deserialize(d).map_err(|_| {
            serde::de::Error::custom(
                "expected a queue limit: a number of packets such as 1000, or a size such as \"64KB\"",
            )
        })? {
            Raw::Count(n) if n >= 1 => Ok(QueueLimit::Packets(n as u64)),
            Raw::Count(n) => Err(serde::de::Error::custom(format!(
                "queue of {n} packets; accepted: at least 1 packet"
            ))),
            Raw::Size(text) => {
                let Bytes(b) = crate::units::parse_bytes(&text).map_err(serde::de::Error::custom)?;
                Ok(QueueLimit::Bytes(b))
            }
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    /// Both directions, unless `forward_rate` / `return_rate` override one.
    pub rate: Option<Rate>,
    pub forward_rate: Option<Rate>,
    pub return_rate: Option<Rate>,
    /// One-way propagation delay; absent when `orbit` sets it.
    #[serde(default)]
    pub delay: Option<Duration>,
    /// Bit error rate in the data direction.
    #[serde(default)]
    pub ber: f64,
    /// Bit error rate in the ACK direction.
    #[serde(default)]
    pub return_ber: f64,
    /// Drop-tail queue at the sender side of the forward link.
    #[serde(default = "defaults::queue")]
    pub queue: QueueLimit,
    /// Queue at the receiver side of the return link (default: same as `queue`).
    pub return_queue: Option<QueueLimit>,
    /// Link-layer header bytes added to every packet on the wire (2 for PPP, 18 for Ethernet).
    #[serde(default = "defaults::zero_bytes")]
    pub link_header: Bytes,
    /// Drop the n-th data packet to cross the forward link (1-based,
    /// retransmissions counted), for controlled drop experiments (Hayes §3.3).
    #[serde(default)]
    pub drop_packets: Vec<u64>,
    /// `[[link]]` only: the nodes it joins; "forward" is from -> to.
    pub from: Option<String>,
    pub to: Option<String>,
    /// "drop-tail" (default) or "red" (Floyd & Jacobson 1993) at each direction's queue.
    pub queue_discipline: Option<String>,
    /// RED thresholds on the average queue, packets (default 5 and 15).
    pub red_min: Option<f64>,
    pub red_max: Option<f64>,
    /// RED's drop probability at `red_max` (default 0.1) and averaging weight (default 0.002).
    pub red_max_p: Option<f64>,
    pub red_weight: Option<f64>,
    /// Error model of the data direction, instead of `ber` (scenario/physical.rs).
    pub errors: Option<ErrorsSpec>,
    /// Error model of the ACK direction, instead of `return_ber`.
    pub return_errors: Option<ErrorsSpec>,
    /// A satellite orbit that sets the delay, instead of `delay`.
    pub orbit: Option<OrbitSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    #[serde(default = "defaults::variant")]
    pub variant: String,
    /// With `[[node]]` topologies: the sending and the receiving host.
    pub from: Option<String>,
    pub to: Option<String>,
    /// Payload bytes per segment.
    #[serde(default = "defaults::mss")]
    pub mss: u32,
    /// Receiver buffer; the advertised window.
    #[serde(default = "defaults::rwnd")]
    pub rwnd: Bytes,
    /// RFC 7323 window scaling; without it the window is capped at 65,535 bytes.
    #[serde(default = "defaults::yes")]
    pub window_scaling: bool,
    /// RFC 2018 SACK; the `sack` and `fack` variants always use it.
    pub sack: Option<bool>,
    /// Which SACK recovery: "rfc6675", "prr" or "fall-floyd" (default by variant).
    pub sack_recovery: Option<SackStyle>,
    /// RFC 7323 timestamps: 12 option bytes on every segment, an RTT sample from every ACK.
    #[serde(default)]
    pub timestamps: bool,
    /// Segments per ACK; 1 = ACK every segment.
    #[serde(default = "defaults::delayed_ack")]
    pub delayed_ack: u32,
    #[serde(default = "defaults::delayed_ack_timeout")]
    pub delayed_ack_timeout: Duration,
    /// Initial congestion window, segments.
    #[serde(default = "defaults::initial_cwnd")]
    pub initial_cwnd: u32,
    /// Initial slow-start threshold (default: arbitrarily high, RFC 5681 §3.1).
    pub initial_ssthresh: Option<Bytes>,
    /// 0 = unlimited bulk transfer for the whole duration.
    #[serde(default = "defaults::zero_bytes")]
    pub bytes: Bytes,
    /// When the flow opens its connection.
    #[serde(default = "defaults::zero_duration")]
    pub start: Duration,
    /// Model the SYN / SYN-ACK exchange before data flows.
    #[serde(default = "defaults::yes")]
    pub handshake: bool,
    /// RFC 3042 limited transmit: new data on the first two duplicate ACKs.
    #[serde(default)]
    pub limited_transmit: bool,
    /// RFC 3465: grow per segment acknowledged (at most 2 per ACK), as Linux; Reno-growth controllers only.
    #[serde(default)]
    pub byte_counting: bool,
    /// RFC 8985 RACK-TLP loss detection (time-based, tail loss probes) beside
    /// RFC 6675's duplicate-ACK rule; SACK recovery (rfc6675 or prr) only. Linux's default.
    #[serde(default)]
    pub rack: bool,
    /// NewReno's timer on partial ACKs: "impatient" (RFC 6582 §3.2) or "slow-but-steady".
    #[serde(default = "defaults::partial_ack_timer")]
    pub partial_ack_timer: PartialAckTimer,
    /// RFC 6298 (2.1): initial RTO, 1 s.
    #[serde(default = "defaults::one_second")]
    pub initial_rto: Duration,
    /// RFC 6298 (2.4): minimum RTO, 1 s.
    #[serde(default = "defaults::one_second")]
    pub min_rto: Duration,
    /// RFC 6298 (2.5): an upper bound of at least 60 s.
    #[serde(default = "defaults::max_rto")]
    pub max_rto: Duration,
    /// Clock granularity G of RFC 6298 (2.2-2.3).
    #[serde(default = "defaults::clock_granularity")]
    pub clock_granularity: Duration,
    /// BSD slow-timer tick for the RTO ("500ms" as 4.4BSD); 0 = exact.
    #[serde(default = "defaults::zero_duration")]
    pub rto_tick: Duration,
    /// BSD fast-timer tick for delayed ACKs ("200ms" as 4.4BSD); 0 = `delayed_ack_timeout` exactly.
    #[serde(default = "defaults::zero_duration")]
    pub delayed_ack_tick: Duration,
    /// The congestion controller's parameters (`[flow.cc]`), prefixed by controller.
    #[serde(default)]
    pub cc: CcParams,
}

mod defaults {
    use super::*;
    pub fn duration() -> Duration {
        Duration(60 * NS_PER_S)
    }
    pub fn seed() -> u64 {
        1
    }
    pub fn queue() -> QueueLimit {
        QueueLimit::Packets(1000)
    }
    pub fn zero_bytes() -> Bytes {
        Bytes(0)
    }
    pub fn zero_duration() -> Duration {
        Duration(0)
    }
    pub fn variant() -> String {
        "newreno".into()
    }
    pub fn mss() -> u32 {
        1448
    }
    pub fn rwnd() -> Bytes {
        Bytes(16_000_000)
    }
    pub fn yes() -> bool {
        true
    }
    pub fn delayed_ack() -> u32 {
        2
    }
    pub fn delayed_ack_timeout() -> Duration {
        Duration(200_000_000)
    }
    pub fn initial_cwnd() -> u32 {
        10
    }
    pub fn partial_ack_timer() -> PartialAckTimer {
        PartialAckTimer::Impatient
    }
    pub fn one_second() -> Duration {
        Duration(NS_PER_S)
    }
    pub fn max_rto() -> Duration {
        Duration(60 * NS_PER_S)
    }
    pub fn clock_granularity() -> Duration {
        Duration(1_000_000)
    }
}

/// A scenario that could not be read: the key at fault and what is accepted.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    /// Dotted key path as `--set` names it (`flow.0.variant`); empty for the whole file.
    pub key: String,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "key `{}`: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn error(key: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { key: key.into(), message: message.into() }
}

/// serde_path_to_error prints `flow[0].mss`; users write `flow.0.mss`.
fn dotted(path: &serde_path_to_error::Path) -> String {
    let text = path.to_string();
    let text = if text == "." { String::new() } else { text };
    text.replace('[', ".").replace(']', "")
}

impl Scenario {
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let scenario: Scenario = serde_path_to_error::deserialize(de)
            .map_err(|e| error(dotted(e.path()), strip_position(&e.inner().to_string())))?;
        scenario.validate()?;
        Ok(scenario)
    }

    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        let de = toml::Deserializer::new(text);
        let scenario: Scenario = serde_path_to_error::deserialize(de)
            .map_err(|e| error(dotted(e.path()), first_line(e.inner().message())))?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// The single path's data-direction rate (0 for a `[[node]]` topology).
    pub fn forward_rate(&self) -> u64 {
        self.path.as_ref().map_or(0, PathSpec::forward_rate)
    }

    pub fn return_rate(&self) -> u64 {
        self.path.as_ref().map_or(0, PathSpec::return_rate)
    }

    /// Range and combination checks serde cannot express.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.duration.0 == 0 {
            return Err(error("duration", "must be longer than zero, such as \"60s\""));
        }
        match (&self.path, self.links.is_empty()) {
            (Some(path), true) => {
                path.validate("path", false)?;
                if !self.nodes.is_empty() {
                    return Err(error("node", "given with [path]; accepted: [path] for one sender and receiver, or [[node]] and [[link]] tables"));
                }
                if let Some(i) = self.flows.iter().position(|f| f.from.is_some() || f.to.is_some()) {
                    return Err(error(format!("flow.{i}.from"), "belongs to [[node]] topologies; a [path] flow runs from its sender to its receiver"));
                }
            }
            (Some(_), false) => {
                return Err(error("link", "given with [path]; accepted: [path] for one sender and receiver, or [[node]] and [[link]] tables"));
            }
            (None, true) => return Err(error("path", "missing; a scenario needs a [path] table, or [[node]] and [[link]] tables")),
            (None, false) => {
                for (i, link) in self.links.iter().enumerate() {
                    link.validate(&format!("link.{i}"), true)?;
                }
                topology::validate(self)?;
            }
        }
        topology::validate_traffic(self)?;
        if self.flows.is_empty() {
            return Err(error("flow", "no [[flow]] table; a scenario needs at least one flow"));
        }
        for (i, flow) in self.flows.iter().enumerate() {
            flow.validate(&format!("flow.{i}"))?;
        }
        Ok(())
    }
}

impl FlowSpec {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        let key = |name: &str| format!("{at}.{name}");
        let Some(info) = variant::find(&self.variant) else {
            return Err(error(key("variant"), format!("unknown variant \"{}\"; accepted: {}", self.variant, variant::names().join(", "))));
        };
        if !(64..=65_495).contains(&self.mss) {
            return Err(error(key("mss"), format!("{} bytes; accepted: 64 to 65495", self.mss)));
        }
        if self.rwnd.0 < self.mss as u64 {
            return Err(error(key("rwnd"), format!("{} bytes is smaller than one segment; accepted: at least mss ({})", self.rwnd.0, self.mss)));
        }
        if self.rwnd.0 > 1 << 30 {
            return Err(error(key("rwnd"), "above the 1 GiB that window scaling can advertise (RFC 7323 §2.3)"));
        }
        if self.delayed_ack == 0 {
            return Err(error(key("delayed_ack"), "0; accepted: 1 (ACK every segment) or more"));
        }
        if self.initial_cwnd == 0 {
            return Err(error(key("initial_cwnd"), "0; accepted: 1 segment or more"));
        }
        if let Some(Bytes(s)) = self.initial_ssthresh {
            if s < 2 * self.mss as u64 {
                return Err(error(key("initial_ssthresh"), "below two segments; accepted: at least 2 * mss"));
            }
        }
        match (info.sack, self.sack) {
            (SackUse::Never, Some(true)) => {
                return Err(error(key("sack"), format!("variant \"{}\" has no SACK recovery; accepted: sack = false with it", self.variant)));
            }
            (SackUse::Always, Some(false)) => {
                return Err(error(key("sack"), format!("variant \"{}\" is SACK recovery; accepted: sack = true (or leave it out)", self.variant)));
            }
            _ => {}
        }
        if self.sack_recovery.is_some() && (!info.sack_enabled(self.sack) || self.variant == "fack") {
            return Err(error(key("sack_recovery"), "applies to SACK recovery only; accepted with variant \"sack\", or with reno/newreno and sack = true"));
        }
        for (name, value) in [("initial_rto", self.initial_rto), ("min_rto", self.min_rto)] {
            if value.0 == 0 {
                return Err(error(key(name), "must be positive, such as \"1s\" or \"200ms\""));
            }
        }
        if self.max_rto.0 < self.min_rto.0 {
            return Err(error(key("max_rto"), "smaller than min_rto"));
        }
        if self.rack && !matches!(info.recovery_with(info.sack_enabled(self.sack), self.sack_recovery), RecoveryKind::Sack(SackStyle::Rfc6675 | SackStyle::Prr)) {
            return Err(error(key("rack"), format!("needs SACK recovery in the RFC 6675 or PRR style; accepted with sack = true and sack_recovery = \"rfc6675\" or \"prr\" (variant \"{}\" here)", self.variant)));
        }
        if self.byte_counting && !info.cc.counts_segments() {
            return Err(error(key("byte_counting"), format!("variant \"{}\" has its own growth rule; accepted with the Reno-growth variants (rfc793, tahoe, reno, newreno, sack, fack, westwood, ceten-*) and hybla", self.variant)));
        }
        self.cc.validate(info.cc, &self.variant).map_err(|(name, message)| error(key(&format!("cc.{name}")), message))
    }
}

/// serde_json appends " at line 1 column 57"; the key path says it better.
fn strip_position(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    };
    in_user_terms(message)
}

fn first_line(message: &str) -> String {
    in_user_terms(message.lines().next().unwrap_or(""))
}

/// serde names our Rust types; users know the TOML tables.
fn in_user_terms(message: &str) -> String {
    message
        .replace("struct Scenario", "a scenario table")
        .replace("struct PathSpec", "a [path] or [[link]] table")
        .replace("struct FlowSpec", "a [[flow]] table")
        .replace("struct NodeSpec", "a [[node]] table")
        .replace("struct TrafficSpec", "a [[traffic]] table")
        .replace("struct ErrorsSpec", "an errors table")
        .replace("struct OrbitTable", "a [path.orbit] table")
        .replace("struct CcParams", "a [flow.cc] table")
        .replace("expected u64", "expected a whole number from 0 to 2^64-1")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
        [path]
        rate = "10Mbps"
        delay = "250ms"
        [[flow]]
    "#;

    #[test]
    fn minimal_scenario_takes_defaults() {
        let s = Scenario::from_toml(MINIMAL).unwrap();
        assert_eq!(s.forward_rate(), 10_000_000);
        assert_eq!(s.flows[0].variant, "newreno");
        assert_eq!(s.flows[0].delayed_ack, 2);
        assert_eq!(s.path.as_ref().unwrap().queue, QueueLimit::Packets(1000));
    }

    #[test]
    fn unknown_key_is_named() {
        let err = Scenario::from_toml(&format!("{MINIMAL}\nmsss = 3")).unwrap_err();
        assert_eq!(err.key, "flow.0.msss");
        assert!(err.message.contains("mss"), "names the accepted keys: {err}");
    }

    #[test]
    fn bad_unit_is_named_with_key() {
        let text = MINIMAL.replace("\"10Mbps\"", "\"10 Mbit\"");
        let err = Scenario::from_toml(&text).unwrap_err();
        assert_eq!(err.key, "path.rate");
        assert!(err.message.contains("Mbps"), "{err}");
    }

    #[test]
    fn negative_rate_rejected() {
        let err = Scenario::from_json(r#"{"path": {"rate": -5, "delay": 0.25}, "flow": [{}]}"#).unwrap_err();
        assert_eq!(err.key, "path.rate");
    }

    #[test]
    fn unknown_variant_lists_known_ones() {
        let err = Scenario::from_json(r#"{"path": {"rate": 1e6, "delay": 0.25}, "flow": [{"variant": "bogus"}]}"#).unwrap_err();
        assert_eq!(err.key, "flow.0.variant");
        assert!(err.message.contains("newreno"), "{err}");
    }

    #[test]
    fn zero_initial_rto_names_its_own_key() {
        let err = Scenario::from_json(r#"{"path": {"rate": 1e6, "delay": 0.25}, "flow": [{"initial_rto": 0}]}"#).unwrap_err();
        assert_eq!(err.key, "flow.0.initial_rto");
    }

    #[test]
    fn queue_in_bytes() {
        let s = Scenario::from_toml(&MINIMAL.replace("delay", "queue = \"64KB\"\ndelay")).unwrap();
        assert_eq!(s.path.as_ref().unwrap().queue, QueueLimit::Bytes(64_000));
    }
}
