//! What a run returns; the JSON fields DESIGN.md fixes, plus a few extras.

use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunResult {
    pub seed: u64,
    pub sim_time_s: f64,
    /// Wall-clock time of the event loop itself.
    pub wall_s: f64,
    pub events: u64,
    pub flows: Vec<FlowResult>,
    pub links: Vec<LinkResult>,
    /// Background traffic sources, when the scenario has any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub traffic: Vec<crate::traffic::TrafficResult>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowResult {
    pub id: u32,
    pub variant: String,
    /// Unique payload bytes delivered in order, times 8, over the flow's active time.
    pub goodput_bps: f64,
    pub bytes_delivered: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    /// From the flow's start to the last byte reaching the receiving application.
    pub completion_time_s: Option<f64>,
    pub fast_retransmits: u64,
    pub segments_sent: u64,
    pub start_s: f64,
    pub srtt_s: Option<f64>,
    pub final_cwnd_bytes: u64,
    /// Bytes a PEP acknowledged to the sender that the real receiver had not
    /// received when the run ended (0 without PEPs: end-to-end semantics).
    pub acked_undelivered_bytes: u64,
    /// Connections the flow was split into by PEPs (1 = end to end).
    pub split_legs: u32,
    /// Each split connection's own counters, in path order (empty end to end).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legs: Vec<LegResult>,
}

/// One connection of a flow split by PEPs: who ran it, and its sender's counters.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LegResult {
    pub from: String,
    pub to: String,
    /// The variant its sender ran (`vegas` for the SCPS-TP profile).
    pub variant: String,
    /// In-order bytes the leg's receiver delivered (to the next leg or the application).
    pub bytes_delivered: u64,
    pub segments_sent: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub srtt_s: Option<f64>,
    pub final_cwnd_bytes: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkResult {
    pub name: String,
    /// Packets serialised onto the link (corrupted ones included).
    pub packets: u64,
    /// Fraction of the run the link spent serialising.
    pub utilization: f64,
    pub queue_drops: u64,
    pub error_drops: u64,
    /// Data packets dropped by the scenario's `drop_packets` list.
    pub listed_drops: u64,
    pub rate_bps: u64,
    /// Packets sent while no satellite was in view (LEO handover gaps).
    pub outage_drops: u64,
}
