//! A TUN device: raw IPv4 packets in and out of a file descriptor
//! (Documentation/networking/tuntap.rst).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

#[repr(C)]
struct IfReq {
    name: [u8; libc::IFNAMSIZ],
    flags: libc::c_short,
    _pad: [u8; 22],
}

pub struct Tun {
    fd: OwnedFd,
}

impl Tun {
    /// Creates device `name` in the calling thread's network namespace.
    /// IFF_NO_PI: packets carry no 4-byte protocol header, just IP.
    pub fn create(name: &str) -> io::Result<Tun> {
        let path = CString::new("/dev/net/tun").expect("no NUL");
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC) };
        if fd < 0 {
            let e = io::Error::last_os_error();
            return Err(io::Error::new(e.kind(), format!("cannot open /dev/net/tun: {e}")));
        }
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let mut req = IfReq { name: [0; libc::IFNAMSIZ], flags: (libc::IFF_TUN | libc::IFF_NO_PI) as libc::c_short, _pad: [0; 22] };
        req.name[..name.len()].copy_from_slice(name.as_bytes());
        if unsafe { libc::ioctl(fd.as_raw_fd(), libc::TUNSETIFF, &mut req) } < 0 {
            let e = io::Error::last_os_error();
            return Err(io::Error::new(e.kind(), format!("cannot create TUN device {name}: {e}")));
        }
        Ok(Tun { fd })
    }

    pub fn raw(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// One packet, or None when none is waiting.
    pub fn read(&self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        let n = unsafe { libc::read(self.raw(), buf.as_mut_ptr().cast(), buf.len()) };
        if n >= 0 {
            return Ok(Some(n as usize));
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
            _ => Err(e),
        }
    }

    /// Hands a packet to the kernel; a full device queue drops it as a wire would.
    pub fn write(&self, packet: &[u8]) -> io::Result<()> {
        let n = unsafe { libc::write(self.raw(), packet.as_ptr().cast(), packet.len()) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if !matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) {
                return Err(e);
            }
        }
        Ok(())
    }
}
