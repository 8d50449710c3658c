//! Simulated time: an integer count of nanoseconds (DESIGN.md, "Modelling conventions").

pub type Time = u64;

pub const NS_PER_MS: Time = 1_000_000;
pub const NS_PER_S: Time = 1_000_000_000;

pub fn seconds(t: Time) -> f64 {
    t as f64 / NS_PER_S as f64
}

/// Time to serialise `bytes` onto a link of `rate_bps`, given the fraction of
/// a nanosecond `carry` left by earlier packets (in units of 1/rate_bps ns).
/// Returns the whole nanoseconds and the new carry.
pub fn transmission_time(bytes: u64, rate_bps: u64, carry: u64) -> (Time, u64) {
    let scaled = bytes as u128 * 8 * NS_PER_S as u128 + carry as u128;
    ((scaled / rate_bps as u128) as Time, (scaled % rate_bps as u128) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carried_fractions_keep_the_rate_exact() {
        // 1500 B at 10 Tb/s is 1.2 ns: five packets take exactly 6 ns.
        let (mut total, mut carry) = (0, 0);
        for _ in 0..5 {
            let (t, c) = transmission_time(1500, 10_000_000_000_000, carry);
            total += t;
            carry = c;
        }
        assert_eq!(total, 6);
        assert_eq!(transmission_time(1500, 10_000_000, 0), (1_200_000, 0));
    }
}
