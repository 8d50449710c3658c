//! The forwarding loop: packets read from the sender's TUN device cross the
//! forward link to the receiver's, and back over the return link.
//!
//! One thread, sleeping in ppoll(2) until a packet arrives or the next
//! transmission or arrival is due. ppoll's timeout is an hrtimer, so with
//! the timer slack set to 1 ns (prctl PR_SET_TIMERSLACK) and, where allowed,
//! SCHED_FIFO, the thread wakes within microseconds of a deadline without
//! spinning a core that other work needs. How late each packet was written
//! is recorded, so the run reports its own timing error.

use std::fs::File;
use std::io::{self, BufWriter};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::DataLink;

use crate::link::{EmuLink, Packet};
use crate::tun::Tun;

/// TCP ports of the flows: flow i listens on PORT_BASE + i.
pub const PORT_BASE: u16 = 5001;
/// Longest sleep between checks of the stop flag.
const MAX_SLEEP_NS: u64 = 20_000_000;

pub struct Forwarder {
    pub a: Tun,
    pub b: Tun,
    pub forward: EmuLink,
    pub back: EmuLink,
    pub n_flows: usize,
    pub pcap: Option<PcapWriter<BufWriter<File>>>,
}

/// How late packets left the emulator, beyond their scheduled arrival, ns.
#[derive(Clone, Debug, Default)]
pub struct Lateness {
    samples: Vec<u32>,
}

impl Lateness {
    fn push(&mut self, ns: u64) {
        self.samples.push(ns.min(u32::MAX as u64) as u32);
    }

    /// (p50, p99, max) in microseconds, or None without packets.
    pub fn summary_us(&self) -> Option<(f64, f64, f64)> {
        if self.samples.is_empty() {
            return None;
        }
        let mut s = self.samples.clone();
        s.sort_unstable();
        let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize] as f64 / 1e3;
        Some((at(0.5), at(0.99), *s.last().expect("not empty") as f64 / 1e3))
    }
}

/// The flow a packet belongs to, by its TCP port (dst forward, src back);
/// anything else draws from the extra stream after the flows'.
fn stream_of(packet: &[u8], forward: bool, n_flows: usize) -> usize {
    if packet.len() < 24 || packet[0] >> 4 != 4 || packet[9] != libc::IPPROTO_TCP as u8 {
        return n_flows;
    }
    let ihl = (packet[0] & 0x0f) as usize * 4;
    let at = if forward { ihl + 2 } else { ihl };
    match packet.get(at..at + 2) {
        Some(p) => {
            let port = u16::from_be_bytes([p[0], p[1]]);
            let i = port.wrapping_sub(PORT_BASE) as usize;
            if i < n_flows { i } else { n_flows }
        }
        None => n_flows,
    }
}

/// Real-time priority of the forwarding thread: above the probe's threads
/// (`tune_probe_thread`), so a probe datagram never delays the link it measures.
const FORWARDER_PRIORITY: libc::c_int = 20;
/// The probe's sender and receiver stamp times; they run real-time too, below the forwarder.
const PROBE_PRIORITY: libc::c_int = 10;

/// Sets up the forwarding thread for precise wake-ups; says what it got.
pub fn tune_thread() -> &'static str {
    set_realtime(FORWARDER_PRIORITY)
}

/// The same for a probe thread, one step below the forwarder.
pub fn tune_probe_thread() {
    set_realtime(PROBE_PRIORITY);
}

/// CPU time the calling thread has used, seconds.
pub fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

fn set_realtime(priority: libc::c_int) -> &'static str {
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0);
        let param = libc::sched_param { sched_priority: priority };
        if libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0 {
            "SCHED_FIFO"
        } else {
            "SCHED_OTHER"
        }
    }
}

impl Forwarder {
    /// Forwards until `stop` is set; `t0` is time zero of the channel models.
    pub fn run(&mut self, t0: Instant, stop: &AtomicBool) -> io::Result<Lateness> {
        // Room for a long run's samples up front: a growing Vec copies itself mid-run.
        let mut lateness = Lateness { samples: Vec::with_capacity(1 << 20) };
        let mut buf = vec![0u8; 65_536];
        let now = || t0.elapsed().as_nanos() as u64;
        // pcap stamps are wall-clock time, so a capture shows when it was taken.
        let epoch_ns = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            .saturating_sub(now());
        while !stop.load(Ordering::Relaxed) {
            for forward in [true, false] {
                let (tun, link) = if forward { (&self.a, &mut self.forward) } else { (&self.b, &mut self.back) };
                while let Some(n) = tun.read(&mut buf)? {
                    // Each packet enters the link when it was read, never
                    // before: a clock read ahead of the loop would let a
                    // packet sent during a stall (a descheduled vCPU) leave
                    // earlier than the model allows.
                    let t = now();
                    let data = buf[..n].to_vec();
                    if let Some(w) = &mut self.pcap {
                        let _ = w.write_packet(&PcapPacket::new(Duration::from_nanos(epoch_ns + t), n as u32, &data));
                    }
                    link.advance(t);
                    let stream = stream_of(&data, forward, self.n_flows);
                    link.offer(t, Packet { data, stream });
                }
            }
            let t = now();
            for forward in [true, false] {
                let (tun, link) = if forward { (&self.b, &mut self.forward) } else { (&self.a, &mut self.back) };
                link.advance(t);
                while let Some((at, packet)) = link.pop_arrived(t) {
                    tun.write(&packet.data)?;
                    lateness.push(now().saturating_sub(at));
                }
            }
            let t = now();
            let next = [self.forward.next_deadline(), self.back.next_deadline()]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(u64::MAX)
                .min(t + MAX_SLEEP_NS);
            self.wait(next.saturating_sub(t))?;
        }
        if let Some(w) = self.pcap.take() {
            use std::io::Write;
            w.into_writer().flush()?;
        }
        Ok(lateness)
    }

    /// Sleeps until `ns` from now, or until a packet comes. (Polling the
    /// last 250 us before a deadline instead was measured against this and
    /// bought no tail latency on a shared VM for 2.5x the CPU: benches/README.md.)
    fn wait(&self, ns: u64) -> io::Result<()> {
        if ns == 0 {
            return Ok(());
        }
        let mut fds = [
            libc::pollfd { fd: self.a.raw(), events: libc::POLLIN, revents: 0 },
            libc::pollfd { fd: self.b.raw(), events: libc::POLLIN, revents: 0 },
        ];
        let ts = libc::timespec { tv_sec: (ns / 1_000_000_000) as libc::time_t, tv_nsec: (ns % 1_000_000_000) as libc::c_long };
        let r = unsafe { libc::ppoll(fds.as_mut_ptr(), 2, &ts, std::ptr::null()) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
        Ok(())
    }
}

/// A pcap file of raw IPv4 packets (LINKTYPE_RAW) as they enter the emulator.
pub fn open_pcap(path: &std::path::Path) -> io::Result<PcapWriter<BufWriter<File>>> {
    let file = File::create(path).map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    let header = PcapHeader { datalink: DataLink::RAW, endianness: pcap_file::Endianness::Little, ..PcapHeader::default() };
    PcapWriter::with_header(BufWriter::with_capacity(1 << 16, file), header).map_err(|e| io::Error::other(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_are_told_apart_by_their_flow_port() {
        let mut p = vec![0u8; 40];
        p[0] = 0x45;
        p[9] = 6;
        p[20..22].copy_from_slice(&40000u16.to_be_bytes());
        p[22..24].copy_from_slice(&(PORT_BASE + 1).to_be_bytes());
        assert_eq!(stream_of(&p, true, 2), 1);
        assert_eq!(stream_of(&p, false, 2), 2, "src port 40000 is no flow's");
        p[9] = 17;
        assert_eq!(stream_of(&p, true, 2), 2);
    }
}
