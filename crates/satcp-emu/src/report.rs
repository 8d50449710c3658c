//! One emulation run from start to result: the threads, the clock that ends
//! the run, and the result in `satcp run`'s fields.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use satcp_core::channel::orbit::Propagation;
use satcp_core::channel::{Channel, ChannelConfig};
use satcp_core::rng::{stream, Component};
use satcp_core::scenario::QueueLimit;
use serde_json::{json, Value};

use crate::forward::{self, Forwarder, PORT_BASE};
use crate::link::{self, EmuLink};
use crate::plan::{self, Plan};
use crate::probe::{self, ProbeSpec};
use crate::setup::{self, Testbed};
use crate::sock::TcpInfo;
use crate::traffic::{self, Shared, SinkOutcome};
use crate::{signals, EmuError, Request};

fn make_link(plan: &Plan, id: u32, rate: u64, channel: ChannelConfig, limit: QueueLimit) -> EmuLink {
    let s = &plan.scenario;
    let config = link::Config {
        rate_bps: rate,
        header: crate::plan::path(s).link_header.0,
        limit,
        channel: Channel::new(&channel, rate, stream(s.seed, Component::ChannelState { link: id })),
        propagation: s.propagation(),
    };
    // The simulator's streams, one per flow, and one more for anything else (the probe).
    let streams = (0..=plan.flows.len() as u32).map(|flow| stream(s.seed, Component::LinkErrors { link: id, flow })).collect();
    EmuLink::new(config, streams)
}

pub fn run(req: &Request) -> Result<Value, EmuError> {
    if let Some(why) = setup::missing_prerequisite() {
        return Err(EmuError::Environment(why));
    }
    let plan = plan::plan(&req.scenario, &setup::available_congestion_controls()).map_err(EmuError::Scenario)?;
    let _signals = signals::install();
    let buffer_max = plan.flows.iter().map(|f| 4 * f.rwnd).max().unwrap_or(0);
    let Testbed { a, tun_a, b, tun_b } = setup::build(&plan.stack, buffer_max)?;
    let s = &plan.scenario;
    let flows = if req.tcp { plan.flows.clone() } else { Vec::new() };
    let ports: Vec<u16> = (0..flows.len()).map(|i| PORT_BASE + i as u16).collect();
    let listeners = b.run(|| flows.iter().zip(&ports).map(|(f, &p)| traffic::sink_socket(f, &plan.stack, p)).collect::<Result<Vec<_>, _>>())?;
    let senders = a.run(|| flows.iter().map(|f| traffic::sender_socket(f, &plan.stack)).collect::<Result<Vec<_>, _>>())?;
    let probe_sockets = match req.probe {
        Some(_) => Some((a.run(probe::sender_socket)?, b.run(probe::receiver_socket)?)),
        None => None,
    };
    let pcap = req.pcap.as_deref().map(forward::open_pcap).transpose()?;
    let mut forwarder = Forwarder {
        a: tun_a,
        b: tun_b,
        forward: make_link(&plan, 0, s.forward_rate(), s.forward_channel(), crate::plan::path(s).queue),
        back: make_link(&plan, 1, s.return_rate(), s.return_channel(), crate::plan::path(s).return_queue.unwrap_or(crate::plan::path(s).queue)),
        n_flows: plan.flows.len(),
        pcap,
    };

    let measure_from_ns = req.measure_from_s.map(|x| (x.max(0.0) * 1e9) as u64);
    let shared = Arc::new(Shared { t0: Instant::now(), end: AtomicBool::new(false), measure_from_ns: measure_from_ns.unwrap_or(0) });
    let stop = Arc::new(AtomicBool::new(false));
    let forwarding = {
        let (shared, stop) = (shared.clone(), stop.clone());
        thread::spawn(move || {
            let scheduler = forward::tune_thread();
            let lateness = forwarder.run(shared.t0, &stop);
            let cpu_s = forward::thread_cpu_s();
            (forwarder, lateness, (scheduler, cpu_s))
        })
    };
    let done: Vec<Arc<AtomicBool>> = flows.iter().map(|_| Arc::new(AtomicBool::new(false))).collect();
    let sinks: Vec<_> = flows.iter().zip(listeners).zip(&done).map(|((f, l), d)| traffic::spawn_sink(f.clone(), &plan.stack, l, shared.clone(), d.clone())).collect();
    let sends: Vec<_> = flows.iter().zip(senders).zip(&ports).map(|((f, fd), &p)| traffic::spawn_sender(f.clone(), fd, p, shared.clone())).collect();
    let probing = probe_sockets.map(|(tx, rx)| {
        let spec = req.probe.expect("probe sockets only with a probe");
        let drain = match s.propagation() {
            Propagation::Constant(d) => d + 100_000_000,
            Propagation::Pass(_) => 200_000_000,
        };
        let stop_ns = s.duration.0.saturating_sub(drain.min(s.duration.0 / 2));
        (probe::spawn_sender(spec, tx, shared.clone(), stop_ns), probe::spawn_receiver(rx, shared.clone()))
    });

    // The run ends at `duration`, when every sized transfer has finished, or on a signal.
    let duration = s.duration.0;
    let all_sized = !flows.is_empty() && flows.iter().all(|f| f.bytes > 0);
    let mut interrupted = false;
    let end_ns = loop {
        let t = shared.now_ns();
        if signals::stopped() {
            interrupted = true;
            break t;
        }
        if t >= duration || (all_sized && done.iter().all(|d| d.load(Ordering::Relaxed))) || forwarding.is_finished() {
            break t.min(duration);
        }
        thread::sleep(Duration::from_nanos((duration - t).min(5_000_000)));
    };
    shared.end.store(true, Ordering::SeqCst);
    let outcomes: Vec<_> = sinks.into_iter().map(|h| h.join().expect("sink thread")).collect();
    let infos: Vec<_> = sends.into_iter().map(|h| h.join().expect("sender thread")).collect();
    let probed = probing.map(|(tx, rx)| (tx.join().expect("probe sender"), rx.join().expect("probe receiver")));
    stop.store(true, Ordering::SeqCst);
    let (forwarder, lateness, (scheduler, cpu_s)) = forwarding.join().expect("forwarding thread");
    let lateness = lateness?;
    if interrupted {
        return Err(EmuError::Interrupted);
    }
    let mut flow_results = Vec::new();
    for (i, ((f, sink), info)) in flows.iter().zip(outcomes).zip(infos).enumerate() {
        flow_results.push(flow_json(i, f, &sink?, &info?.unwrap_or_default(), end_ns, measure_from_ns));
    }
    let links: Vec<Value> = [("forward", &forwarder.forward), ("return", &forwarder.back)]
        .iter()
        .map(|(name, l)| link_json(name, l, end_ns))
        .collect();
    let (p50, p99, max) = lateness.summary_us().unwrap_or_default();
    let mut result = json!({
        "seed": s.seed,
        "sim_time_s": end_ns as f64 / 1e9,
        "wall_s": end_ns as f64 / 1e9,
        "events": forwarder.forward.stats.packets + forwarder.back.stats.packets,
        "flows": flow_results,
        "links": links,
        "emulator": {
            "scheduler": scheduler,
            "late_write_us": {"p50": p50, "p99": p99, "max": max},
            // CPU time of the forwarding thread: what the emulation itself costs.
            "cpu_s": cpu_s,
            "namespaces": [a.inode(), b.inode()],
            "mtu": plan.stack.mtu,
        },
    });
    if let (Some((sent, delays)), Some(spec)) = (probed, req.probe) {
        result["probe"] = json!(probe::summarise(sent?, &delays?, expected(&spec, &plan)));
    }
    Ok(result)
}

fn expected(spec: &ProbeSpec, plan: &Plan) -> Option<u64> {
    let prop = match plan.scenario.propagation() {
        Propagation::Constant(d) => Some(d),
        Propagation::Pass(_) => None,
    };
    probe::expected_delay_ns(spec, prop, crate::plan::path(&plan.scenario).link_header.0, plan.scenario.forward_rate())
}

fn flow_json(i: usize, f: &plan::FlowPlan, sink: &SinkOutcome, info: &TcpInfo, end_ns: u64, measure_from_ns: Option<u64>) -> Value {
    let active = sink.completion_ns.unwrap_or(end_ns.saturating_sub(f.start_ns));
    let rate = |bytes: u64, ns: u64| if ns > 0 { bytes as f64 * 8e9 / ns as f64 } else { 0.0 };
    json!({
        "id": i,
        "variant": f.variant,
        "goodput_bps": rate(sink.bytes, active),
        "bytes_delivered": sink.bytes,
        "retransmits": info.total_retrans,
        // tcpi_total_rto (Linux 6.7+); older kernels do not count them: 0, and timeouts_counted false.
        "timeouts": info.total_rto.unwrap_or(0),
        "timeouts_counted": info.total_rto.is_some(),
        "completion_time_s": sink.completion_ns.map(|t| t as f64 / 1e9),
        "fast_retransmits": null,
        "segments_sent": info.data_segs_out,
        "start_s": f.start_ns as f64 / 1e9,
        "srtt_s": (info.rtt_us > 0).then(|| info.rtt_us as f64 / 1e6),
        "final_cwnd_bytes": info.snd_cwnd as u64 * info.snd_mss as u64,
        // End to end (emulate refuses PEP nodes): whatever was acknowledged reached the receiver.
        "acked_undelivered_bytes": 0,
        "split_legs": 1,
        "kernel_cc": f.cc,
        "peer_window_bytes": info.snd_wnd,
        "window_goodput_bps": measure_from_ns.map(|m| rate(sink.window_bytes, end_ns.saturating_sub(m))),
    })
}

fn link_json(name: &str, l: &EmuLink, end_ns: u64) -> Value {
    json!({
        "name": name,
        "packets": l.stats.packets,
        "utilization": if end_ns > 0 { l.stats.busy_ns.min(end_ns) as f64 / end_ns as f64 } else { 0.0 },
        "queue_drops": l.stats.queue_drops,
        "error_drops": l.stats.error_drops,
        "listed_drops": 0,
        "rate_bps": l.rate_bps(),
        "outage_drops": l.stats.outage_drops,
        "offered": l.stats.offered,
    })
}
