//! The testbed: two namespaces, a TUN device in each, addressed
//! point-to-point, with the scenario's TCP settings as each namespace's
//! sysctls and route metrics. Everything here is owned by `Testbed` and goes
//! when it drops (or when the process dies: see netns.rs).

use std::io;
use std::path::Path;

use crate::netns::Netns;
use crate::plan::StackPlan;
use crate::traffic::{RECEIVER_IP, SENDER_IP};
use crate::tun::Tun;

pub const DEVICE: &str = "satcp0";

pub struct Testbed {
    /// The sender's namespace and device.
    pub a: Netns,
    pub tun_a: Tun,
    /// The receiver's.
    pub b: Netns,
    pub tun_b: Tun,
}

/// One line saying what this machine lacks, or None when it can emulate.
pub fn missing_prerequisite() -> Option<String> {
    if !privileged() {
        return Some("satcp emulate needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN): it creates network namespaces and TUN devices".into());
    }
    if !Path::new("/dev/net/tun").exists() {
        return Some("satcp emulate needs /dev/net/tun, which this machine lacks (load the tun module, or give the container the device)".into());
    }
    let found = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|d| d.join("ip").is_file()))
        .unwrap_or(false);
    if !found {
        return Some("satcp emulate needs iproute2's `ip` command, which is not on PATH (apt-get install iproute2)".into());
    }
    None
}

/// Whether this process holds CAP_SYS_ADMIN (unshare, setns) and
/// CAP_NET_ADMIN (devices, routes, sysctls): root without them cannot emulate.
fn privileged() -> bool {
    const CAP_NET_ADMIN: u32 = 12;
    const CAP_SYS_ADMIN: u32 = 21;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let effective = status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .unwrap_or(0);
    effective & (1 << CAP_NET_ADMIN) != 0 && effective & (1 << CAP_SYS_ADMIN) != 0
}

/// The congestion controls this kernel offers (tcp_available_congestion_control).
pub fn available_congestion_controls() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

pub fn build(stack: &StackPlan, buffer_max: u64) -> io::Result<Testbed> {
    let a = Netns::new()?;
    let b = Netns::new()?;
    let tun_a = a.run(|| Tun::create(DEVICE))?;
    let tun_b = b.run(|| Tun::create(DEVICE))?;
    let bed = Testbed { a, tun_a, b, tun_b };
    for (ns, me, peer) in [(&bed.a, SENDER_IP, RECEIVER_IP), (&bed.b, RECEIVER_IP, SENDER_IP)] {
        configure(ns, me.to_string(), peer.to_string(), stack, buffer_max)?;
    }
    Ok(bed)
}

fn configure(ns: &Netns, me: String, peer: String, stack: &StackPlan, buffer_max: u64) -> io::Result<()> {
    let flag = |on: bool| if on { "1" } else { "0" };
    ns.ip(&["link", "set", "lo", "up"])?;
    ns.ip(&["addr", "add", &me, "peer", &format!("{peer}/32"), "dev", DEVICE])?;
    ns.ip(&["link", "set", DEVICE, "mtu", &stack.mtu.to_string(), "up"])?;
    // Initial window and minimum RTO are route metrics in Linux (ip-route(8)).
    ns.ip(&[
        "route", "replace", &format!("{peer}/32"), "dev", DEVICE, "src", &me,
        "initcwnd", &stack.initial_cwnd.to_string(),
        "rto_min", &format!("{}ms", stack.min_rto_ms),
    ])?;
    ns.sysctl("net/ipv4/tcp_sack", flag(stack.sack))?;
    // Linux's RACK (tcp_recovery bit 1) and TLP (tcp_early_retrans 3) follow
    // the flow's `rack`, so both sides detect losses the same way.
    ns.sysctl("net/ipv4/tcp_recovery", flag(stack.rack))?;
    if ns.has_sysctl("net/ipv4/tcp_early_retrans") {
        ns.sysctl("net/ipv4/tcp_early_retrans", if stack.rack { "3" } else { "0" })?;
    }
    ns.sysctl("net/ipv4/tcp_timestamps", flag(stack.timestamps))?;
    ns.sysctl("net/ipv4/tcp_window_scaling", flag(stack.window_scaling))?;
    // A fresh namespace has no cached metrics, but keep none between flows either.
    ns.sysctl("net/ipv4/tcp_no_metrics_save", "1")?;
    // Sender buffers grow by autotuning up to this; receive buffers are set per socket.
    let max = buffer_max.clamp(4 << 20, 1 << 30);
    ns.sysctl("net/ipv4/tcp_wmem", &format!("4096 16384 {max}"))?;
    ns.sysctl("net/ipv4/tcp_rmem", &format!("4096 131072 {max}"))?;
    if ns.has_sysctl("net/ipv4/tcp_rto_max_ms") {
        ns.sysctl("net/ipv4/tcp_rto_max_ms", &stack.max_rto_ms.to_string())?;
    }
    Ok(())
}
