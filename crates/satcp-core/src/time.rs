//! Simulated time: an integer count of nanoseconds (DESIGN.md, "Modelling conventions").

pub type Time = u64;

pub const NS_PER_MS: Time = 1_000_000;
pub const NS_PER_S: Time = 1_000_000_000;

pub fn seconds(t: Time) -> f64 {
    t as f64 / NS_PER_S as f64
}

/// Time to serialise `bytes` onto a link of `rate_bps`.
pub fn transmission_time(bytes: u64, rate_bps: u64) -> Time {
    ((bytes as u128 * 8 * NS_PER_S as u128) / rate_bps as u128) as Time
}
