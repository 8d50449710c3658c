//! The packet that crosses links: a small `Copy` struct, no payload bytes.

use crate::time::Time;

pub type FlowId = u32;
pub type NodeId = u16;

pub const IP_HEADER: u32 = 20;
pub const TCP_HEADER: u32 = 20;
/// RFC 7323 timestamps option, padded to 12 bytes with two NOPs as stacks send it.
pub const TIMESTAMP_OPTION: u32 = 12;
/// RFC 2018 Sack-Permitted, padded to 4 bytes with two NOPs, in SYN and SYN-ACK.
pub const SACK_PERMITTED_OPTION: u32 = 4;
//= rfc2018#section-3
//# a SACK option that specifies n blocks will have a length of 8*n+2
//# bytes, so the 40 bytes available for TCP options can specify a
//# maximum of 4 blocks.
pub const MAX_SACK_BLOCKS: usize = 4;

/// SACK blocks carried by an ACK, most recent first, as [left, right) byte
/// ranges. Stored as offsets from the first block's left edge (a receive
/// window is under 2^30 bytes, RFC 7323 §2.3), which keeps `Packet` small
/// enough to copy cheaply on every hop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    base: u64,
    len: u8,
    /// (left - base, right - left) of each block.
    blocks: [(i32, u32); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub fn push(&mut self, left: u64, right: u64) {
        let n = self.len as usize;
        if n == MAX_SACK_BLOCKS {
            return;
        }
        if n == 0 {
            self.base = left;
        }
        let offset = left as i64 - self.base as i64;
        debug_assert!(offset.unsigned_abs() < 1 << 31 && right - left < 1 << 32, "SACK block beyond a window");
        self.blocks[n] = (offset as i32, (right - left) as u32);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The blocks as [left, right) byte ranges, most recent first.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.blocks[..self.len as usize].iter().map(|&(offset, length)| {
            let left = (self.base as i64 + offset as i64) as u64;
            (left, left + length as u64)
        })
    }

    pub fn contains(&self, block: (u64, u64)) -> bool {
        self.iter().any(|b| b == block)
    }

    /// Option bytes on the wire: kind, length and 8 bytes a block, padded to
    /// a multiple of 4 with two NOPs as stacks send it.
    pub fn option_bytes(&self) -> u32 {
        if self.len == 0 {
            0
        } else {
            2 + 2 + 8 * self.len as u32
        }
    }
}

/// CETEN-R's option (Carroll 2004): the EWMA gain the routers use, the
/// product of per-link survival estimates and of congestion-survival
/// estimates, as fixed-point fractions (1.0 = 2^30), as a wire format would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CetenOption {
    alpha: u32,
    survival: u32,
    congestion: u32,
    code_mode: bool,
}

const CETEN_ONE: f64 = (1u32 << 30) as f64;

impl CetenOption {
    pub fn new(alpha: f64, survival: f64, congestion: f64, code_mode: bool) -> CetenOption {
        let fixed = |x: f64| (x.clamp(0.0, 1.0) * CETEN_ONE).round() as u32;
        CetenOption { alpha: fixed(alpha), survival: fixed(survival), congestion: fixed(congestion), code_mode }
    }
    pub fn alpha(&self) -> f64 {
        self.alpha as f64 / CETEN_ONE
    }
    pub fn survival(&self) -> f64 {
        self.survival as f64 / CETEN_ONE
    }
    pub fn congestion(&self) -> f64 {
        self.congestion as f64 / CETEN_ONE
    }
    /// Carroll's as-coded behaviour, which routers follow on queue drops.
    pub fn code_mode(&self) -> bool {
        self.code_mode
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Syn,
    SynAck,
    Data,
    Ack,
    /// A background-traffic datagram (UDP-like): no ACK, no retransmission.
    Datagram,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub flow: FlowId,
    pub kind: Kind,
    pub dst: NodeId,
    /// First payload byte (0-based offset in the flow's byte stream).
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Cumulative acknowledgement: next byte expected by the receiver.
    pub ack: u64,
    /// Advertised window in bytes, already scaled.
    pub wnd: u64,
    /// IP datagram size: headers, options and payload.
    pub size: u32,
    /// RFC 7323 TSval and TSecr; `None` when timestamps are off.
    pub ts: Option<(Time, Time)>,
    /// RFC 2018 SACK blocks on an ACK; empty otherwise.
    pub sack: SackBlocks,
    /// CETEN-R's option, on CETEN-R flows' segments and ACKs.
    pub ceten: Option<CetenOption>,
}

impl Packet {
    pub fn end(&self) -> u64 {
        self.seq + self.len as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sack_blocks_round_trip_around_the_first() {
        let mut b = SackBlocks::default();
        for (l, r) in [(5_000_000_000, 5_000_001_448), (4_999_000_000, 4_999_500_000), (5_000_100_000, 5_000_200_000)] {
            b.push(l, r);
        }
        assert_eq!(b.iter().collect::<Vec<_>>(), [(5_000_000_000, 5_000_001_448), (4_999_000_000, 4_999_500_000), (5_000_100_000, 5_000_200_000)]);
        assert_eq!(b.option_bytes(), 4 + 24);
    }

    #[test]
    fn packets_stay_small() {
        // Every hop copies a packet; keep it in two cache lines.
        assert!(std::mem::size_of::<Packet>() <= 128, "{} bytes", std::mem::size_of::<Packet>());
    }
}
