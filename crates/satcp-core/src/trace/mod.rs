//! Optional trace sinks: per-flow CSV files for the plots (segments sent,
//! ACKs arriving, sender state) and a pcap of what the sending host sees.
//! The simulation holds `Option<Tracer>`, so a run without traces pays one
//! branch per event and nothing else.

mod csv;
mod pcap;

use std::io;
use std::path::PathBuf;

use crate::packet::{Kind, Packet};
use crate::scenario::Scenario;
use crate::tcp::sender::Sender;
use crate::time::Time;

/// Where traces go; both off by default.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// Directory for the CSV traces (created if missing).
    pub dir: Option<PathBuf>,
    /// pcap file of every flow as seen at its sending host.
    pub pcap: Option<PathBuf>,
}

impl TraceOptions {
    pub fn is_off(&self) -> bool {
        self.dir.is_none() && self.pcap.is_none()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    Queue,
    Error,
    Listed,
    /// No satellite in view (a LEO handover gap).
    Outage,
}

impl DropCause {
    fn name(self) -> &'static str {
        match self {
            DropCause::Queue => "queue",
            DropCause::Error => "error",
            DropCause::Listed => "listed",
            DropCause::Outage => "outage",
        }
    }
}

pub struct Tracer {
    csv: Option<csv::CsvTraces>,
    pcap: Option<pcap::PcapTrace>,
    /// One past the highest byte each flow has sent, to mark retransmissions.
    high_sent: Vec<u64>,
    /// The first write error, reported when the run ends.
    error: Option<io::Error>,
}

impl Tracer {
    pub fn open(options: &TraceOptions, scenario: &Scenario) -> io::Result<Tracer> {
        let csv = options.dir.as_ref().map(|dir| csv::CsvTraces::create(dir, scenario)).transpose()?;
        let pcap = options.pcap.as_ref().map(|path| pcap::PcapTrace::create(path, scenario)).transpose()?;
        Ok(Tracer { csv, pcap, high_sent: vec![0; scenario.flows.len()], error: None })
    }

    fn keep<T>(&mut self, result: io::Result<T>) {
        if let Err(e) = result {
            self.error.get_or_insert(e);
        }
    }

    /// A segment leaves the sending host.
    pub fn sent(&mut self, now: Time, packet: &Packet) {
        let flow = packet.flow as usize;
        let retransmission = packet.seq < self.high_sent[flow];
        self.high_sent[flow] = self.high_sent[flow].max(packet.end());
        if let (Some(csv), Kind::Data) = (&mut self.csv, packet.kind) {
            let r = csv.segment(now, packet, retransmission);
            self.keep(r);
        }
        if let Some(pcap) = &mut self.pcap {
            let r = pcap.write(now, packet);
            self.keep(r);
        }
    }

    /// An ACK (or SYN-ACK) reaches the sending host.
    pub fn ack_arrived(&mut self, now: Time, packet: &Packet) {
        if let Some(csv) = &mut self.csv {
            let r = csv.ack(now, packet);
            self.keep(r);
        }
        if let Some(pcap) = &mut self.pcap {
            let r = pcap.write(now, packet);
            self.keep(r);
        }
    }

    /// The sender's window and timer state, written when it changed.
    pub fn sender_state(&mut self, now: Time, flow: usize, sender: &Sender) {
        if let Some(csv) = &mut self.csv {
            let r = csv.sender_state(now, flow, sender);
            self.keep(r);
        }
    }

    pub fn dropped(&mut self, now: Time, link: &str, packet: &Packet, cause: DropCause) {
        if let Some(csv) = &mut self.csv {
            let r = csv.drop(now, link, packet, cause);
            self.keep(r);
        }
    }

    /// Flushes every file; the first error of the run, if any.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if let Some(csv) = self.csv.take() {
            csv.finish()?;
        }
        if let Some(pcap) = self.pcap.take() {
            pcap.finish()?;
        }
        Ok(())
    }
}

/// Seconds with nanosecond digits, exactly.
fn seconds_text(t: Time) -> String {
    format!("{}.{:09}", t / 1_000_000_000, t % 1_000_000_000)
}
