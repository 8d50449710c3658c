//! One direction of the emulated link, as plain logic on a nanosecond clock:
//! drop-tail queue -> serialisation at the rate -> channel model -> propagation.
//! It mirrors `satcp_core::link::Link` (same queue rule, same rounding of
//! transmission times, same channel models and random streams), but holds
//! real IP packets and is driven by the wall clock instead of an event queue.
//!
//! Transmissions are scheduled on a virtual timeline: a packet queued behind
//! another starts when the previous one's last bit leaves, not when the
//! forwarder next wakes up, so a late wake-up never stretches the rate.

use std::collections::VecDeque;

use satcp_core::channel::orbit::Propagation;
use satcp_core::channel::Channel;
use satcp_core::rng::Stream;
use satcp_core::scenario::QueueLimit;
use satcp_core::time::transmission_time;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Packets that reached the link (queued, dropped or sent).
    pub offered: u64,
    /// Packets serialised onto the wire (corrupted ones included).
    pub packets: u64,
    pub bytes: u64,
    pub busy_ns: u64,
    pub queue_drops: u64,
    pub error_drops: u64,
    /// Sent while no satellite was in view (LEO handover gap).
    pub outage_drops: u64,
}

pub struct Packet {
    pub data: Vec<u8>,
    /// Index of the random stream its bits draw from (its flow's).
    pub stream: usize,
}

pub struct Config {
    pub rate_bps: u64,
    /// Link-layer bytes added on the wire.
    pub header: u64,
    pub limit: QueueLimit,
    pub channel: Channel,
    pub propagation: Propagation,
}

pub struct EmuLink {
    config: Config,
    streams: Vec<Stream>,
    queue: VecDeque<Packet>,
    queued_bytes: u64,
    /// The packet being serialised, with its first and last bit times.
    on_wire: Option<(Packet, u64, u64)>,
    tx_remainder: u64,
    propagating: VecDeque<(u64, Packet)>,
    last_arrival: u64,
    pub stats: Stats,
}

impl EmuLink {
    pub fn new(config: Config, streams: Vec<Stream>) -> EmuLink {
        assert!(!streams.is_empty(), "at least one error stream");
        EmuLink {
            config,
            streams,
            queue: VecDeque::new(),
            queued_bytes: 0,
            on_wire: None,
            tx_remainder: 0,
            propagating: VecDeque::new(),
            last_arrival: 0,
            stats: Stats::default(),
        }
    }

    fn has_room(&self, size: u64) -> bool {
        match self.config.limit {
            QueueLimit::Packets(n) => (self.queue.len() as u64) < n,
            QueueLimit::Bytes(b) => self.queued_bytes + size <= b,
        }
    }

    /// A packet arrives at the link at `now` (call `advance(now)` first).
    pub fn offer(&mut self, now: u64, packet: Packet) {
        self.stats.offered += 1;
        if self.on_wire.is_none() {
            self.start(now, packet);
        } else if self.has_room(packet.data.len() as u64) {
            self.queued_bytes += packet.data.len() as u64;
            self.queue.push_back(packet);
        } else {
            self.stats.queue_drops += 1;
        }
    }

    fn start(&mut self, at: u64, packet: Packet) {
        let bytes = packet.data.len() as u64 + self.config.header;
        let (tx, remainder) = transmission_time(bytes, self.config.rate_bps, self.tx_remainder);
        self.tx_remainder = remainder;
        self.stats.packets += 1;
        self.stats.bytes += bytes;
        self.stats.busy_ns += tx;
        self.on_wire = Some((packet, at, at + tx));
    }

    /// Completes every transmission whose last bit left by `now`, in order,
    /// starting each next packet when the previous one finished.
    pub fn advance(&mut self, now: u64) {
        while let Some((_, _, end)) = &self.on_wire {
            if *end > now {
                break;
            }
            let (packet, start, end) = self.on_wire.take().expect("checked above");
            let bits = (packet.data.len() as u64 + self.config.header) * 8;
            let stream = packet.stream.min(self.streams.len() - 1);
            match self.config.propagation.arrival(start, end) {
                None => self.stats.outage_drops += 1,
                Some(_) if self.config.channel.corrupts(start, end, bits, &mut self.streams[stream]) => {
                    self.stats.error_drops += 1
                }
                Some(at) => {
                    let at = at.max(self.last_arrival);
                    self.last_arrival = at;
                    self.propagating.push_back((at, packet));
                }
            }
            if let Some(next) = self.queue.pop_front() {
                self.queued_bytes -= next.data.len() as u64;
                self.start(end, next);
            }
        }
    }

    /// The oldest packet whose arrival time has come, with that time.
    pub fn pop_arrived(&mut self, now: u64) -> Option<(u64, Packet)> {
        match self.propagating.front() {
            Some((at, _)) if *at <= now => self.propagating.pop_front(),
            _ => None,
        }
    }

    /// The next time a packet may reach the far end. The end of a
    /// transmission needs no wake-up of its own: `advance` completes it
    /// on the virtual timeline whenever it is next called, so the packet on
    /// the wire is woken for at its own arrival (or its last bit's time,
    /// where an orbit puts it out of view).
    pub fn next_deadline(&self) -> Option<u64> {
        let tx = self.on_wire.as_ref().map(|(_, start, end)| self.config.propagation.arrival(*start, *end).unwrap_or(*end));
        let rx = self.propagating.front().map(|(at, _)| *at);
        match (tx, rx) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn rate_bps(&self) -> u64 {
        self.config.rate_bps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use satcp_core::rng::{stream, Component};

    fn link(limit: QueueLimit, ber: f64) -> EmuLink {
        let config = Config {
            rate_bps: 10_000_000,
            header: 0,
            limit,
            channel: Channel::from_ber(ber),
            propagation: Propagation::Constant(250_000_000),
        };
        EmuLink::new(config, vec![stream(1, Component::LinkErrors { link: 0, flow: 0 })])
    }

    fn packet(size: usize) -> Packet {
        Packet { data: vec![0; size], stream: 0 }
    }

    #[test]
    fn back_to_back_packets_leave_at_the_rate_and_arrive_after_the_delay() {
        let mut l = link(QueueLimit::Packets(10), 0.0);
        for _ in 0..3 {
            l.offer(0, packet(1500));
        }
        // 1500 B at 10 Mb/s = 1.2 ms each; a late wake-up (at 10 ms) changes nothing.
        l.advance(10_000_000);
        let arrivals: Vec<u64> = std::iter::from_fn(|| l.pop_arrived(u64::MAX).map(|(at, _)| at)).collect();
        assert_eq!(arrivals, vec![251_200_000, 252_400_000, 253_600_000]);
        assert_eq!(l.stats.busy_ns, 3_600_000);
    }

    #[test]
    fn queue_limit_counts_waiting_packets_not_the_one_on_the_wire() {
        let mut l = link(QueueLimit::Packets(2), 0.0);
        for _ in 0..4 {
            l.offer(0, packet(1000));
        }
        assert_eq!(l.stats.queue_drops, 1);
        let mut b = link(QueueLimit::Bytes(2500), 0.0);
        for _ in 0..4 {
            b.offer(0, packet(1000));
        }
        assert_eq!(b.stats.queue_drops, 1, "one on the wire, two (2000 B) queued, the fourth refused");
    }

    #[test]
    fn next_deadline_is_the_earliest_event() {
        let mut l = link(QueueLimit::Packets(10), 0.0);
        assert_eq!(l.next_deadline(), None);
        l.offer(0, packet(1500));
        assert_eq!(l.next_deadline(), Some(251_200_000), "the packet on the wire: its arrival, not its last bit");
        l.advance(1_200_000);
        assert_eq!(l.next_deadline(), Some(251_200_000));
        assert!(l.pop_arrived(251_199_999).is_none());
        assert!(l.pop_arrived(251_200_000).is_some());
    }

    #[test]
    fn uniform_errors_drop_at_the_model_rate() {
        let mut l = link(QueueLimit::Packets(100_000), 1e-5);
        let n = 50_000u64;
        for i in 0..n {
            l.offer(i * 1_200_000, packet(1500));
            l.advance(i * 1_200_000);
        }
        l.advance(u64::MAX / 2);
        let p = satcp_core::channel::BitErrors::new(1e-5).loss_probability(12_000);
        let observed = l.stats.error_drops as f64 / l.stats.packets as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert_eq!(l.stats.packets, n);
        assert!((observed - p).abs() < 4.0 * se, "observed {observed}, model {p}, se {se}");
    }
}
