//! A one-way link: drop-tail queue -> serialisation -> channel errors -> propagation.

use std::collections::VecDeque;

use crate::channel::Channel;
use crate::packet::{Kind, NodeId, Packet};
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
}

pub struct Link {
    pub name: String,
    pub to: NodeId,
    rate_bps: u64,
    delay: Time,
    /// Link-layer header bytes added on the wire.
    header: u32,
    limit: QueueLimit,
    channel: Channel,
    drop_list: Vec<u64>,
    /// One error stream per flow, so flows do not disturb each other's draws.
    error_streams: Vec<Stream>,
    queue: VecDeque<Packet>,
    queued_bytes: u64,
    on_wire: Option<Packet>,
    /// Fraction of a nanosecond owed by earlier transmissions, in bit-ns / rate units.
    tx_remainder: u64,
    propagating: VecDeque<Packet>,
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
    pub delay: Time,
    pub header: u32,
    pub limit: QueueLimit,
    pub channel: Channel,
    /// Data packets to drop, by 1-based count of data packets serialised (sorted).
    pub drop_list: Vec<u64>,
}

impl Link {
    pub fn new(config: LinkConfig, error_streams: Vec<Stream>) -> Link {
        Link {
            name: config.name,
            to: config.to,
            rate_bps: config.rate_bps,
            delay: config.delay,
            header: config.header,
            limit: config.limit,
            channel: config.channel,
            drop_list: config.drop_list,
            error_streams,
            queue: VecDeque::new(),
            queued_bytes: 0,
            on_wire: None,
            tx_remainder: 0,
            propagating: VecDeque::new(),
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
        if self.on_wire.is_none() {
            return self.start(now, packet);
        }
        let room = self.has_room(&packet);
        if let Some(option) = packet.ceten.as_ref().filter(|_| packet.kind == Kind::Data) {
            self.ceten.on_enqueue(option, room);
        }
        if room {
            self.queued_bytes += packet.size as u64;
            self.queue.push_back(packet);
        } else {
            self.stats.queue_drops += 1;
        }
        Next::Nothing
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
        self.on_wire = Some(packet);
        Next::TxDoneAt(now + tx)
    }

    /// Serialisation finished: the packet starts propagating unless the
    /// channel corrupted it. Returns when it arrives (if it survives) and
    /// what the link sends next.
    pub fn transmission_done(&mut self, now: Time) -> (Option<Time>, Next) {
        let mut packet = self.on_wire.take().expect("TxDone without a packet on the wire");
        let bits = self.wire_bytes(&packet) * 8;
        let stream = &mut self.error_streams[packet.flow as usize];
        let listed = packet.kind == Kind::Data && {
            self.stats.data_packets += 1;
            self.drop_list.binary_search(&self.stats.data_packets).is_ok()
        };
        let corrupted = !listed && self.channel.corrupts(bits, stream);
        if let (Some(option), Kind::Data) = (packet.ceten.as_mut(), packet.kind) {
            self.ceten.on_transmitted(option, corrupted || listed);
        }
        let arrival = if listed {
            self.stats.listed_drops += 1;
            None
        } else if corrupted {
            self.stats.error_drops += 1;
            None
        } else {
            self.propagating.push_back(packet);
            Some(now + self.delay)
        };
        let next = match self.queue.pop_front() {
            Some(p) => {
                self.queued_bytes -= p.size as u64;
                self.start(now, p)
            }
            None => Next::Nothing,
        };
        (arrival, next)
    }

    /// The oldest propagating packet reaches the far end (delay is constant, so FIFO).
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
