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
}

impl Packet {
    pub fn end(&self) -> u64 {
        self.seq + self.len as u64
    }
}
