//! The packet that crosses links: a small `Copy` struct, no payload bytes.

use crate::time::Time;

pub type FlowId = u32;
pub type NodeId = u16;

pub const IP_HEADER: u32 = 20;
pub const TCP_HEADER: u32 = 20;
/// RFC 7323 timestamps option, padded to 12 bytes with two NOPs as stacks send it.
pub const TIMESTAMP_OPTION: u32 = 12;

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
}

impl Packet {
    pub fn end(&self) -> u64 {
        self.seq + self.len as u64
    }
}
