//! Network namespaces held only by file descriptors of this process.
//!
//! They are never mounted under /run/netns, so nothing outlives the
//! process: when it exits, however it exits (Ctrl-C, a panic, SIGKILL), the
//! kernel drops the last reference and removes the namespace together with
//! its TUN device and sockets. A second run cannot find leftovers because
//! there is no name to leave behind.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::process::Command;

pub struct Netns {
    fd: OwnedFd,
}

fn os_error(what: &str) -> io::Error {
    let e = io::Error::last_os_error();
    io::Error::new(e.kind(), format!("{what}: {e}"))
}

impl Netns {
    /// A fresh, empty network namespace (only `lo`, down).
    pub fn new() -> io::Result<Netns> {
        // unshare on a throw-away thread: the caller's thread stays where it is.
        std::thread::spawn(|| -> io::Result<Netns> {
            if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
                return Err(os_error("cannot create a network namespace (unshare)"));
            }
            let file = File::open("/proc/thread-self/ns/net")?;
            Ok(Netns { fd: OwnedFd::from(file) })
        })
        .join()
        .map_err(|_| io::Error::other("namespace thread panicked"))?
    }

    /// Moves the calling thread into this namespace for good: sockets and
    /// devices it creates from now on live here.
    pub fn enter(&self) -> io::Result<()> {
        if unsafe { libc::setns(self.fd.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
            return Err(os_error("cannot enter the network namespace (setns)"));
        }
        Ok(())
    }

    /// Runs `f` on a thread inside this namespace.
    pub fn run<R: Send, F: FnOnce() -> io::Result<R> + Send>(&self, f: F) -> io::Result<R> {
        std::thread::scope(|s| {
            s.spawn(|| {
                self.enter()?;
                f()
            })
            .join()
            .map_err(|_| io::Error::other("namespace thread panicked"))?
        })
    }

    /// Writes a sysctl of this namespace (`net/ipv4/tcp_sack`): /proc/sys/net
    /// answers for the namespace of the thread that opens it.
    pub fn sysctl(&self, name: &str, value: &str) -> io::Result<()> {
        let path = format!("/proc/sys/{name}");
        self.run(|| {
            std::fs::write(&path, value).map_err(|e| io::Error::new(e.kind(), format!("cannot set {path} = {value}: {e}")))
        })
    }

    /// Whether this namespace has the sysctl (newer kernels add some).
    pub fn has_sysctl(&self, name: &str) -> bool {
        let path = format!("/proc/sys/{name}");
        self.run(|| Ok(std::path::Path::new(&path).exists())).unwrap_or(false)
    }

    /// Runs iproute2's `ip ARGS` inside this namespace.
    pub fn ip(&self, args: &[&str]) -> io::Result<()> {
        let fd = self.fd.as_raw_fd();
        let mut command = Command::new("ip");
        command.args(args);
        // Between fork and exec, in the child only: join the namespace.
        unsafe {
            command.pre_exec(move || {
                if libc::setns(fd, libc::CLONE_NEWNET) != 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = command.output().map_err(|e| io::Error::new(e.kind(), format!("cannot run `ip`: {e}")))?;
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            return Err(io::Error::other(format!("`ip {}` failed: {}", args.join(" "), why.trim())));
        }
        Ok(())
    }

    /// The namespace's inode number, as `lsns` and /proc/PID/ns/net show it.
    pub fn inode(&self) -> u64 {
        let file = unsafe { File::from_raw_fd(libc::dup(self.fd.as_raw_fd())) };
        file.metadata().map(|m| m.ino()).unwrap_or(0)
    }
}
