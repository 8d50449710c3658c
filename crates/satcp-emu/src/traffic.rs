//! The traffic of each flow: a bulk sender in the sender's namespace and a
//! sink in the receiver's, both on the kernel's own TCP. Sockets are made
//! inside their namespaces (a socket keeps the namespace it was born in),
//! then driven from ordinary threads.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Ipv4Addr, TcpListener};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::plan::{FlowPlan, StackPlan};
use crate::sock::{self, TcpInfo};

pub const SENDER_IP: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 1);
pub const RECEIVER_IP: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 2);
/// How often blocked reads and writes look at the clock and the end flag.
const POLL_MS: i64 = 50;

/// TCP_MAXSEG is the MSS of the SYN; Linux takes timestamp options out of it.
fn maxseg(flow: &FlowPlan, stack: &StackPlan) -> i32 {
    (flow.mss + if stack.timestamps { 12 } else { 0 }) as i32
}

/// The listening socket of a flow; call inside the receiver's namespace.
/// The receive buffer and window clamp must be set before listen so the
/// SYN-ACK's window scale fits them; accepted sockets inherit both.
pub fn sink_socket(flow: &FlowPlan, stack: &StackPlan, port: u16) -> io::Result<TcpListener> {
    let fd = sock::tcp_socket()?;
    let raw = fd.as_raw_fd();
    let rwnd = window(flow, stack);
    // Linux advertises a share of the buffer (tcp_win_from_space): give it
    // room and let TCP_WINDOW_CLAMP hold the window at rwnd exactly.
    let buffer = (4 * rwnd).min(1 << 30) as i32;
    sock::set_int(raw, libc::SOL_SOCKET, libc::SO_RCVBUFFORCE, buffer, "SO_RCVBUFFORCE")?;
    sock::set_int(raw, libc::IPPROTO_TCP, libc::TCP_WINDOW_CLAMP, rwnd as i32, "TCP_WINDOW_CLAMP")?;
    sock::set_int(raw, libc::IPPROTO_TCP, libc::TCP_MAXSEG, maxseg(flow, stack), "TCP_MAXSEG")?;
    sock::set_timeouts(raw, POLL_MS)?;
    sock::listen(fd, RECEIVER_IP, port)
}

/// The sender's socket, unconnected; call inside the sender's namespace.
pub fn sender_socket(flow: &FlowPlan, stack: &StackPlan) -> io::Result<OwnedFd> {
    let fd = sock::tcp_socket()?;
    sock::set_congestion(fd.as_raw_fd(), &flow.cc)?;
    sock::set_int(fd.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_MAXSEG, maxseg(flow, stack), "TCP_MAXSEG")?;
    Ok(fd)
}

/// What the receiving application saw.
#[derive(Clone, Debug, Default)]
pub struct SinkOutcome {
    pub bytes: u64,
    /// Bytes read at or after the measurement window's start.
    pub window_bytes: u64,
    /// From the flow's start to its last byte, for a sized transfer that finished.
    pub completion_ns: Option<u64>,
}

pub struct Shared {
    pub t0: Instant,
    /// Set when the run ends: senders report and close, sinks stop counting.
    pub end: AtomicBool,
    pub measure_from_ns: u64,
}

impl Shared {
    pub fn now_ns(&self) -> u64 {
        self.t0.elapsed().as_nanos() as u64
    }
    fn ended(&self) -> bool {
        self.end.load(Ordering::Relaxed)
    }
}

fn would_block(e: &io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted)
}

/// Linux 6.x recomputes the window clamp from the buffer when it re-measures
/// the ratio of payload to memory per packet (tcp_measure_rcv_mss), which
/// undoes TCP_WINDOW_CLAMP; put it back whenever that happened.
fn hold_clamp(fd: RawFd, clamp: u64) {
    let mut now: libc::c_int = 0;
    let mut len = 4 as libc::socklen_t;
    let r = unsafe { libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_WINDOW_CLAMP, (&mut now as *mut libc::c_int).cast(), &mut len) };
    if r == 0 && now as u64 != clamp {
        let _ = sock::set_int(fd, libc::IPPROTO_TCP, libc::TCP_WINDOW_CLAMP, clamp as i32, "TCP_WINDOW_CLAMP");
    }
}

fn window(flow: &FlowPlan, stack: &StackPlan) -> u64 {
    if stack.window_scaling { flow.rwnd } else { flow.rwnd.min(65_535) }
}

pub fn spawn_sink(flow: FlowPlan, stack: &StackPlan, listener: TcpListener, shared: Arc<Shared>, done: Arc<AtomicBool>) -> JoinHandle<io::Result<SinkOutcome>> {
    let clamp = window(&flow, stack);
    thread::spawn(move || {
        let mut out = SinkOutcome::default();
        let mut stream = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if would_block(&e) && !shared.ended() => continue,
                Err(e) if would_block(&e) => return Ok(out),
                Err(e) => return Err(e),
            }
        };
        sock::set_timeouts(stream.as_raw_fd(), POLL_MS)?;
        let mut buf = vec![0u8; 1 << 16];
        while !shared.ended() {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    hold_clamp(stream.as_raw_fd(), clamp);
                    let t = shared.now_ns();
                    if shared.ended() {
                        break;
                    }
                    out.bytes += n as u64;
                    if t >= shared.measure_from_ns {
                        out.window_bytes += n as u64;
                    }
                    if flow.bytes > 0 && out.bytes >= flow.bytes {
                        out.completion_ns = Some(t.saturating_sub(flow.start_ns));
                        done.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                Err(e) if would_block(&e) => {}
                Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    })
}

pub fn spawn_sender(flow: FlowPlan, fd: OwnedFd, port: u16, shared: Arc<Shared>) -> JoinHandle<io::Result<Option<TcpInfo>>> {
    thread::spawn(move || {
        while shared.now_ns() < flow.start_ns {
            if shared.ended() {
                return Ok(None);
            }
            thread::sleep(Duration::from_nanos((flow.start_ns - shared.now_ns()).min(10_000_000)));
        }
        let Some(mut stream) = sock::connect(fd, RECEIVER_IP, port, || shared.ended())? else {
            return Ok(None);
        };
        sock::set_timeouts(stream.as_raw_fd(), POLL_MS)?;
        let chunk = vec![0x5au8; 1 << 16];
        let mut left = if flow.bytes > 0 { flow.bytes } else { u64::MAX };
        while left > 0 && !shared.ended() {
            let n = chunk.len().min(left.min(usize::MAX as u64) as usize);
            match stream.write(&chunk[..n]) {
                Ok(w) => left -= w as u64,
                Err(e) if would_block(&e) => {}
                Err(e) => return Err(e),
            }
        }
        // Counters are read when the run ends, with the connection still open.
        while !shared.ended() {
            thread::sleep(Duration::from_millis(5));
        }
        let info = sock::tcp_info(stream.as_raw_fd())?;
        let _ = stream.flush();
        sock::abort(stream);
        Ok(Some(info))
    })
}
