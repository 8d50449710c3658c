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

/// SACK blocks carried by an ACK, most recent first, as [left, right) byte ranges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    len: u8,
    blocks: [(u64, u64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub fn push(&mut self, left: u64, right: u64) {
        if (self.len as usize) < MAX_SACK_BLOCKS {
            self.blocks[self.len as usize] = (left, right);
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.blocks[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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
