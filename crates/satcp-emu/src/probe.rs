//! A UDP probe through the emulator: constant-rate datagrams, each stamped
//! with CLOCK_REALTIME just before sendto, received with the kernel's own
//! arrival stamp (SO_TIMESTAMPNS). Both ends share one clock, so every
//! datagram gives its one-way delay, and the difference from the link's
//! model (propagation + serialisation) is the emulator's timing error, the
//! sending and receiving kernels' paths included. Datagrams that never
//! arrive give the loss rate the channel model caused.

use std::io;
use std::net::{SocketAddrV4, UdpSocket};
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde::Serialize;

use crate::traffic::{Shared, RECEIVER_IP};

pub const PROBE_PORT: u16 = 6000;
/// IPv4 + UDP headers.
pub const HEADERS: usize = 28;

#[derive(Clone, Copy, Debug, serde::Deserialize)]
pub struct ProbeSpec {
    pub rate_bps: u64,
    /// IP packet size, bytes.
    pub size: usize,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct ProbeResult {
    pub sent: u64,
    pub received: u64,
    /// One-way delay minus the model's, microseconds: min, p50, p99, max.
    pub added_delay_us: Option<[f64; 4]>,
    pub jitter_p99_us: Option<f64>,
}

fn realtime_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Sockets: the sender's made in the sender's namespace, the receiver's in the receiver's.
pub fn sender_socket() -> io::Result<UdpSocket> {
    UdpSocket::bind("0.0.0.0:0")
}

pub fn receiver_socket() -> io::Result<UdpSocket> {
    let s = UdpSocket::bind(SocketAddrV4::new(RECEIVER_IP, PROBE_PORT))?;
    s.set_read_timeout(Some(Duration::from_millis(50)))?;
    let on: libc::c_int = 1;
    let r = unsafe { libc::setsockopt(s.as_raw_fd(), libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, (&on as *const libc::c_int).cast(), 4) };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(s)
}

/// Sends until `stop_ns`, early enough that every datagram still in flight
/// arrives (or is lost) before the run ends: none is miscounted as lost.
pub fn spawn_sender(spec: ProbeSpec, socket: UdpSocket, shared: Arc<Shared>, stop_ns: u64) -> JoinHandle<io::Result<u64>> {
    thread::spawn(move || {
        crate::forward::tune_probe_thread();
        let payload = spec.size.max(HEADERS + 16) - HEADERS;
        let period_ns = (payload + HEADERS) as u64 * 8 * 1_000_000_000 / spec.rate_bps.max(1);
        let mut buf = vec![0u8; payload];
        let mut sent = 0u64;
        let to = SocketAddrV4::new(RECEIVER_IP, PROBE_PORT);
        while !shared.end.load(std::sync::atomic::Ordering::Relaxed) {
            let due = sent * period_ns;
            if due >= stop_ns {
                break;
            }
            let now = shared.now_ns();
            if now < due {
                thread::sleep(Duration::from_nanos(due - now));
                continue;
            }
            buf[..8].copy_from_slice(&sent.to_ne_bytes());
            buf[8..16].copy_from_slice(&realtime_ns().to_ne_bytes());
            socket.send_to(&buf, to)?;
            sent += 1;
        }
        Ok(sent)
    })
}

/// Receives until the run ends; returns one-way delays in ns.
pub fn spawn_receiver(socket: UdpSocket, shared: Arc<Shared>) -> JoinHandle<io::Result<Vec<u64>>> {
    thread::spawn(move || {
        crate::forward::tune_probe_thread();
        let mut delays = Vec::new();
        let mut buf = vec![0u8; 65_536];
        let mut control = [0u8; 128];
        while !shared.end.load(std::sync::atomic::Ordering::Relaxed) {
            let mut iov = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: buf.len() };
            let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = control.len();
            let n = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut msg, 0) };
            if n < 0 {
                let e = io::Error::last_os_error();
                if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted) {
                    continue;
                }
                return Err(e);
            }
            if n < 16 {
                continue;
            }
            let sent_ns = u64::from_ne_bytes(buf[8..16].try_into().expect("8 bytes"));
            let arrived = kernel_stamp(&msg).unwrap_or_else(realtime_ns);
            delays.push(arrived.saturating_sub(sent_ns));
        }
        Ok(delays)
    })
}

/// The SCM_TIMESTAMPNS control message: when the packet reached the socket layer.
fn kernel_stamp(msg: &libc::msghdr) -> Option<u64> {
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_TIMESTAMPNS {
                let ts: libc::timespec = std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast());
                return Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64);
            }
            cmsg = libc::CMSG_NXTHDR(msg, cmsg);
        }
    }
    None
}

/// Summarises delays against the model's `expected_ns`.
pub fn summarise(sent: u64, delays: &[u64], expected_ns: Option<u64>) -> ProbeResult {
    let mut out = ProbeResult { sent, received: delays.len() as u64, ..Default::default() };
    if let (Some(expected), false) = (expected_ns, delays.is_empty()) {
        let mut added: Vec<f64> = delays.iter().map(|&d| (d as f64 - expected as f64) / 1e3).collect();
        added.sort_by(|a, b| a.total_cmp(b));
        let at = |q: f64| added[((added.len() - 1) as f64 * q).round() as usize];
        out.added_delay_us = Some([added[0], at(0.5), at(0.99), added[added.len() - 1]]);
        out.jitter_p99_us = Some(at(0.99) - added[0]);
    }
    out
}

pub fn expected_delay_ns(spec: &ProbeSpec, prop_ns: Option<u64>, header: u64, rate_bps: u64) -> Option<u64> {
    let bytes = spec.size.max(HEADERS + 16) as u64 + header;
    prop_ns.map(|p| p + bytes * 8 * 1_000_000_000 / rate_bps)
}
