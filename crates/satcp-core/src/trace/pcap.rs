//! A pcap of each flow as its sending host sees it: data leaving, ACKs
//! arriving. Frames carry real Ethernet, IPv4 and TCP headers with the
//! options in use (MSS, window scale, SACK-permitted, timestamps, SACK
//! blocks) and 32-bit sequence numbers wrapped from the simulator's 64-bit
//! offsets; payload bytes are not captured (the frame's original length
//! still counts them), as `tcpdump -s` would record it.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use std::time::Duration;

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};

use crate::packet::{Kind, Packet};
use crate::scenario::Scenario;
use crate::tcp::receiver::advertised_window;
use crate::tcp::variant;
use crate::time::Time;

const ETHERNET_HEADER: usize = 14;
const SENDER_MAC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x01];
const RECEIVER_MAC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x02];
const RECEIVER_PORT: u16 = 5001;

/// What a flow's headers need beyond the packet itself.
struct FlowWire {
    sender_isn: u32,
    receiver_isn: u32,
    sender_ip: [u8; 4],
    receiver_ip: [u8; 4],
    sender_port: u16,
    mss: u16,
    window_scaling: bool,
    /// The receiver's window shift (RFC 7323), from its buffer.
    receiver_shift: u8,
    receiver_syn_window: u16,
    sack: bool,
}

pub struct PcapTrace {
    writer: PcapWriter<BufWriter<File>>,
    flows: Vec<FlowWire>,
    ip_id: u16,
    frame: Vec<u8>,
}

fn io_error(e: pcap_file::PcapError) -> io::Error {
    io::Error::other(e.to_string())
}

impl PcapTrace {
    pub fn create(path: &Path, scenario: &Scenario) -> io::Result<PcapTrace> {
        let file = File::create(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let header = PcapHeader { endianness: pcap_file::Endianness::Little, ..PcapHeader::default() };
        let writer = PcapWriter::with_header(BufWriter::with_capacity(1 << 16, file), header).map_err(io_error)?;
        let flows = scenario
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let info = variant::find(&f.variant).expect("variant validated");
                let window = advertised_window(f.rwnd.0, f.window_scaling);
                let shift = (0..=14u8).find(|&s| window >> s <= 65_535).unwrap_or(14);
                let i = i as u32;
                FlowWire {
                    // Fixed, distinct initial sequence numbers: the same scenario gives the same file.
                    sender_isn: 1_000_000u32.wrapping_mul(i + 1),
                    receiver_isn: 3_000_000_000u32.wrapping_add(1_000_000 * i),
                    sender_ip: [10, 0, 0, 1 + (i % 250) as u8],
                    receiver_ip: [10, 0, 1, 1],
                    sender_port: 40_000 + i as u16,
                    mss: f.mss.min(65_535) as u16,
                    window_scaling: f.window_scaling,
                    receiver_shift: if f.window_scaling { shift } else { 0 },
                    receiver_syn_window: f.rwnd.0.min(65_535) as u16,
                    sack: info.sack_enabled(f.sack),
                }
            })
            .collect();
        Ok(PcapTrace { writer, flows, ip_id: 0, frame: Vec::with_capacity(128) })
    }

    pub fn write(&mut self, now: Time, p: &Packet) -> io::Result<()> {
        if p.kind == Kind::Datagram {
            return Ok(()); // background traffic is not a TCP connection of the run
        }
        let flow = &self.flows[p.flow as usize];
        let from_sender = matches!(p.kind, Kind::Syn | Kind::Data);
        let tcp_options = tcp_options(flow, p);
        let tcp_header = 20 + tcp_options.len();
        let ip_total = 20 + tcp_header + p.len as usize;
        debug_assert_eq!(ip_total, p.size as usize, "option bytes on the wire and in the pcap differ: {p:?}");
        self.ip_id = self.ip_id.wrapping_add(1);

        let f = &mut self.frame;
        f.clear();
        let (src_mac, dst_mac) = if from_sender { (SENDER_MAC, RECEIVER_MAC) } else { (RECEIVER_MAC, SENDER_MAC) };
        f.extend_from_slice(&dst_mac);
        f.extend_from_slice(&src_mac);
        f.extend_from_slice(&0x0800u16.to_be_bytes());
        // IPv4 header, don't fragment, TTL 64, protocol TCP.
        let (src_ip, dst_ip) = if from_sender { (flow.sender_ip, flow.receiver_ip) } else { (flow.receiver_ip, flow.sender_ip) };
        let ip_start = f.len();
        f.extend_from_slice(&[0x45, 0]);
        f.extend_from_slice(&(ip_total as u16).to_be_bytes());
        f.extend_from_slice(&self.ip_id.to_be_bytes());
        f.extend_from_slice(&[0x40, 0, 64, 6, 0, 0]);
        f.extend_from_slice(&src_ip);
        f.extend_from_slice(&dst_ip);
        let checksum = ipv4_checksum(&f[ip_start..]);
        f[ip_start + 10..ip_start + 12].copy_from_slice(&checksum.to_be_bytes());
        // TCP header.
        let (src_port, dst_port) = if from_sender { (flow.sender_port, RECEIVER_PORT) } else { (RECEIVER_PORT, flow.sender_port) };
        let (seq, ack, flags, window) = match p.kind {
            Kind::Syn => (flow.sender_isn, 0, 0x02u8, 65_535u16),
            Kind::SynAck => (flow.receiver_isn, wrap(flow.sender_isn, 1), 0x12, flow.receiver_syn_window),
            Kind::Data => (wrap(flow.sender_isn, 1 + p.seq), flow.receiver_isn.wrapping_add(1), 0x18, 65_535),
            Kind::Ack | Kind::Datagram => {
                let field = (p.wnd >> flow.receiver_shift).min(65_535) as u16;
                (flow.receiver_isn.wrapping_add(1), wrap(flow.sender_isn, 1 + p.ack), 0x10, field)
            }
        };
        f.extend_from_slice(&src_port.to_be_bytes());
        f.extend_from_slice(&dst_port.to_be_bytes());
        f.extend_from_slice(&seq.to_be_bytes());
        f.extend_from_slice(&ack.to_be_bytes());
        f.extend_from_slice(&[((tcp_header / 4) as u8) << 4, flags]);
        f.extend_from_slice(&window.to_be_bytes());
        // Checksum left zero: the payload is not captured, so it could not be verified anyway.
        f.extend_from_slice(&[0, 0, 0, 0]);
        f.extend_from_slice(&tcp_options);

        let orig_len = (ETHERNET_HEADER + ip_total) as u32;
        let packet = PcapPacket::new(Duration::from_nanos(now), orig_len, &self.frame);
        self.writer.write_packet(&packet).map_err(io_error)?;
        Ok(())
    }

    pub fn finish(self) -> io::Result<()> {
        use std::io::Write;
        self.writer.into_writer().flush()
    }
}

/// A 64-bit stream offset as a 32-bit sequence number from `isn`.
fn wrap(isn: u32, offset: u64) -> u32 {
    isn.wrapping_add(offset as u32)
}

/// Options as stacks lay them out, padded with NOPs to 4-byte words; the
/// byte counts match what `tcp::sender` and `tcp::receiver` put on the wire.
fn tcp_options(flow: &FlowWire, p: &Packet) -> Vec<u8> {
    const NOP: u8 = 1;
    let mut o = Vec::with_capacity(40);
    if matches!(p.kind, Kind::Syn | Kind::SynAck) {
        o.extend_from_slice(&[2, 4]);
        o.extend_from_slice(&flow.mss.to_be_bytes());
        if flow.window_scaling {
            let shift = if p.kind == Kind::Syn { 0 } else { flow.receiver_shift };
            o.extend_from_slice(&[NOP, 3, 3, shift]);
        }
        if flow.sack {
            o.extend_from_slice(&[NOP, NOP, 4, 2]);
        }
    }
    if let Some((tsval, tsecr)) = p.ts {
        o.extend_from_slice(&[NOP, NOP, 8, 10]);
        o.extend_from_slice(&timestamp_ms(tsval).to_be_bytes());
        // A SYN echoes nothing (RFC 7323 §3.2: TSecr is zero unless ACK is set).
        let echo = if p.kind == Kind::Syn { 0 } else { timestamp_ms(tsecr) };
        o.extend_from_slice(&echo.to_be_bytes());
    }
    if !p.sack.is_empty() {
        o.extend_from_slice(&[NOP, NOP, 5, 2 + 8 * p.sack.len() as u8]);
        for (left, right) in p.sack.iter() {
            o.extend_from_slice(&wrap(flow.sender_isn, 1 + left).to_be_bytes());
            o.extend_from_slice(&wrap(flow.sender_isn, 1 + right).to_be_bytes());
        }
    }
    o
}

/// A 1 ms timestamp clock, starting at 1 so that no TSval is zero.
fn timestamp_ms(t: Time) -> u32 {
    (t / 1_000_000) as u32 + 1
}

fn ipv4_checksum(header: &[u8]) -> u16 {
    let sum: u32 = header.chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
    let folded = (sum & 0xffff) + (sum >> 16);
    !((folded & 0xffff) + (folded >> 16)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_of_a_known_header() {
        // The worked example of RFC 1071's usual illustration (Wikipedia "IPv4 header checksum").
        let header = [0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0, 0, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7];
        assert_eq!(ipv4_checksum(&header), 0xb861);
    }

    #[test]
    fn sequence_numbers_wrap_at_32_bits() {
        assert_eq!(wrap(u32::MAX - 1, 3), 1);
        assert_eq!(wrap(5, 1 << 32), 5);
    }
}
