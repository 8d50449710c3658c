//! The CSV traces `satcp plot` reads: one set of files per flow, a drops
//! file and `meta.json` describing the run.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::{seconds_text, DropCause};
use crate::packet::Packet;
use crate::scenario::Scenario;
use crate::tcp::sender::Sender;
use crate::tcp::variant;
use crate::time::{seconds, Time};

struct FlowFiles {
    segments: BufWriter<File>,
    acks: BufWriter<File>,
    state: BufWriter<File>,
    /// (cwnd, ssthresh, flight, srtt, rto) last written.
    last_state: Option<(u64, u64, u64, Option<Time>, Time)>,
}

pub struct CsvTraces {
    flows: Vec<FlowFiles>,
    drops: BufWriter<File>,
}

fn create(dir: &Path, name: &str, header: &str) -> io::Result<BufWriter<File>> {
    let path = dir.join(name);
    let file = File::create(&path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    writeln!(w, "{header}")?;
    Ok(w)
}

impl CsvTraces {
    pub fn create(dir: &Path, scenario: &Scenario) -> io::Result<CsvTraces> {
        fs::create_dir_all(dir).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        let flows = (0..scenario.flows.len())
            .map(|i| {
                Ok(FlowFiles {
                    segments: create(dir, &format!("flow-{i}-segments.csv"), "time_s,seq,len,retransmit")?,
                    acks: create(dir, &format!("flow-{i}-acks.csv"), "time_s,ack,window,sack")?,
                    state: create(dir, &format!("flow-{i}-cwnd.csv"), "time_s,cwnd,ssthresh,flight,srtt_s,rto_s")?,
                    last_state: None,
                })
            })
            .collect::<io::Result<Vec<_>>>()?;
        let drops = create(dir, "drops.csv", "time_s,flow,link,seq,len,cause")?;
        fs::write(dir.join("meta.json"), meta(scenario).to_string())?;
        Ok(CsvTraces { flows, drops })
    }

    pub fn segment(&mut self, now: Time, p: &Packet, retransmission: bool) -> io::Result<()> {
        let w = &mut self.flows[p.flow as usize].segments;
        writeln!(w, "{},{},{},{}", seconds_text(now), p.seq, p.len, retransmission as u8)
    }

    pub fn ack(&mut self, now: Time, p: &Packet) -> io::Result<()> {
        let w = &mut self.flows[p.flow as usize].acks;
        write!(w, "{},{},{},", seconds_text(now), p.ack, p.wnd)?;
        for (i, (left, right)) in p.sack.iter().enumerate() {
            write!(w, "{}{left}-{right}", if i > 0 { " " } else { "" })?;
        }
        writeln!(w)
    }

    pub fn sender_state(&mut self, now: Time, flow: usize, s: &Sender) -> io::Result<()> {
        let state = (s.window.cwnd, s.window.ssthresh, s.flight_size(), s.rtt.srtt(), s.rtt.rto());
        let f = &mut self.flows[flow];
        if f.last_state == Some(state) {
            return Ok(());
        }
        f.last_state = Some(state);
        let (cwnd, ssthresh, flight, srtt, rto) = state;
        let ssthresh = if ssthresh == u64::MAX { String::new() } else { ssthresh.to_string() };
        let srtt = srtt.map(seconds_text).unwrap_or_default();
        writeln!(f.state, "{},{cwnd},{ssthresh},{flight},{srtt},{}", seconds_text(now), seconds_text(rto))
    }

    pub fn drop(&mut self, now: Time, link: &str, p: &Packet, cause: DropCause) -> io::Result<()> {
        writeln!(self.drops, "{},{},{link},{},{},{}", seconds_text(now), p.flow, p.seq, p.len, cause.name())
    }

    pub fn finish(mut self) -> io::Result<()> {
        for f in &mut self.flows {
            f.segments.flush()?;
            f.acks.flush()?;
            f.state.flush()?;
        }
        self.drops.flush()
    }
}

fn meta(scenario: &Scenario) -> serde_json::Value {
    let flows: Vec<_> = scenario
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let info = variant::find(&f.variant).expect("variant validated");
            serde_json::json!({
                "id": i,
                "variant": info.name,
                "mss": f.mss,
                "sack": info.sack_enabled(f.sack),
                "start_s": seconds(f.start.0),
            })
        })
        .collect();
    let links: Vec<_> = crate::topology::Topology::plan(scenario)
        .links
        .iter()
        .map(|l| {
            let delay = match l.propagation {
                crate::channel::orbit::Propagation::Constant(d) => Some(seconds(d)),
                _ => None,
            };
            serde_json::json!({"name": l.name, "rate_bps": l.rate_bps, "delay_s": delay})
        })
        .collect();
    serde_json::json!({
        "seed": scenario.seed,
        "duration_s": seconds(scenario.duration.0),
        "flows": flows,
        "links": links,
    })
}
