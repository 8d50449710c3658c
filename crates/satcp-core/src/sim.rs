//! The world and its event loop: hosts, links and flows in arenas (ids are
//! indices), driven by one time-ordered queue.

use std::time::Instant;

use crate::channel::Channel;
use crate::engine::{Event, EventQueue, LinkId};
use crate::link::{Link, LinkConfig, Next};
use crate::red::Red;
use crate::packet::{Kind, NodeId, Packet};
use crate::pep::Relay;
use crate::result::{FlowResult, LegResult, LinkResult, RunResult};
use crate::rng::{stream, Component};
use crate::scenario::Scenario;
use crate::tcp::receiver::{Receiver, ReceiverConfig};
use crate::tcp::cc::CcKind;
use crate::tcp::rto::RtoConfig;
use crate::tcp::sender::{Sender, SenderConfig};
use crate::tcp::variant;
use crate::time::{seconds, Time};
use crate::topology::Topology;
use crate::trace::{DropCause, Tracer};
use crate::traffic::Source;

pub struct Flow {
    pub variant: &'static str,
    pub start: Time,
    pub src: NodeId,
    pub dst: NodeId,
    pub sender: Sender,
    pub receiver: Receiver,
}

pub struct Simulation {
    now: Time,
    end: Time,
    seed: u64,
    queue: EventQueue,
    pub links: Vec<Link>,
    /// `routes[node][destination]`: the link a node sends a packet on.
    routes: Vec<Vec<LinkId>>,
    /// Each router's forwarding processor (a link back to itself), if it has one.
    processors: Vec<Option<LinkId>>,
    pub flows: Vec<Flow>,
    pub sources: Vec<Source>,
    /// Scratch buffer for the packets an endpoint emits.
    outbox: Vec<Packet>,
    finite_flows_open: usize,
    /// Trace sinks, when asked for; `None` costs one branch per event.
    tracer: Option<Box<Tracer>>,
    /// How PEPs relay between split connections (empty links for unsplit flows).
    pub relay: Relay,
    node_names: Vec<String>,
}

impl Simulation {
    /// Builds the world the scenario describes: the single path (sender ->
    /// forward link -> receiver, and the return link) or any `[[node]]` /
    /// `[[link]]` topology, with its flows and background sources.
    pub fn new(scenario: &Scenario) -> Simulation {
        let seed = scenario.seed;
        let plan = Topology::plan(scenario);
        // Each flow's connections: one, or its legs between PEPs (pep.rs).
        // The scenario's flows come first, so flow i's first leg is connection i.
        let mut legs: Vec<(usize, crate::pep::Leg)> = Vec::new();
        let mut later = Vec::new();
        let mut relay = Relay::default();
        for (i, spec) in scenario.flows.iter().enumerate() {
            let (src, dst) = plan.flow_ends[i];
            let next_hop = |n: NodeId| plan.links[plan.routes[n as usize][dst as usize] as usize].to;
            let mut flow_legs = crate::pep::legs(scenario, spec, src, dst, next_hop).into_iter();
            legs.push((i, flow_legs.next().expect("a flow has a leg")));
            later.push(flow_legs.collect::<Vec<_>>());
        }
        for (i, rest) in later.into_iter().enumerate() {
            let mut chain = vec![i as u32];
            for leg in rest {
                chain.push(legs.len() as u32);
                legs.push((i, leg));
            }
            relay.chains.push(chain);
        }
        relay.next = vec![None; legs.len()];
        relay.prev = vec![None; legs.len()];
        for chain in &relay.chains {
            for pair in chain.windows(2) {
                relay.next[pair[0] as usize] = Some(pair[1]);
                relay.prev[pair[1] as usize] = Some(pair[0]);
            }
        }
        // Error streams per (link, packet's flow id): TCP connections, then traffic sources.
        let streams_per_link = (legs.len() + scenario.traffic.len()) as u32;
        let link_from: Vec<NodeId> = plan.links.iter().map(|l| l.from).collect();
        let mut links: Vec<Link> = plan
            .links
            .into_iter()
            .enumerate()
            .map(|(id, l)| {
                let id = id as u32;
                let streams = (0..streams_per_link).map(|flow| stream(seed, Component::LinkErrors { link: id, flow })).collect();
                let state = stream(seed, Component::ChannelState { link: id });
                let red = l.red.map(|config| Red::new(config, stream(seed, Component::Red { link: id })));
                Link::new(
                    LinkConfig {
                        name: l.name,
                        to: l.to,
                        rate_bps: l.rate_bps,
                        propagation: l.propagation,
                        header: l.header,
                        limit: l.limit,
                        channel: Channel::new(&l.channel, l.rate_bps, state),
                        drop_list: l.drop_list,
                        red,
                    },
                    streams,
                )
            })
            .collect();
        // Gateways' ACK handling applies on every link they send on.
        for spec in &scenario.nodes {
            let (filtering, spacing) = (spec.ack_filtering.unwrap_or(false), spec.ack_spacing.map_or(0, |d| d.0));
            if filtering || spacing > 0 {
                let n = plan.node_names.iter().position(|name| *name == spec.name).expect("names validated") as NodeId;
                for (link, _) in links.iter_mut().zip(&link_from).filter(|(_, &from)| from == n) {
                    link.set_ack_handling(filtering, spacing);
                }
            }
        }
        let routes = plan.routes;
        let node_names = plan.node_names.clone();

        let mut queue = EventQueue::default();
        let flows: Vec<Flow> = legs
            .iter()
            .enumerate()
            .map(|(i, (_, leg))| {
                let spec = &leg.spec;
                let info = variant::find(&spec.variant).expect("variant validated");
                let window = crate::tcp::receiver::advertised_window(spec.rwnd.0, spec.window_scaling);
                let sack = info.sack_enabled(spec.sack);
                let (src, dst) = (leg.from, leg.to);
                let mut sender = Sender::new(SenderConfig {
                    flow: i as u32,
                    dst,
                    mss: spec.mss,
                    initial_cwnd: spec.initial_cwnd,
                    initial_ssthresh: spec.initial_ssthresh.map(|b| b.0).unwrap_or(u64::MAX),
                    recovery: info.recovery_with(sack, spec.sack_recovery),
                    cc: info.cc,
                    cc_params: spec.cc.clone(),
                    seed,
                    timestamps: spec.timestamps,
                    window_scaling: spec.window_scaling,
                    sack,
                    handshake: spec.handshake,
                    limited_transmit: spec.limited_transmit,
                    byte_counting: spec.byte_counting,
                    rack: spec.rack,
                    partial_ack_timer: spec.partial_ack_timer,
                    bytes: spec.bytes.0,
                    rto: RtoConfig {
                        initial: spec.initial_rto.0,
                        min: spec.min_rto.0,
                        max: spec.max_rto.0,
                        granularity: spec.clock_granularity.0,
                        estimator: info.rto,
                        tick: spec.rto_tick.0,
                    },
                    assumed_peer_window: window,
                });
                let receiver = Receiver::new(ReceiverConfig {
                    flow: i as u32,
                    dst: src,
                    buffer: spec.rwnd.0,
                    window_scaling: spec.window_scaling,
                    timestamps: spec.timestamps,
                    sack,
                    delayed_ack: spec.delayed_ack,
                    delayed_ack_timeout: spec.delayed_ack_timeout.0,
                    delayed_ack_tick: spec.delayed_ack_tick.0,
                    expected_bytes: spec.bytes.0,
                    ceten_option_bytes: (info.cc == CcKind::Ceten)
                        .then(|| crate::tcp::cc::ceten::Config::from(&spec.cc).option_bytes),
                });
                crate::pep::prepare_sender(&mut sender, &leg.extras, relay.prev[i].is_some());
                queue.schedule(spec.start.0, Event::FlowStart(i as u32));
                Flow { variant: info.name, start: spec.start.0, src, dst, sender, receiver }
            })
            .collect();
        let finite_flows_open =
            if scenario.flows.iter().all(|f| f.bytes.0 > 0) { scenario.flows.len() } else { usize::MAX };
        let n_flows = flows.len() as u32;
        let sources: Vec<Source> = scenario
            .traffic
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let rng = stream(seed, Component::Traffic { source: i as u32 });
                let mut source = Source::new(spec, n_flows + i as u32, plan.traffic_ends[i], scenario.duration.0, rng);
                queue.schedule(source.first_send(), Event::TrafficSend(i as u32));
                source
            })
            .collect();
        Simulation {
            now: 0,
            end: scenario.duration.0,
            seed,
            queue,
            links,
            routes,
            processors: plan.processors,
            flows,
            sources,
            outbox: Vec::with_capacity(64),
            finite_flows_open,
            tracer: None,
            relay,
            node_names,
        }
    }

    pub fn attach_tracer(&mut self, tracer: Tracer) {
        self.tracer = Some(Box::new(tracer));
    }

    /// Takes the tracer back, to flush it.
    pub fn detach_tracer(&mut self) -> Option<Tracer> {
        self.tracer.take().map(|t| *t)
    }

    pub fn now(&self) -> Time {
        self.now
    }

    /// Handles the next event; false once the run is over (the duration is
    /// reached or every finite transfer is complete).
    pub fn step(&mut self) -> bool {
        match self.queue.peek_time() {
            Some(t) if t <= self.end && self.finite_flows_open > 0 => {
                let (time, event) = self.queue.pop().expect("peeked");
                self.now = time;
                self.handle(event);
                true
            }
            _ => false,
        }
    }

    /// Runs to the scenario's duration, or until every finite transfer is complete.
    pub fn run(mut self) -> RunResult {
        let started = Instant::now();
        while self.step() {}
        let wall = started.elapsed().as_secs_f64();
        self.finish(wall)
    }

    /// The result of the run so far.
    pub fn finish(&self, wall_s: f64) -> RunResult {
        let sim_end = if self.finite_flows_open == 0 { self.now } else { self.end };
        self.result(sim_end, wall_s)
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::TxDone(link) => {
                let l = &mut self.links[link as usize];
                let traced = self.tracer.as_ref().and_then(|_| l.on_wire().copied().map(|p| (p, l.stats.clone())));
                let (arrival, next) = l.transmission_done(self.now);
                match (arrival, traced, &mut self.tracer) {
                    (Some(at), _, _) => self.queue.schedule(at, Event::Arrive(link)),
                    (None, Some((packet, before)), Some(tracer)) if !is_leg(&self.relay, self.flows.len(), packet.flow) => {
                        let cause = if l.stats.listed_drops > before.listed_drops {
                            DropCause::Listed
                        } else if l.stats.outage_drops > before.outage_drops {
                            DropCause::Outage
                        } else {
                            DropCause::Error
                        };
                        tracer.dropped(self.now, &l.name, &packet, cause);
                    }
                    _ => {}
                }
                self.schedule_link(link, next);
            }
            Event::Arrive(link) => {
                let to = self.links[link as usize].to;
                let packet = self.links[link as usize].arrive();
                match self.processors[to as usize] {
                    _ if packet.dst == to => self.deliver(to, packet),
                    // A router forwards a packet only once its processor has handled it.
                    Some(processor) if processor != link => {
                        let next = self.links[processor as usize].enqueue(self.now, packet);
                        self.schedule_link(processor, next);
                    }
                    _ => self.forward(to, packet),
                }
            }
            Event::TrafficSend(i) => {
                let source = &mut self.sources[i as usize];
                let (packet, next) = source.send(self.now);
                let from = source.from;
                if let Some(at) = next {
                    self.queue.schedule(at, Event::TrafficSend(i));
                }
                self.forward(from, packet);
            }
            Event::FlowStart(f) => {
                let mut out = std::mem::take(&mut self.outbox);
                self.flows[f as usize].sender.start(self.now, &mut out);
                self.after_endpoint(f, self.flows[f as usize].src, out);
            }
            Event::Rto(f, generation) => {
                let mut out = std::mem::take(&mut self.outbox);
                self.flows[f as usize].sender.on_rto(self.now, generation, &mut out);
                self.after_endpoint(f, self.flows[f as usize].src, out);
            }
            Event::Pace(f, generation) => {
                let mut out = std::mem::take(&mut self.outbox);
                self.flows[f as usize].sender.on_pace(self.now, generation, &mut out);
                self.after_endpoint(f, self.flows[f as usize].src, out);
            }
            Event::LossTimer(f, generation) => {
                let mut out = std::mem::take(&mut self.outbox);
                self.flows[f as usize].sender.on_loss_timer(self.now, generation, &mut out);
                self.after_endpoint(f, self.flows[f as usize].src, out);
            }
            Event::DelayedAck(f, generation) => {
                let mut out = std::mem::take(&mut self.outbox);
                self.flows[f as usize].receiver.on_delayed_ack_timer(self.now, generation, &mut out);
                self.after_endpoint(f, self.flows[f as usize].dst, out);
            }
        }
    }

    fn deliver(&mut self, node: NodeId, packet: Packet) {
        if packet.kind == Kind::Datagram {
            let source = packet.flow as usize - self.flows.len();
            return self.sources[source].delivered(&packet);
        }
        let f = packet.flow;
        let traced = !self.is_pep_leg(f);
        let flow = &mut self.flows[f as usize];
        let mut out = std::mem::take(&mut self.outbox);
        match packet.kind {
            Kind::Syn | Kind::Data => {
                let was_complete = flow.receiver.completed_at.is_some();
                let delivered = flow.receiver.bytes_delivered();
                flow.receiver.on_segment(self.now, &packet, &mut out);
                let now_complete = flow.receiver.completed_at.is_some();
                let grew = flow.receiver.bytes_delivered() > delivered;
                if !was_complete && now_complete && self.relay.is_final(f) {
                    self.finite_flows_open = self.finite_flows_open.saturating_sub(1);
                }
                if let (true, Some(next)) = (grew, self.relay.next[f as usize]) {
                    self.relay_delivered(f, next, &mut out);
                }
            }
            Kind::Datagram => unreachable!("datagrams are delivered above"),
            Kind::SynAck | Kind::Ack => {
                if let (true, Some(tracer)) = (traced, &mut self.tracer) {
                    tracer.ack_arrived(self.now, &packet);
                }
                flow.sender.on_ack(self.now, &packet, &mut out);
                if let Some(up) = self.relay.prev[f as usize] {
                    self.relay_acked(up, f);
                }
            }
        }
        self.after_endpoint(f, node, out);
    }

    fn is_pep_leg(&self, f: u32) -> bool {
        is_leg(&self.relay, self.flows.len(), f)
    }

    /// Connection `up` delivered new bytes at a PEP: leg `next` carries them on.
    fn relay_delivered(&mut self, up: u32, next: u32, up_out: &mut Vec<Packet>) {
        let mut down_out = Vec::new();
        let (a, b) = two(&mut self.flows, up as usize, next as usize);
        Relay::on_delivered(&mut a.receiver, &mut b.sender, self.now, up_out, &mut down_out);
        self.after_endpoint(next, self.flows[next as usize].src, down_out);
    }

    /// Leg `down` had bytes acknowledged: the PEP may reopen `up`'s window.
    fn relay_acked(&mut self, up: u32, down: u32) {
        let mut up_out = Vec::new();
        let (a, b) = two(&mut self.flows, up as usize, down as usize);
        Relay::on_acked(&mut a.receiver, &b.sender, self.now, &mut up_out);
        if !up_out.is_empty() {
            self.after_endpoint(up, self.flows[up as usize].dst, up_out);
        }
    }

    /// Sends what an endpoint emitted and schedules the timers it armed.
    fn after_endpoint(&mut self, f: u32, node: NodeId, mut out: Vec<Packet>) {
        // Traces follow the original senders' connections, not PEP legs.
        let traced = !self.is_pep_leg(f);
        if let (true, Some(tracer)) = (traced, &mut self.tracer) {
            for packet in out.iter().filter(|p| matches!(p.kind, Kind::Data | Kind::Syn)) {
                tracer.sent(self.now, packet);
            }
            tracer.sender_state(self.now, f as usize, &self.flows[f as usize].sender);
        }
        for packet in out.drain(..) {
            self.forward(node, packet);
        }
        self.outbox = out;
        let flow = &mut self.flows[f as usize];
        if let Some((at, generation)) = flow.sender.rto_timer.schedule_request() {
            self.queue.schedule(at, Event::Rto(f, generation));
        }
        if let Some((at, generation)) = flow.receiver.delayed_ack_timer.schedule_request() {
            self.queue.schedule(at, Event::DelayedAck(f, generation));
        }
        if let Some((at, generation)) = flow.sender.pace_timer.schedule_request() {
            self.queue.schedule(at, Event::Pace(f, generation));
        }
        if let Some((at, generation)) = flow.sender.loss_timer.schedule_request() {
            self.queue.schedule(at, Event::LossTimer(f, generation));
        }
    }

    fn forward(&mut self, node: NodeId, packet: Packet) {
        let link = self.routes[node as usize][packet.dst as usize];
        let l = &mut self.links[link as usize];
        let drops_before = l.stats.queue_drops;
        let next = l.enqueue(self.now, packet);
        let traced = !is_leg(&self.relay, self.flows.len(), packet.flow);
        if let (true, Some(tracer)) = (traced, &mut self.tracer) {
            if l.stats.queue_drops > drops_before {
                tracer.dropped(self.now, &l.name, &packet, DropCause::Queue);
            }
        }
        self.schedule_link(link, next);
    }

    fn schedule_link(&mut self, link: LinkId, next: Next) {
        if let Next::TxDoneAt(at) = next {
            self.queue.schedule(at, Event::TxDone(link));
        }
    }

    fn leg_result(&self, connection: u32) -> LegResult {
        let leg = &self.flows[connection as usize];
        let stats = &leg.sender.stats;
        LegResult {
            from: self.node_names[leg.src as usize].clone(),
            to: self.node_names[leg.dst as usize].clone(),
            variant: leg.variant.to_string(),
            bytes_delivered: leg.receiver.bytes_delivered(),
            segments_sent: stats.segments_sent,
            retransmits: stats.retransmits,
            fast_retransmits: stats.fast_retransmits,
            timeouts: stats.timeouts,
            srtt_s: leg.sender.rtt.srtt().map(seconds),
            final_cwnd_bytes: leg.sender.window.cwnd,
        }
    }

    fn result(&self, sim_end: Time, wall_s: f64) -> RunResult {
        let flows = self
            .relay
            .chains
            .iter()
            .enumerate()
            .map(|(i, chain)| {
                let flow = &self.flows[i];
                // End to end: goodput at the real receiver, the last leg's.
                let last = &self.flows[*chain.last().expect("a chain has a leg") as usize];
                let delivered = last.receiver.bytes_delivered();
                let finished = last.receiver.completed_at.unwrap_or(sim_end);
                let active = finished.saturating_sub(flow.start);
                let stats = &flow.sender.stats;
                FlowResult {
                    id: i as u32,
                    variant: flow.variant.to_string(),
                    goodput_bps: if active > 0 { delivered as f64 * 8.0 / seconds(active) } else { 0.0 },
                    bytes_delivered: delivered,
                    retransmits: stats.retransmits,
                    timeouts: stats.timeouts,
                    completion_time_s: last.receiver.completed_at.map(|t| seconds(t - flow.start)),
                    // Acknowledged to the sender (by a PEP) but not at the real receiver.
                    acked_undelivered_bytes: flow.sender.snd_una.saturating_sub(delivered),
                    split_legs: chain.len() as u32,
                    legs: if chain.len() > 1 { chain.iter().map(|&c| self.leg_result(c)).collect() } else { Vec::new() },
                    fast_retransmits: stats.fast_retransmits,
                    segments_sent: stats.segments_sent,
                    start_s: seconds(flow.start),
                    srtt_s: flow.sender.rtt.srtt().map(seconds),
                    final_cwnd_bytes: flow.sender.window.cwnd,
                }
            })
            .collect();
        let links = self
            .links
            .iter()
            .map(|link| LinkResult {
                name: link.name.clone(),
                packets: link.stats.packets,
                utilization: if sim_end > 0 { (link.stats.busy_time.min(sim_end)) as f64 / sim_end as f64 } else { 0.0 },
                queue_drops: link.stats.queue_drops,
                error_drops: link.stats.error_drops,
                listed_drops: link.stats.listed_drops,
                outage_drops: link.stats.outage_drops,
                rate_bps: link.rate_bps(),
            })
            .collect();
        let traffic = self.sources.iter().enumerate().map(|(i, s)| s.result(i as u32, sim_end)).collect();
        RunResult { seed: self.seed, sim_time_s: seconds(sim_end), wall_s, events: self.queue.processed(), flows, links, traffic }
    }
}


/// Two distinct elements of a slice, both mutable.
fn two<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}

/// A connection a PEP added (not a scenario flow's first leg, not a datagram source).
fn is_leg(relay: &Relay, connections: usize, id: u32) -> bool {
    (relay.chains.len()..connections).contains(&(id as usize))
}
