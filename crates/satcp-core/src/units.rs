//! Quantities with units, as scenario files write them: "10Mbps", "250ms", "64KB", "780km".
//!
//! Plain numbers are bit/s, seconds, bytes and metres (DESIGN.md, "Scenario TOML").
//! Decimal prefixes are SI (k = 1000); binary ones are explicit (KiB = 1024).

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;

use crate::time::{Time, NS_PER_S};

/// A link rate in bit/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate(pub u64);

/// A span of simulated time in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Duration(pub Time);

/// A size in bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bytes(pub u64);

/// A distance in metres (orbit altitudes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Length(pub f64);

const RATE_UNITS: &[(&str, f64)] = &[
    ("bps", 1.0),
    ("kbps", 1e3),
    ("Kbps", 1e3),
    ("Mbps", 1e6),
    ("Gbps", 1e9),
];
const TIME_UNITS: &[(&str, f64)] = &[
    ("ns", 1e-9),
    ("us", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
    ("min", 60.0),
    ("h", 3600.0),
];
const BYTE_UNITS: &[(&str, f64)] = &[
    ("B", 1.0),
    ("KB", 1e3),
    ("kB", 1e3),
    ("MB", 1e6),
    ("GB", 1e9),
    ("KiB", 1024.0),
    ("MiB", 1048576.0),
    ("GiB", 1073741824.0),
];

/// Splits "12.5Mbps" into (12.5, "Mbps") and scales it by the unit's factor.
fn parse_with_units(text: &str, units: &[(&str, f64)]) -> Option<f64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    let unit = unit.trim();
    if unit.is_empty() {
        return Some(value);
    }
    units.iter().find(|(name, _)| *name == unit).map(|(_, factor)| value * factor)
}

const LENGTH_UNITS: &[(&str, f64)] = &[("m", 1.0), ("km", 1e3)];

fn accepted(units: &[(&str, f64)]) -> String {
    units.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
}

/// Parses and range-checks a quantity; `what` names the kind for error messages.
fn quantity(text: &str, units: &[(&str, f64)], what: &str, plain: &str) -> Result<f64, String> {
    match parse_with_units(text, units) {
        Some(v) if v.is_finite() => Ok(v),
        _ => Err(format!(
            "\"{text}\" is not a {what}; accepted: a number of {plain} or a number with one of the units {}",
            accepted(units)
        )),
    }
}

pub fn parse_rate(text: &str) -> Result<Rate, String> {
    let v = quantity(text, RATE_UNITS, "rate", "bit/s")?;
    rate_from_f64(v)
}

pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let v = quantity(text, TIME_UNITS, "duration", "seconds")?;
    duration_from_seconds(v)
}

pub fn parse_bytes(text: &str) -> Result<Bytes, String> {
    let v = quantity(text, BYTE_UNITS, "size", "bytes")?;
    bytes_from_f64(v)
}

pub fn parse_length(text: &str) -> Result<Length, String> {
    let v = quantity(text, LENGTH_UNITS, "length", "metres")?;
    length_from_f64(v)
}

fn length_from_f64(v: f64) -> Result<Length, String> {
    // Up to 100 times the geostationary radius: beyond that no Earth satellite.
    if (0.0..=4.3e9).contains(&v) {
        Ok(Length(v))
    } else {
        Err(format!("length {v} m is out of range; accepted: 0 up to 4,300,000 km"))
    }
}

fn rate_from_f64(v: f64) -> Result<Rate, String> {
    // Below 1 bit/s a rate would round to zero and no packet could ever be sent.
    if (1.0..1e15).contains(&v) {
        Ok(Rate(v.round() as u64))
    } else {
        Err(format!("rate {v} bit/s is out of range; accepted: 1 bit/s up to 1 Pbit/s"))
    }
}

fn duration_from_seconds(v: f64) -> Result<Duration, String> {
    if (0.0..1e9).contains(&v) {
        Ok(Duration((v * NS_PER_S as f64).round() as Time))
    } else {
        Err(format!("duration {v} s is out of range; accepted: zero or a positive time"))
    }
}

fn bytes_from_f64(v: f64) -> Result<Bytes, String> {
    if (0.0..1e18).contains(&v) && v.fract() == 0.0 {
        Ok(Bytes(v as u64))
    } else {
        Err(format!("size {v} bytes is out of range; accepted: a whole, non-negative number of bytes"))
    }
}

/// One serde visitor for all three quantities: strings go through the unit
/// parser, numbers are taken in the base unit.
struct QuantityVisitor<T> {
    expecting: &'static str,
    from_str: fn(&str) -> Result<T, String>,
    from_number: fn(f64) -> Result<T, String>,
}

impl<'de, T> Visitor<'de> for QuantityVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.from_str)(v).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        (self.from_number)(v as f64).map_err(E::custom)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        (self.from_number)(v as f64).map_err(E::custom)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        (self.from_number)(v).map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(QuantityVisitor {
            expecting: "a rate such as \"10Mbps\" or a number of bit/s",
            from_str: parse_rate,
            from_number: rate_from_f64,
        })
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(QuantityVisitor {
            expecting: "a duration such as \"250ms\" or a number of seconds",
            from_str: parse_duration,
            from_number: duration_from_seconds,
        })
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(QuantityVisitor {
            expecting: "a size such as \"64KB\" or a number of bytes",
            from_str: parse_bytes,
            from_number: bytes_from_f64,
        })
    }
}

impl<'de> Deserialize<'de> for Length {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(QuantityVisitor {
            expecting: "a length such as \"780km\" or a number of metres",
            from_str: parse_length,
            from_number: length_from_f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_with_and_without_units() {
        assert_eq!(parse_rate("10Mbps").unwrap(), Rate(10_000_000));
        assert_eq!(parse_rate("1.544Mbps").unwrap(), Rate(1_544_000));
        assert_eq!(parse_rate("768kbps").unwrap(), Rate(768_000));
        assert_eq!(parse_rate("9600").unwrap(), Rate(9600));
        assert!(parse_rate("-5Mbps").is_err());
        assert!(parse_rate("0").is_err());
        assert!(parse_rate("0.25").is_err(), "would round to 0 bit/s");
        assert!(parse_rate("10 furlongs").is_err());
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(parse_duration("250ms").unwrap(), Duration(250_000_000));
        assert_eq!(parse_duration("200s").unwrap(), Duration(200 * NS_PER_S));
        assert_eq!(parse_duration("1.5").unwrap(), Duration(1_500_000_000));
        assert_eq!(parse_bytes("64KB").unwrap(), Bytes(64_000));
        assert_eq!(parse_bytes("64KiB").unwrap(), Bytes(65_536));
        assert_eq!(parse_bytes("16MB").unwrap(), Bytes(16_000_000));
        assert!(parse_bytes("1.5B").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn lengths() {
        assert_eq!(parse_length("780km").unwrap(), Length(780_000.0));
        assert_eq!(parse_length("35786 km").unwrap(), Length(35_786_000.0));
        assert_eq!(parse_length("500").unwrap(), Length(500.0));
        assert!(parse_length("-1km").is_err());
        assert!(parse_length("3mi").unwrap_err().contains("km"));
    }

    #[test]
    fn error_names_accepted_units() {
        let err = parse_rate("10Mbit").unwrap_err();
        assert!(err.contains("Mbps"), "{err}");
    }
}
