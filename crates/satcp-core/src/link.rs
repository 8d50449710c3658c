//! A one-way link: drop-tail queue -> serialisation -> channel errors -> propagation.
//!
//! Propagation is a constant delay or a low-orbit pass (`channel::orbit`).
//! Arrivals leave in FIFO order either way: a pass's delay changes far more
//! slowly than time passes, so a later packet never overtakes an earlier
//! one, and packets sent while no satellite is in view are dropped, never
//! delayed past the gap.

use std::collections::VecDeque;

use crate::channel::orbit::Propagation;
use crate::channel::Channel;
use crate::packet::{Kind, NodeId, Packet};
use crate::red::Red;
pub use crate::red::RedConfig;
use crate::rng::Stream;
use crate::scenario::QueueLimit;
use crate::tcp::cc::ceten::RouterEstimate;
use crate::time::{transmission_time, Time};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkStats {
    /// Packets serialised onto the wire (corrupted ones included).
    pub packets: u64,
    pub bytes: u64,
    /// Time spent serialising, for utilisation.
    pub busy_time: Time,
    pub queue_drops: u64,
    pub error_drops: u64,
    /// Data packets dropped because the scenario's drop list named them.
    pub listed_drops: u64,
    /// Data packets that finished serialisation (the drop list counts these).
    pub data_packets: u64,
    /// Packets sent while no satellite was in view (a LEO handover gap).
    pub outage_drops: u64,
    /// Queued ACKs removed because a newer cumulative ACK of the same flow arrived.
    pub acks_filtered: u64,
}

pub struct Link {
    pub name: String,
    pub to: NodeId,
    rate_bps: u64,
    propagation: Propagation,
    /// Link-layer header bytes added on the wire.
    header: u32,
    limit: QueueLimit,
    channel: Channel,
    drop_list: Vec<u64>,
    /// Random early detection in front of the queue, if configured.
    red: Option<Box<Red>>,
    /// One error stream per flow, so flows do not disturb each other's draws.
    error_streams: Vec<Stream>,
    queue: VecDeque<Packet>,
    queued_bytes: u64,
    /// RFC 3135 §3.2 gateway ACK handling on this link: drop queued ACKs a
    /// newer one supersedes, and hold the link at least this long per ACK.
    ack_filtering: bool,
    ack_spacing: Time,
    on_wire: Option<Packet>,
    /// When the packet on the wire started serialising.
    tx_start: Time,
    /// Fraction of a nanosecond owed by earlier transmissions, in bit-ns / rate units.
    tx_remainder: u64,
    propagating: VecDeque<Packet>,
    /// Arrival time of the newest propagating packet (keeps the FIFO honest).
    last_arrival: Time,
    /// CETEN-R's router estimate (this sending side stands in for a router).
    pub ceten: RouterEstimate,
    pub stats: LinkStats,
}

/// What the caller must schedule after handing the link a packet or an event.
#[derive(Debug, PartialEq)]
pub enum Next {
    Nothing,
    TxDoneAt(Time),
}

pub struct LinkConfig {
    pub name: String,
    pub to: NodeId,
    pub rate_bps: u64,
    pub propagation: Propagation,
    pub header: u32,
    pub limit: QueueLimit,
    pub channel: Channel,
    /// Data packets to drop, by 1-based count of data packets serialised (sorted).
    pub drop_list: Vec<u64>,
    pub red: Option<Red>,
}

impl Link {
    pub fn new(config: LinkConfig, error_streams: Vec<Stream>) -> Link {
        Link {
            name: config.name,
            to: config.to,
            rate_bps: config.rate_bps,
            propagation: config.propagation,
            header: config.header,
            limit: config.limit,
            channel: config.channel,
            drop_list: config.drop_list,
            red: config.red.map(Box::new),
            error_streams,
            queue: VecDeque::new(),
            queued_bytes: 0,
            ack_filtering: false,
            ack_spacing: 0,
            on_wire: None,
            tx_start: 0,
            tx_remainder: 0,
            propagating: VecDeque::new(),
            last_arrival: 0,
            ceten: RouterEstimate::default(),
            stats: LinkStats::default(),
        }
    }

    fn wire_bytes(&self, packet: &Packet) -> u64 {
        (packet.size + self.header) as u64
    }

    fn has_room(&self, packet: &Packet) -> bool {
        match self.limit {
            QueueLimit::Packets(n) => (self.queue.len() as u64) < n,
            QueueLimit::Bytes(b) => self.queued_bytes + packet.size as u64 <= b,
        }
    }

    /// Offers a packet to the link: sent at once if idle, queued, or dropped.
    pub fn enqueue(&mut self, now: Time, packet: Packet) -> Next {
        let (wire_bytes, rate) = (self.wire_bytes(&packet), self.rate_bps);
        let queued = self.queue.len() + self.on_wire.is_some() as usize;
        if let Some(red) = &mut self.red {
            let (packet_time, _) = transmission_time(wire_bytes, rate, 0);
            if red.drop_arrival(now, queued, packet_time) {
                self.count_ceten_arrival(&packet, false);
                self.stats.queue_drops += 1;
                return Next::Nothing;
            }
        }
        if self.on_wire.is_none() {
            self.count_ceten_arrival(&packet, true);
            return self.start(now, packet);
        }
        if self.ack_filtering {
            self.filter_superseded_acks(&packet);
        }
        let room = self.has_room(&packet);
        self.count_ceten_arrival(&packet, room);
        if room {
            self.queued_bytes += packet.size as u64;
            self.queue.push_back(packet);
        } else {
            self.stats.queue_drops += 1;
        }
        Next::Nothing
    }

    /// CETEN-R's congestion-survival estimate counts every data segment that
    /// reaches the link: those sent at once on an idle link survive too, and
    /// an active-queue drop is a congestion loss like an overflow.
    fn count_ceten_arrival(&mut self, packet: &Packet, accepted: bool) {
        if let Some(option) = packet.ceten.as_ref().filter(|_| packet.kind == Kind::Data) {
            self.ceten.on_enqueue(option, accepted);
        }
    }

    fn start(&mut self, now: Time, packet: Packet) -> Next {
        let bytes = self.wire_bytes(&packet);
        // Whole nanoseconds per packet, carrying the fraction over so that the
        // long-run rate is exact even where a packet takes about a nanosecond.
        let (tx, remainder) = transmission_time(bytes, self.rate_bps, self.tx_remainder);
        self.tx_remainder = remainder;
        self.stats.packets += 1;
        self.stats.bytes += bytes;
        self.stats.busy_time += tx;
        //= RFC 3135 §3.2.3 (ACK spacing)
        //# ACK spacing ... to prevent ACK bunching
        // The link releases at most one ACK per `ack_spacing`.
        let hold = if packet.kind == Kind::Ack { tx.max(self.ack_spacing) } else { tx };
        self.on_wire = Some(packet);
        self.tx_start = now;
        Next::TxDoneAt(now + hold)
    }

    /// A gateway's ACK handling on this link (RFC 3135 §3.2; RFC 3449 §5.3).
    pub fn set_ack_handling(&mut self, filtering: bool, spacing: Time) {
        self.ack_filtering = filtering;
        self.ack_spacing = spacing;
    }

    //= RFC 3449 §5.3.2 (ACK filtering)
    //# ... removes ACKs from the queue when a newer cumulative ACK of the same connection is added
    // Only plain cumulative ACKs: one carrying SACK blocks says more than its successor.
    fn filter_superseded_acks(&mut self, packet: &Packet) {
        if packet.kind != Kind::Ack || !packet.sack.is_empty() {
            return;
        }
        let before = self.queue.len();
        let mut freed = 0;
        self.queue.retain(|q| {
            let superseded = q.kind == Kind::Ack && q.flow == packet.flow && q.sack.is_empty() && q.ack <= packet.ack;
            if superseded {
                freed += q.size as u64;
            }
            !superseded
        });
        self.queued_bytes -= freed;
        self.stats.acks_filtered += (before - self.queue.len()) as u64;
    }

    /// Serialisation finished: the packet starts propagating unless no
    /// satellite was in view or the channel corrupted it. Returns when it
    /// arrives (if it survives) and what the link sends next.
    pub fn transmission_done(&mut self, now: Time) -> (Option<Time>, Next) {
        let mut packet = self.on_wire.take().expect("TxDone without a packet on the wire");
        let bits = self.wire_bytes(&packet) * 8;
        let stream = &mut self.error_streams[packet.flow as usize];
        let listed = packet.kind == Kind::Data && {
            self.stats.data_packets += 1;
            self.drop_list.binary_search(&self.stats.data_packets).is_ok()
        };
        let in_view = self.propagation.arrival(self.tx_start, now);
        let corrupted = !listed && in_view.is_some() && self.channel.corrupts(self.tx_start, now, bits, stream);
        if let (Some(option), Kind::Data) = (packet.ceten.as_mut(), packet.kind) {
            self.ceten.on_transmitted(option, corrupted || listed);
        }
        let arrival = match in_view {
            // A listed drop takes the packet off the wire whatever the channel does.
            _ if listed => {
                self.stats.listed_drops += 1;
                None
            }
            // Nothing to carry it: the channel never sees the packet.
            None => {
                self.stats.outage_drops += 1;
                None
            }
            Some(_) if corrupted => {
                self.stats.error_drops += 1;
                None
            }
            Some(at) => {
                // Equal delays round alike; never let one nanosecond reorder the FIFO.
                let at = at.max(self.last_arrival);
                self.last_arrival = at;
                self.propagating.push_back(packet);
                Some(at)
            }
        };
        let next = match self.queue.pop_front() {
            Some(p) => {
                self.queued_bytes -= p.size as u64;
                self.start(now, p)
            }
            None => {
                if let Some(red) = &mut self.red {
                    red.went_idle(now);
                }
                Next::Nothing
            }
        };
        (arrival, next)
    }

    /// The oldest propagating packet reaches the far end (arrivals are FIFO, see above).
    pub fn arrive(&mut self) -> Packet {
        self.propagating.pop_front().expect("Arrive without a propagating packet")
    }

    /// The packet being serialised, if any.
    pub fn on_wire(&self) -> Option<&Packet> {
        self.on_wire.as_ref()
    }

    pub fn rate_bps(&self) -> u64 {
        self.rate_bps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::orbit::Propagation;
    use crate::packet::{CetenOption, SackBlocks};
    use crate::rng::{stream, Component};

    fn link(queue: u64) -> Link {
        let config = LinkConfig {
            name: "l".into(),
            to: 1,
            rate_bps: 1_000_000,
            propagation: Propagation::Constant(10_000_000),
            header: 0,
            limit: QueueLimit::Packets(queue),
            channel: Channel::from_ber(0.0),
            drop_list: Vec::new(),
            red: None,
        };
        Link::new(config, vec![stream(1, Component::LinkErrors { link: 0, flow: 0 })])
    }

    fn ceten_segment() -> Packet {
        Packet {
            flow: 0,
            kind: Kind::Data,
            dst: 1,
            seq: 0,
            len: 1000,
            ack: 0,
            wnd: 0,
            size: 1040,
            ts: None,
            sack: SackBlocks::default(),
            ceten: Some(CetenOption::new(0.5, 1.0, 1.0, false)),
        }
    }

    #[test]
    fn ceten_congestion_estimate_counts_segments_that_find_the_link_idle() {
        // Carroll's routers average the fate of every segment they forward
        // (000.md §1.4): one sent at once on an idle link survived congestion.
        let mut l = link(0);
        let Next::TxDoneAt(done) = l.enqueue(0, ceten_segment()) else { panic!("an idle link sends at once") };
        l.enqueue(0, ceten_segment()); // busy, no room: dropped
        assert_eq!(l.stats.queue_drops, 1);
        assert!((l.ceten.congestion - 0.5).abs() < 1e-9, "1.0 -> 1.0 (sent) -> 0.5 (dropped), alpha 0.5: {}", l.ceten.congestion);
        l.transmission_done(done);
        l.enqueue(done, ceten_segment()); // idle again: sent at once, a survivor
        assert!((l.ceten.congestion - 0.75).abs() < 1e-9, "0.5 -> 0.75: {}", l.ceten.congestion);
    }
}
