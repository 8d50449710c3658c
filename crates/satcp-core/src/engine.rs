//! The event queue: time-ordered, ties broken by insertion order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::packet::FlowId;
use crate::time::Time;

pub type LinkId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet on the wire of a link has been fully serialised.
    TxDone(LinkId),
    /// The oldest packet propagating on a link reaches its far end.
    Arrive(LinkId),
    FlowStart(FlowId),
    /// Retransmission timer of a flow's sender, with the timer's generation.
    Rto(FlowId, u32),
    /// Delayed-ACK timer of a flow's receiver.
    DelayedAck(FlowId, u32),
    /// A background traffic source sends its next packet.
    TrafficSend(u32),
    /// Pacing timer of a flow's sender (paced controllers only).
    Pace(FlowId, u32),
    /// RACK-TLP's reordering or probe timer of a flow's sender (`rack = true` only).
    LossTimer(FlowId, u32),
}

#[derive(PartialEq, Eq)]
struct Scheduled {
    time: Time,
    order: u64,
    event: Event,
}

impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: reverse for earliest-first.
        (other.time, other.order).cmp(&(self.time, self.order))
    }
}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Scheduled>,
    inserted: u64,
    popped: u64,
}

impl EventQueue {
    pub fn schedule(&mut self, time: Time, event: Event) {
        self.heap.push(Scheduled { time, order: self.inserted, event });
        self.inserted += 1;
    }

    pub fn pop(&mut self) -> Option<(Time, Event)> {
        let next = self.heap.pop()?;
        self.popped += 1;
        Some((next.time, next.event))
    }

    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|s| s.time)
    }

    /// Events handled so far.
    pub fn processed(&self) -> u64 {
        self.popped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_insertion_order() {
        let mut q = EventQueue::default();
        q.schedule(5, Event::TxDone(1));
        q.schedule(3, Event::TxDone(2));
        q.schedule(5, Event::TxDone(3));
        q.schedule(3, Event::TxDone(4));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![(3, Event::TxDone(2)), (3, Event::TxDone(4)), (5, Event::TxDone(1)), (5, Event::TxDone(3))]
        );
    }
}
