//! The few socket calls std does not offer: options set before connect or
//! listen, and TCP_INFO (include/uapi/linux/tcp.h).

use std::io;
use std::mem::size_of;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

fn check(r: libc::c_int, what: &str) -> io::Result<()> {
    if r < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{what}: {e}")));
    }
    Ok(())
}

pub fn set_int(fd: RawFd, level: libc::c_int, name: libc::c_int, value: libc::c_int, what: &str) -> io::Result<()> {
    let r = unsafe { libc::setsockopt(fd, level, name, (&value as *const libc::c_int).cast(), size_of::<libc::c_int>() as u32) };
    check(r, what)
}

pub fn set_congestion(fd: RawFd, cc: &str) -> io::Result<()> {
    let r = unsafe { libc::setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, cc.as_ptr().cast(), cc.len() as u32) };
    check(r, &format!("cannot select congestion control {cc}"))
}

pub fn set_timeouts(fd: RawFd, ms: i64) -> io::Result<()> {
    let tv = libc::timeval { tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000 };
    for opt in [libc::SO_RCVTIMEO, libc::SO_SNDTIMEO] {
        let r = unsafe { libc::setsockopt(fd, libc::SOL_SOCKET, opt, (&tv as *const libc::timeval).cast(), size_of::<libc::timeval>() as u32) };
        check(r, "cannot set socket timeouts")?;
    }
    Ok(())
}

fn sockaddr(ip: Ipv4Addr, port: u16) -> libc::sockaddr_in {
    libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr { s_addr: u32::from(ip).to_be() },
        sin_zero: [0; 8],
    }
}

/// A TCP socket of the calling thread's namespace, not yet connected.
pub fn tcp_socket() -> io::Result<OwnedFd> {
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    check(fd, "cannot create a TCP socket")?;
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Listens on ip:port; options already set on `fd` pass to accepted sockets.
pub fn listen(fd: OwnedFd, ip: Ipv4Addr, port: u16) -> io::Result<TcpListener> {
    set_int(fd.as_raw_fd(), libc::SOL_SOCKET, libc::SO_REUSEADDR, 1, "SO_REUSEADDR")?;
    let addr = sockaddr(ip, port);
    let r = unsafe { libc::bind(fd.as_raw_fd(), (&addr as *const libc::sockaddr_in).cast(), size_of::<libc::sockaddr_in>() as u32) };
    check(r, &format!("cannot bind {ip}:{port}"))?;
    check(unsafe { libc::listen(fd.as_raw_fd(), 8) }, "cannot listen")?;
    Ok(TcpListener::from(fd))
}

/// Connects, giving up when `ended()` says the run is over (a lost SYN can
/// take seconds of backoff, longer than a short run).
pub fn connect(fd: OwnedFd, ip: Ipv4Addr, port: u16, ended: impl Fn() -> bool) -> io::Result<Option<TcpStream>> {
    let raw = fd.as_raw_fd();
    let flags = unsafe { libc::fcntl(raw, libc::F_GETFL) };
    check(unsafe { libc::fcntl(raw, libc::F_SETFL, flags | libc::O_NONBLOCK) }, "O_NONBLOCK")?;
    let addr = sockaddr(ip, port);
    let r = unsafe { libc::connect(raw, (&addr as *const libc::sockaddr_in).cast(), size_of::<libc::sockaddr_in>() as u32) };
    if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINPROGRESS) {
        check(r, &format!("cannot connect to {ip}:{port}"))?;
    }
    loop {
        let mut pfd = libc::pollfd { fd: raw, events: libc::POLLOUT, revents: 0 };
        if unsafe { libc::poll(&mut pfd, 1, 50) } > 0 {
            break;
        }
        if ended() {
            return Ok(None);
        }
    }
    let mut err: libc::c_int = 0;
    let mut len = size_of::<libc::c_int>() as libc::socklen_t;
    unsafe { libc::getsockopt(raw, libc::SOL_SOCKET, libc::SO_ERROR, (&mut err as *mut libc::c_int).cast(), &mut len) };
    if err != 0 {
        let e = io::Error::from_raw_os_error(err);
        return Err(io::Error::new(e.kind(), format!("cannot connect to {ip}:{port}: {e}")));
    }
    check(unsafe { libc::fcntl(raw, libc::F_SETFL, flags) }, "blocking mode")?;
    Ok(Some(TcpStream::from(fd)))
}

/// Closes with a reset: the run is over, nothing should linger in FIN_WAIT.
pub fn abort(stream: TcpStream) {
    let linger = libc::linger { l_onoff: 1, l_linger: 0 };
    unsafe {
        libc::setsockopt(stream.as_raw_fd(), libc::SOL_SOCKET, libc::SO_LINGER, (&linger as *const libc::linger).cast(), size_of::<libc::linger>() as u32);
    }
}

/// The TCP_INFO fields a result needs.
#[derive(Clone, Debug, Default)]
pub struct TcpInfo {
    pub rtt_us: u32,
    pub snd_mss: u32,
    pub snd_cwnd: u32,
    pub total_retrans: u32,
    pub data_segs_out: u32,
    pub bytes_acked: u64,
    /// Peer's advertised window after scaling (Linux 4.19+).
    pub snd_wnd: Option<u32>,
    /// Retransmission timeouts (Linux 6.7+: tcpi_total_rto).
    pub total_rto: Option<u16>,
}

pub fn tcp_info(fd: RawFd) -> io::Result<TcpInfo> {
    let mut buf = [0u8; 512];
    let mut len = buf.len() as libc::socklen_t;
    let r = unsafe { libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_INFO, buf.as_mut_ptr().cast(), &mut len) };
    check(r, "TCP_INFO")?;
    let len = len as usize;
    let u32_at = |o: usize| (o + 4 <= len).then(|| u32::from_ne_bytes(buf[o..o + 4].try_into().expect("4 bytes")));
    let u64_at = |o: usize| (o + 8 <= len).then(|| u64::from_ne_bytes(buf[o..o + 8].try_into().expect("8 bytes")));
    // Byte offsets in struct tcp_info (uapi/linux/tcp.h); fields a kernel
    // does not fill are beyond the length it returns.
    Ok(TcpInfo {
        snd_mss: u32_at(16).unwrap_or(0),
        rtt_us: u32_at(68).unwrap_or(0),
        snd_cwnd: u32_at(80).unwrap_or(0),
        total_retrans: u32_at(100).unwrap_or(0),
        bytes_acked: u64_at(120).unwrap_or(0),
        data_segs_out: u32_at(156).unwrap_or(0),
        snd_wnd: u32_at(228),
        total_rto: (242 <= len).then(|| u16::from_ne_bytes([buf[240], buf[241]])),
    })
}
