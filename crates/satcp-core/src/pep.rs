//! Performance-enhancing proxies (RFC 3135): a `kind = "pep"` node splits
//! every TCP flow whose route crosses it. Each split connection is an
//! ordinary sender/receiver pair; this module plans the legs and relays
//! bytes between them: what a PEP's receiver delivers in order becomes the
//! next leg's sender's data, and the PEP's buffer bounds the window it
//! advertises upstream (free space = buffer - bytes not yet acknowledged
//! downstream), so back-pressure reaches the original sender.

use crate::packet::{NodeId, Packet, IP_HEADER, TCP_HEADER, TIMESTAMP_OPTION};
use crate::scenario::{FlowSpec, LossResponse, NodeKind, NodeSpec, Scenario};
use crate::tcp::receiver::Receiver;
use crate::tcp::recovery::SackStyle;
use crate::tcp::sender::Sender;
use crate::tcp::variant;
use crate::time::Time;
use crate::units::Bytes;

/// The SCPS-TP profile's name for `transport`.
pub const SCPS: &str = "scps";

/// A PEP's buffer when the scenario does not say: 1 MB, several times the
/// 110 KB bandwidth-delay product of Lawson's T1 GEO hop (004.md §5.2 item 6).
pub const DEFAULT_BUFFER: u64 = 1_000_000;

/// Header bytes SCPS-TP compression saves: "header size can fall by up to
/// 50%" (Lawson 2006 §II, 004.md §1.6; Durst, Miller & Travis 1997), taken
/// on the IP + TCP + timestamp header (52 B -> 26 B).
pub const COMPRESSED_FRACTION: f64 = 0.5;

/// One bad PEP key: (key, what is accepted).
pub fn validate_node(i: usize, node: &NodeSpec) -> Result<(), (String, String)> {
    let key = |name: &str| format!("node.{i}.{name}");
    if node.kind == NodeKind::Host {
        for (name, set) in [("ack_filtering", node.ack_filtering.is_some()), ("ack_spacing", node.ack_spacing.is_some())] {
            if set {
                return Err((key(name), "belongs to gateways; accepted with kind = \"router\" or \"pep\"".into()));
            }
        }
    }
    if node.ack_spacing.is_some_and(|d| d.0 > 10 * 1_000_000_000) {
        return Err((key("ack_spacing"), "longer than 10 s; accepted: an interval such as \"5ms\"".into()));
    }
    if node.kind != NodeKind::Pep {
        for (name, set) in [
            ("transport", node.transport.is_some()),
            ("buffer", node.buffer.is_some()),
            ("rate", node.rate.is_some()),
            ("header_compression", node.header_compression.is_some()),
            ("loss_response", node.loss_response.is_some()),
        ] {
            if set {
                return Err((key(name), "belongs to PEPs; accepted with kind = \"pep\"".into()));
            }
        }
        return Ok(());
    }
    let transport = node.transport.as_deref().unwrap_or(SCPS);
    if transport != SCPS && variant::find(transport).is_none() {
        return Err((key("transport"), format!("\"{transport}\"; accepted: \"{SCPS}\" or a variant: {}", variant::names().join(", "))));
    }
    if transport != SCPS {
        for (name, set) in [
            ("rate", node.rate.is_some()),
            ("header_compression", node.header_compression.is_some()),
            ("loss_response", node.loss_response.is_some()),
        ] {
            if set {
                return Err((key(name), format!("belongs to transport = \"{SCPS}\"")));
            }
        }
    }
    if node.rate.is_some() && node.loss_response == Some(LossResponse::Congestion) {
        return Err((key("loss_response"), "\"congestion\" with `rate`: rate-based control never shrinks its window; accepted: \"corruption\", or drop `rate` for Vegas".into()));
    }
    if node.buffer.is_some_and(|b| b.0 < 2 * 1500) {
        return Err((key("buffer"), format!("{} bytes; accepted: at least 3000 (two segments), such as \"1MB\"", node.buffer.unwrap().0)));
    }
    Ok(())
}

/// What a PEP-to-PEP leg runs beyond its `FlowSpec`.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// SCPS-TP rate-based control: (rate in bit/s, window in bytes).
    pub rate: Option<(u64, u64)>,
    /// Header bytes saved per data segment.
    pub header_saving: u32,
    /// SCPS-TP's corruption response: loss does not shrink the window.
    pub corruption: bool,
}

/// One split connection of a flow.
pub struct Leg {
    pub from: NodeId,
    pub to: NodeId,
    pub spec: FlowSpec,
    pub extras: Extras,
}

/// The legs of a flow from `src` to `dst`: one leg, unsplit, when its route
/// crosses no PEP. `next_hop(node)` is the node a packet for `dst` goes to next.
pub fn legs(scenario: &Scenario, spec: &FlowSpec, src: NodeId, dst: NodeId, next_hop: impl Fn(NodeId) -> NodeId) -> Vec<Leg> {
    let pep = |n: NodeId| scenario.nodes.get(n as usize).filter(|s| s.kind == NodeKind::Pep);
    let mut stops = vec![src];
    let mut node = src;
    while node != dst {
        node = next_hop(node);
        if pep(node).is_some() {
            stops.push(node);
        }
    }
    stops.push(dst);
    let peps = stops.len() - 2;
    stops
        .windows(2)
        .enumerate()
        .map(|(k, w)| {
            let (from, to) = (w[0], w[1]);
            let mut leg = spec.clone();
            if let Some(p) = pep(to) {
                // The PEP's receiver: its buffer is the window, scaled to say it.
                leg.rwnd = Bytes(p.buffer.map_or(DEFAULT_BUFFER, |b| b.0));
                leg.window_scaling = true;
            }
            let mut extras = Extras::default();
            // Between two PEPs the first one's transport carries the data.
            if let (true, Some(p)) = (k > 0 && k < peps, pep(from)) {
                extras = transport(p, &mut leg);
            }
            Leg { from, to, spec: leg, extras }
        })
        .collect()
}

/// Turns a leg's spec into the PEP's transport: a variant, or the SCPS-TP profile.
fn transport(pep: &NodeSpec, leg: &mut FlowSpec) -> Extras {
    let name = pep.transport.as_deref().unwrap_or(SCPS);
    leg.cc = Default::default();
    leg.window_scaling = true;
    if name != SCPS {
        leg.variant = name.to_string();
        if variant::find(name).is_some_and(|v| v.sack == variant::SackUse::Optional) {
            leg.sack = Some(true);
        }
        return Extras::default();
    }
    //= CCSDS 714.0-B-2 SCPS-TP; Lawson 2006 §1.6 (004.md)
    //# window scale, timestamps, SNACK, Vegas or rate-based congestion control
    // SNACK is modelled by SACK with RFC 6675 recovery, whose scoreboard
    // resends every reported hole as the window allows, not one per RTT,
    // and RACK: "the sender uses the RTT estimate to decide whether missing
    // segments might still be in transit before retransmitting them"
    // (004.md §1.6 item 3), which also finds lost retransmissions.
    leg.variant = "vegas".into();
    leg.sack = Some(true);
    leg.sack_recovery = Some(SackStyle::Rfc6675);
    leg.rack = true;
    leg.timestamps = true;
    let header = IP_HEADER + TCP_HEADER + TIMESTAMP_OPTION;
    Extras {
        rate: pep.rate.map(|r| (r.0, leg.rwnd.0)),
        header_saving: if pep.header_compression.unwrap_or(false) { (header as f64 * COMPRESSED_FRACTION) as u32 } else { 0 },
        corruption: pep.loss_response == Some(LossResponse::Corruption),
    }
}

/// Applies a leg's extras and, for a leg fed by a PEP, starts it empty.
pub fn prepare_sender(sender: &mut Sender, extras: &Extras, relay_fed: bool) {
    if relay_fed {
        sender.relay_fed();
    }
    if let Some((rate, window)) = extras.rate {
        sender.use_rate_control(rate, window);
    }
    if extras.header_saving > 0 {
        sender.compress_headers(extras.header_saving);
    }
    if extras.corruption {
        sender.assume_corruption();
    }
}

/// Which connection feeds which: `next[c]` takes what `c` delivers at a PEP.
#[derive(Clone, Debug, Default)]
pub struct Relay {
    pub next: Vec<Option<u32>>,
    pub prev: Vec<Option<u32>>,
    /// Per scenario flow: its connections, first (original sender) to last (real receiver).
    pub chains: Vec<Vec<u32>>,
}

impl Relay {
    pub fn is_final(&self, c: u32) -> bool {
        self.next[c as usize].is_none()
    }

    /// `up` delivered new bytes at a PEP: offer them to the next leg and
    /// shrink the window `up` advertises by what the PEP now holds.
    pub fn on_delivered(up: &mut Receiver, down: &mut Sender, now: Time, up_out: &mut Vec<Packet>, down_out: &mut Vec<Packet>) {
        let delivered = up.bytes_delivered();
        down.offer(delivered, now, down_out);
        up.set_held(delivered - down.snd_una, now, up_out);
    }

    /// The next leg's sender had bytes acknowledged: the PEP's buffer frees.
    pub fn on_acked(up: &mut Receiver, down: &Sender, now: Time, up_out: &mut Vec<Packet>) {
        up.set_held(up.bytes_delivered().saturating_sub(down.snd_una), now, up_out);
    }
}
