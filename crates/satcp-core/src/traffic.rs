//! Background traffic that is not TCP: packets nobody acknowledges. A
//! constant-rate source, an on/off source with exponential periods, and
//! Poisson arrivals (Leung's Internet background load, 002.md §1.4).

use rand::Rng;
use serde::Serialize;

use crate::packet::{FlowId, Kind, NodeId, Packet};
use crate::rng::Stream;
use crate::scenario::{TrafficKind, TrafficSpec};
use crate::time::{seconds, Time, NS_PER_S};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TrafficResult {
    pub id: u32,
    pub kind: String,
    pub packets_sent: u64,
    pub packets_delivered: u64,
    pub bytes_delivered: u64,
    /// Bytes delivered, times 8, over the time the source was sending.
    pub throughput_bps: f64,
}

pub struct Source {
    kind: TrafficKind,
    /// The packet's flow id: after every TCP flow's, so error streams stay apart.
    flow: FlowId,
    pub from: NodeId,
    to: NodeId,
    size: u32,
    /// Time to send one packet at the source's rate.
    interval: Time,
    mean_on: f64,
    mean_off: f64,
    /// The end of the current on period (on-off sources).
    on_until: Time,
    start: Time,
    stop: Time,
    rng: Stream,
    sent: u64,
    delivered: u64,
    bytes_delivered: u64,
}

/// An exponential draw with the given mean, in ns.
fn exponential(rng: &mut Stream, mean_ns: f64) -> Time {
    let u: f64 = rng.random();
    (-(1.0 - u).ln() * mean_ns) as Time
}

impl Source {
    pub fn new(spec: &TrafficSpec, flow: FlowId, ends: (NodeId, NodeId), run_end: Time, rng: Stream) -> Source {
        let size = spec.packet_size.0 as u32;
        Source {
            kind: spec.kind,
            flow,
            from: ends.0,
            to: ends.1,
            size,
            interval: ((size as u128 * 8 * NS_PER_S as u128) / spec.rate.0.max(1) as u128) as Time,
            mean_on: spec.mean_on.map_or(0.0, |d| d.0 as f64),
            mean_off: spec.mean_off.map_or(0.0, |d| d.0 as f64),
            on_until: 0,
            start: spec.start.0,
            stop: spec.stop.map_or(run_end, |s| s.0.min(run_end)),
            rng,
            sent: 0,
            delivered: 0,
            bytes_delivered: 0,
        }
    }

    /// When the first packet leaves.
    pub fn first_send(&mut self) -> Time {
        if self.kind == TrafficKind::OnOff {
            self.on_until = self.start + exponential(&mut self.rng, self.mean_on);
        }
        self.start
    }

    /// Sends one packet now; returns it and when the next one leaves, if any.
    pub fn send(&mut self, now: Time) -> (Packet, Option<Time>) {
        self.sent += 1;
        let packet = Packet {
            flow: self.flow,
            kind: Kind::Datagram,
            dst: self.to,
            seq: self.sent,
            len: 0,
            ack: 0,
            wnd: 0,
            size: self.size,
            ts: None,
            sack: Default::default(),
            ceten: None,
        };
        let next = match self.kind {
            TrafficKind::Cbr => now + self.interval,
            TrafficKind::Poisson => now + exponential(&mut self.rng, self.interval as f64),
            TrafficKind::OnOff => {
                let next = now + self.interval;
                if next < self.on_until {
                    next
                } else {
                    // Off for an exponential time, then on again for another.
                    let on_at = self.on_until + exponential(&mut self.rng, self.mean_off);
                    self.on_until = on_at + exponential(&mut self.rng, self.mean_on);
                    on_at
                }
            }
        };
        (packet, (next < self.stop).then_some(next))
    }

    pub fn delivered(&mut self, packet: &Packet) {
        self.delivered += 1;
        self.bytes_delivered += packet.size as u64;
    }

    pub fn result(&self, id: u32, run_end: Time) -> TrafficResult {
        let active = self.stop.min(run_end).saturating_sub(self.start);
        TrafficResult {
            id,
            kind: match self.kind {
                TrafficKind::Cbr => "cbr",
                TrafficKind::OnOff => "on-off",
                TrafficKind::Poisson => "poisson",
            }
            .into(),
            packets_sent: self.sent,
            packets_delivered: self.delivered,
            bytes_delivered: self.bytes_delivered,
            throughput_bps: if active > 0 { self.bytes_delivered as f64 * 8.0 / seconds(active) } else { 0.0 },
        }
    }
}
