//! RACK-TLP (RFC 8985) at the segment level: a sender and a SACK receiver
//! joined by a fixed-delay wire that loses the transmissions named, with
//! both of the sender's timers (RTO, and RACK's reorder/probe timer) run as
//! the event loop would.

use super::sack::sack_receiver;
use super::*;
use crate::tcp::recovery::SackStyle;

const ONE_WAY: Time = 100 * NS_PER_MS;

enum Event {
    Data(Packet),
    Ack(Packet),
    Rto(u32),
    LossTimer(u32),
}

struct Wire {
    sender: Sender,
    receiver: Receiver,
    now: Time,
    end: u64,
    events: Vec<(Time, u64, Event)>,
    order: u64,
    /// (segment, which transmission of it: 1 = first) the wire drops.
    drops: Vec<(u64, u32)>,
    transmissions: std::collections::HashMap<u64, u32>,
}

impl Wire {
    fn new(rack: bool, segments: u64, drops: &[(u64, u32)]) -> Wire {
        let mut config = sender_config(RecoveryKind::Sack(SackStyle::Rfc6675), 10);
        config.sack = true;
        config.timestamps = true;
        config.rack = rack;
        config.bytes = segments * MSS;
        let mut wire = Wire {
            sender: Sender::new(config),
            receiver: sack_receiver(true),
            now: 0,
            end: segments * MSS,
            events: Vec::new(),
            order: 0,
            drops: drops.to_vec(),
            transmissions: Default::default(),
        };
        let mut out = Vec::new();
        wire.sender.start(0, &mut out);
        wire.after_sender(out);
        wire
    }

    fn push(&mut self, at: Time, event: Event) {
        self.order += 1;
        self.events.push((at, self.order, event));
    }

    fn after_sender(&mut self, out: Vec<Packet>) {
        for p in out.into_iter().filter(|p| p.kind == Kind::Data) {
            let n = p.seq / MSS;
            let nth = self.transmissions.entry(n).or_default();
            *nth += 1;
            if !self.drops.contains(&(n, *nth)) {
                self.push(self.now + ONE_WAY, Event::Data(p));
            }
        }
        if let Some((at, generation)) = self.sender.rto_timer.schedule_request() {
            self.push(at, Event::Rto(generation));
        }
        if let Some((at, generation)) = self.sender.loss_timer.schedule_request() {
            self.push(at, Event::LossTimer(generation));
        }
    }

    /// Runs until every byte is acknowledged; returns that time.
    fn run(&mut self) -> Time {
        while self.sender.snd_una < self.end {
            let next = (0..self.events.len()).min_by_key(|&i| (self.events[i].0, self.events[i].1)).expect("the exchange stalled");
            let (at, _, event) = self.events.swap_remove(next);
            self.now = at;
            assert!(at < 60 * NS_PER_S, "no completion within a minute");
            let mut out = Vec::new();
            match event {
                Event::Data(p) => {
                    self.receiver.on_segment(at, &p, &mut out);
                    for a in out {
                        self.push(at + ONE_WAY, Event::Ack(a));
                    }
                    continue;
                }
                Event::Ack(a) => self.sender.on_ack(at, &a, &mut out),
                Event::Rto(generation) => self.sender.on_rto(at, generation, &mut out),
                Event::LossTimer(generation) => self.sender.on_loss_timer(at, generation, &mut out),
            }
            self.after_sender(out);
        }
        self.now
    }

    fn sent(&self, segment: u64) -> u32 {
        self.transmissions.get(&segment).copied().unwrap_or(0)
    }
}

#[test]
fn a_lost_tail_is_probed_and_repaired_without_a_timeout() {
    // Ten segments, the last two lost: no duplicate ACKs can come.
    let drops = [(8, 1), (9, 1)];
    let mut plain = Wire::new(false, 10, &drops);
    let plain_done = plain.run();
    assert_eq!(plain.sender.stats.timeouts, 1, "without RACK-TLP only the RTO repairs a tail");

    let mut tlp = Wire::new(true, 10, &drops);
    let done = tlp.run();
    assert_eq!(tlp.sender.stats.timeouts, 0);
    assert_eq!(tlp.sender.rack_tlp.as_ref().unwrap().probes_sent, 1);
    //= rfc8985#section-7.3
    //# Else: Retransmit the last segment
    // The probe resends 9; its SACK lets RACK find 8 lost by time.
    assert_eq!((tlp.sent(8), tlp.sent(9)), (2, 2));
    assert_eq!(tlp.sender.stats.fast_retransmits, 1, "8 is repaired by SACK recovery");
    assert!(done < plain_done, "probe {done} ns, RTO {plain_done} ns");
}

#[test]
fn a_lost_retransmission_is_sent_again_without_a_timeout() {
    // Segment 2 is lost twice: RFC 6675 alone cannot see the second loss.
    let drops = [(2, 1), (2, 2)];
    let mut plain = Wire::new(false, 40, &drops);
    plain.run();
    assert_eq!(plain.sender.stats.timeouts, 1);

    let mut rack = Wire::new(true, 40, &drops);
    rack.run();
    //= rfc8985#section-6.2
    //# RACK ... can detect lost retransmissions
    assert_eq!(rack.sender.stats.timeouts, 0);
    assert_eq!(rack.sent(2), 3);
    assert_eq!(rack.sender.stats.fast_retransmits, 1, "one recovery episode repairs both");
}

#[test]
fn without_losses_rack_changes_nothing() {
    let mut plain = Wire::new(false, 40, &[]);
    let mut rack = Wire::new(true, 40, &[]);
    assert_eq!(plain.run(), rack.run());
    assert_eq!(rack.sender.stats.retransmits, 0);
    assert_eq!(rack.sender.rack_tlp.as_ref().unwrap().probes_sent, 0);
}
