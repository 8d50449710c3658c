//! The TCP receiver: cumulative ACKs, delayed ACKs (count and timer),
//! immediate ACKs for out-of-order data, the out-of-order buffer and the
//! advertised window. The application reads in-order data at once.

use super::timer::Timer;
use crate::packet::{CetenOption, FlowId, Kind, NodeId, Packet, SackBlocks, IP_HEADER, MAX_SACK_BLOCKS, SACK_PERMITTED_OPTION, TCP_HEADER, TIMESTAMP_OPTION};
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct ReceiverConfig {
    pub flow: FlowId,
    /// The sender's node.
    pub dst: NodeId,
    /// Receive buffer in bytes.
    pub buffer: u64,
    pub window_scaling: bool,
    pub timestamps: bool,
    /// RFC 2018 SACK blocks on ACKs.
    pub sack: bool,
    /// Segments per ACK.
    pub delayed_ack: u32,
    pub delayed_ack_timeout: Time,
    /// BSD's fast timer: a delayed ACK leaves on the next multiple of this
    /// tick (200 ms in 4.4BSD) instead of `delayed_ack_timeout` after the
    /// segment; 0 = exact timer.
    pub delayed_ack_tick: Time,
    /// Bytes the transfer carries; 0 = unlimited.
    pub expected_bytes: u64,
    /// CETEN-R's option bytes, when the flow runs it: ACKs echo the estimates.
    pub ceten_option_bytes: Option<u32>,
}

/// The largest window the 16-bit field can say, with or without scaling.
pub fn advertised_window(buffer: u64, window_scaling: bool) -> u64 {
    if !window_scaling {
        //= rfc7323#section-2.2
        //# the largest window that can be advertised without scaling is 2^16 - 1
        return buffer.min(65_535);
    }
    //= rfc7323#section-2.3
    //# the maximum allowed shift count is 14
    let shift = (0..=14u32).find(|s| buffer >> s <= 65_535).unwrap_or(14);
    (buffer >> shift).min(65_535) << shift
}

#[derive(Clone, Debug)]
pub struct Receiver {
    cfg: ReceiverConfig,
    window: u64,
    /// Next byte expected in order; everything below was delivered.
    pub rcv_nxt: u64,
    /// Out-of-order data above `rcv_nxt`, as sorted, disjoint [start, end) ranges.
    pub out_of_order: Vec<(u64, u64)>,
    /// A byte inside each block reported so far, most recent first, to
    /// repeat older blocks after the newest (RFC 2018 §4).
    sack_history: Vec<u64>,
    /// In-order segments received since the last ACK.
    unacked_segments: u32,
    //= rfc7323#section-4.3
    //# TS.Recent holds a timestamp to be echoed in TSecr whenever a segment is sent
    ts_recent: Time,
    last_ack_sent: u64,
    pub delayed_ack_timer: Timer,
    pub acks_sent: u64,
    pub completed_at: Option<Time>,
    /// CETEN-R: the estimates the latest data segment carried, echoed on ACKs.
    ceten_echo: Option<CetenOption>,
    /// The window advertised with no data held: the buffer as the field can say it.
    full_window: u64,
    /// The window on the last ACK sent, to decide when an update is worth sending.
    last_window_sent: u64,
}

impl Receiver {
    pub fn new(cfg: ReceiverConfig) -> Receiver {
        Receiver {
            window: advertised_window(cfg.buffer, cfg.window_scaling),
            rcv_nxt: 0,
            out_of_order: Vec::new(),
            sack_history: Vec::new(),
            unacked_segments: 0,
            ts_recent: 0,
            last_ack_sent: 0,
            delayed_ack_timer: Timer::default(),
            acks_sent: 0,
            completed_at: None,
            ceten_echo: None,
            full_window: advertised_window(cfg.buffer, cfg.window_scaling),
            last_window_sent: 0,
            cfg,
        }
    }

    pub fn config(&self) -> &ReceiverConfig {
        &self.cfg
    }

    pub fn window(&self) -> u64 {
        self.window
    }

    /// A relay (PEP) still holds `held` delivered bytes that the next
    /// connection has not had acknowledged: the window is the free buffer.
    /// Sends a window update when the window has opened by a quarter of the
    /// buffer since the last ACK, or from below two segments, so a sender
    /// stalled on a closed window resumes (RFC 1122 §4.2.3.3).
    pub fn set_held(&mut self, held: u64, now: Time, out: &mut Vec<Packet>) {
        self.window = self.full_window.saturating_sub(held);
        let opened = self.window.saturating_sub(self.last_window_sent);
        if opened > 0 && (opened >= self.full_window / 4 || self.last_window_sent < 2 * 1500) {
            self.send_ack(now, out);
        }
    }

    /// Bytes delivered in order to the application.
    pub fn bytes_delivered(&self) -> u64 {
        self.rcv_nxt
    }

    pub fn on_segment(&mut self, now: Time, seg: &Packet, out: &mut Vec<Packet>) {
        match seg.kind {
            Kind::Syn => return self.send_syn_ack(now, seg, out),
            Kind::Data => {}
            _ => return,
        }
        if seg.ceten.is_some() {
            //= Carroll 2004 (000.md §1.8 A)
            //# Receiver: copy (fwd_surv, fwd_cong_surv) of arriving data into
            //# (bwd_surv, bwd_cong_surv) of the ACKs it sends.
            self.ceten_echo = seg.ceten;
        }
        if let Some((tsval, _)) = seg.ts {
            //= rfc7323#section-4.3
            //# If SEG.TSval >= TS.Recent and SEG.SEQ <= Last.ACK.sent, then SEG.TSval
            //# is copied to TS.Recent
            if tsval >= self.ts_recent && seg.seq <= self.last_ack_sent {
                self.ts_recent = tsval;
            }
        }
        if seg.end() <= self.rcv_nxt {
            // An old duplicate: tell the sender where we are.
            return self.send_ack(now, out);
        }
        if seg.seq > self.rcv_nxt {
            self.buffer_out_of_order(seg.seq, seg.end());
            self.remember_sack_block(seg.seq);
            //= rfc5681#section-4.2
            //# A TCP receiver SHOULD send an immediate duplicate ACK when an out-
            //# of-order segment arrives.
            return self.send_ack(now, out);
        }
        let filled_gap = !self.out_of_order.is_empty();
        self.rcv_nxt = seg.end();
        self.pull_in_order();
        if self.cfg.expected_bytes > 0 && self.rcv_nxt >= self.cfg.expected_bytes && self.completed_at.is_none() {
            self.completed_at = Some(now);
        }
        self.unacked_segments += 1;
        //= rfc5681#section-4.2
        //# A TCP receiver SHOULD send an immediate ACK when the incoming segment
        //# fills in all or part of a gap in the sequence space.
        if filled_gap || self.unacked_segments >= self.cfg.delayed_ack {
            self.send_ack(now, out);
        } else if !self.delayed_ack_timer.is_armed() {
            //# ... an ACK SHOULD be generated for at least every second full-sized
            //# segment, and MUST be generated within 500 ms of the arrival of the
            //# first unacknowledged packet.
            self.delayed_ack_timer.arm(self.delayed_ack_deadline(now));
        }
    }

    fn buffer_out_of_order(&mut self, start: u64, end: u64) {
        let ranges = &mut self.out_of_order;
        let at = ranges.partition_point(|&(s, _)| s < start);
        ranges.insert(at, (start, end));
        // Merge with neighbours that touch or overlap.
        let mut i = at.saturating_sub(1);
        while i + 1 < ranges.len() {
            if ranges[i].1 >= ranges[i + 1].0 {
                ranges[i].1 = ranges[i].1.max(ranges[i + 1].1);
                ranges.remove(i + 1);
            } else if i > at {
                break;
            } else {
                i += 1;
            }
        }
    }

    fn delayed_ack_deadline(&self, now: Time) -> Time {
        match self.cfg.delayed_ack_tick {
            0 => now + self.cfg.delayed_ack_timeout,
            // tcp_fasttimo runs on every tick and sends every pending delayed ACK.
            tick => (now / tick + 1) * tick,
        }
    }

    fn remember_sack_block(&mut self, seq: u64) {
        if !self.cfg.sack {
            return;
        }
        let at = self.out_of_order.partition_point(|&(start, _)| start <= seq);
        let (start, end) = self.out_of_order[at - 1];
        // One entry per block: the newest arrival stands for its whole block.
        let rcv_nxt = self.rcv_nxt;
        self.sack_history.retain(|&s| s >= rcv_nxt && !(start..end).contains(&s));
        self.sack_history.insert(0, seq);
        self.sack_history.truncate(2 * MAX_SACK_BLOCKS);
    }

    /// The SACK blocks for the next ACK: the block holding the latest
    /// out-of-order segment first, then earlier reported blocks.
    pub fn sack_blocks(&self) -> SackBlocks {
        let mut blocks = SackBlocks::default();
        if !self.cfg.sack || self.out_of_order.is_empty() {
            return blocks;
        }
        //= rfc2018#section-3
        //# If SACK is used with the Timestamp option, the maximum is 3 blocks
        let limit = if self.cfg.timestamps { MAX_SACK_BLOCKS - 1 } else { MAX_SACK_BLOCKS };
        //= rfc2018#section-4
        //# * The first SACK block ... MUST specify the contiguous block of data
        //#   containing the segment which triggered this ACK
        //# * The SACK option SHOULD be filled out by repeating the most
        //#   recently reported SACK blocks ... that are not subsets of a SACK
        //#   block already included in the SACK option being constructed.
        for &seq in &self.sack_history {
            if blocks.len() == limit {
                break;
            }
            let at = self.out_of_order.partition_point(|&(start, _)| start <= seq);
            let Some(&(start, end)) = at.checked_sub(1).map(|i| &self.out_of_order[i]) else { continue };
            if seq < end && !blocks.contains((start, end)) {
                blocks.push(start, end);
            }
        }
        blocks
    }

    fn pull_in_order(&mut self) {
        while let Some(&(start, end)) = self.out_of_order.first() {
            if start > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(end);
            self.out_of_order.remove(0);
        }
    }

    pub fn on_delayed_ack_timer(&mut self, now: Time, generation: u32, out: &mut Vec<Packet>) {
        if self.delayed_ack_timer.fire(now, generation) && self.unacked_segments > 0 {
            self.send_ack(now, out);
        }
    }

    fn header_bytes(&self) -> u32 {
        IP_HEADER + TCP_HEADER + if self.cfg.timestamps { TIMESTAMP_OPTION } else { 0 } + self.cfg.ceten_option_bytes.unwrap_or(0)
    }

    fn ack_packet(&self, kind: Kind, size: u32, now: Time) -> Packet {
        let sack = if kind == Kind::Ack { self.sack_blocks() } else { SackBlocks::default() };
        Packet {
            flow: self.cfg.flow,
            kind,
            dst: self.cfg.dst,
            seq: 0,
            len: 0,
            ack: self.rcv_nxt,
            wnd: self.window,
            ts: self.cfg.timestamps.then_some((now, self.ts_recent)),
            size: size + sack.option_bytes(),
            sack,
            ceten: if kind == Kind::Ack { self.ceten_echo } else { None },
        }
    }

    fn send_ack(&mut self, now: Time, out: &mut Vec<Packet>) {
        out.push(self.ack_packet(Kind::Ack, self.header_bytes(), now));
        self.acks_sent += 1;
        self.last_window_sent = self.window;
        self.unacked_segments = 0;
        self.last_ack_sent = self.rcv_nxt;
        self.delayed_ack_timer.disarm();
    }

    fn send_syn_ack(&mut self, now: Time, syn: &Packet, out: &mut Vec<Packet>) {
        if let Some((tsval, _)) = syn.ts {
            self.ts_recent = tsval;
        }
        let options = 4
            + if self.cfg.window_scaling { 4 } else { 0 }
            + if self.cfg.timestamps { TIMESTAMP_OPTION } else { 0 }
            + if self.cfg.sack { SACK_PERMITTED_OPTION } else { 0 };
        out.push(self.ack_packet(Kind::SynAck, IP_HEADER + TCP_HEADER + options, now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_scaling_rounds_to_the_shift() {
        assert_eq!(advertised_window(16_000_000, false), 65_535);
        assert_eq!(advertised_window(16_000_000, true), 16_000_000, "62,500 << 8");
        // 16,777,217 needs shift 9 and loses its odd byte.
        assert_eq!(advertised_window(16_777_217, true), 16_777_216);
        assert_eq!(advertised_window(86_016, true), 86_016);
        assert_eq!(advertised_window(40_000, true), 40_000);
    }
}
