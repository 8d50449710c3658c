//! The path's physical layer as scenario keys: the error model of each
//! direction (`[path.errors]`, `[path.return_errors]`) and the orbit that
//! sets the delay (`path.orbit`). Checked here, turned into the plain
//! configs of `channel::` for the simulator.
//!
//! Each model's keys are flat in one table so that a wrong key is named by
//! its own dotted path; a key of another model is refused by name.

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;

use super::{error, PathSpec, Scenario, ScenarioError};
#[cfg(test)]
use crate::channel::orbit;
use crate::channel::orbit::{LeoConfig, OrbitConfig, Propagation};
use crate::channel::{burst, gilbert, leung, ChannelConfig};
use crate::units::{Duration, Length};

/// `[path.errors]`: `model` and that model's keys.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorsSpec {
    pub model: Option<String>,
    pub ber: Option<f64>,
    pub ber_good: Option<f64>,
    pub ber_bad: Option<f64>,
    pub good_to_bad: Option<f64>,
    pub bad_to_good: Option<f64>,
    pub mean_good: Option<Duration>,
    pub mean_bad: Option<Duration>,
    pub ber_clear: Option<f64>,
    pub ber_rain: Option<f64>,
    pub b: Option<f64>,
    pub g: Option<f64>,
    pub mean_normal: Option<Duration>,
    pub mean_handoff: Option<Duration>,
    pub burst_bits: Option<u64>,
    pub interval_bits: Option<f64>,
    pub spacing: Option<String>,
}

const MODELS: &[(&str, &[&str])] = &[
    ("uniform", &["ber"]),
    ("gilbert", &["ber_good", "ber_bad", "good_to_bad", "bad_to_good", "mean_good", "mean_bad"]),
    ("leung-satellite", &["ber_clear", "ber_rain", "b", "g"]),
    ("leung-mobile", &["ber_good", "ber_bad", "mean_good", "mean_bad", "mean_normal", "mean_handoff"]),
    ("burst", &["burst_bits", "interval_bits", "spacing"]),
];

/// Shortest mean sojourn or burst spacing accepted, ns.
const MIN_MEAN_NS: u64 = 1000;

impl ErrorsSpec {
    /// The keys this table sets, besides `model`.
    fn keys_set(&self) -> Vec<&'static str> {
        let present = [
            ("ber", self.ber.is_some()),
            ("ber_good", self.ber_good.is_some()),
            ("ber_bad", self.ber_bad.is_some()),
            ("good_to_bad", self.good_to_bad.is_some()),
            ("bad_to_good", self.bad_to_good.is_some()),
            ("mean_good", self.mean_good.is_some()),
            ("mean_bad", self.mean_bad.is_some()),
            ("ber_clear", self.ber_clear.is_some()),
            ("ber_rain", self.ber_rain.is_some()),
            ("b", self.b.is_some()),
            ("g", self.g.is_some()),
            ("mean_normal", self.mean_normal.is_some()),
            ("mean_handoff", self.mean_handoff.is_some()),
            ("burst_bits", self.burst_bits.is_some()),
            ("interval_bits", self.interval_bits.is_some()),
            ("spacing", self.spacing.is_some()),
        ];
        present.iter().filter(|(_, set)| *set).map(|(k, _)| *k).collect()
    }

    /// The channel this table describes; `at` is its dotted key (`path.errors`).
    pub fn config(&self, at: &str) -> Result<ChannelConfig, ScenarioError> {
        let key = |name: &str| format!("{at}.{name}");
        let names = MODELS.iter().map(|(m, _)| format!("\"{m}\"")).collect::<Vec<_>>().join(", ");
        let Some(model) = &self.model else {
            return Err(error(key("model"), format!("missing; accepted: {names}")));
        };
        let Some((model, keys)) = MODELS.iter().find(|(m, _)| m == model) else {
            return Err(error(key("model"), format!("unknown model \"{model}\"; accepted: {names}")));
        };
        if let Some(stray) = self.keys_set().into_iter().find(|k| !keys.contains(k)) {
            return Err(error(key(stray), format!("not a key of model \"{model}\"; accepted: {}", keys.join(", "))));
        }
        let ber = |name: &str, value: Option<f64>, default: f64| -> Result<f64, ScenarioError> {
            let v = value.unwrap_or(default);
            if (0.0..1.0).contains(&v) {
                Ok(v)
            } else {
                Err(error(key(name), format!("bit error rate {v}; accepted: 0 <= {name} < 1")))
            }
        };
        let probability = |name: &str, value: Option<f64>, default: f64| -> Result<f64, ScenarioError> {
            let v = value.unwrap_or(default);
            if (0.0..=1.0).contains(&v) {
                Ok(v)
            } else {
                Err(error(key(name), format!("probability {v}; accepted: 0 <= {name} <= 1")))
            }
        };
        // The state is walked sojourn by sojourn; below a microsecond a run
        // would spend its time flipping states no packet can resolve.
        let mean = |name: &str, value: Option<Duration>, default_ns: f64| -> Result<f64, ScenarioError> {
            match value {
                None => Ok(default_ns),
                Some(Duration(ns)) if ns < MIN_MEAN_NS => {
                    Err(error(key(name), "must be at least 1us, such as \"20ms\" or \"140s\""))
                }
                Some(Duration(ns)) => Ok(ns as f64),
            }
        };
        Ok(match *model {
            "uniform" => match self.ber {
                None => return Err(error(key("ber"), "missing; the uniform model needs a bit error rate, such as ber = 1e-6")),
                Some(_) => ChannelConfig::Uniform { ber: ber("ber", self.ber, 0.0)? },
            },
            "gilbert" => {
                let per_packet = self.good_to_bad.is_some() || self.bad_to_good.is_some();
                let timed = self.mean_good.is_some() || self.mean_bad.is_some();
                let transitions = match (per_packet, timed) {
                    (true, true) => {
                        let k = if self.mean_good.is_some() { "mean_good" } else { "mean_bad" };
                        return Err(error(key(k), "per-packet probabilities (good_to_bad, bad_to_good) and mean times (mean_good, mean_bad) both given; accepted: one pair"));
                    }
                    (false, false) => {
                        return Err(error(key("good_to_bad"), "missing; accepted: good_to_bad and bad_to_good (per packet), or mean_good and mean_bad (times)"));
                    }
                    (true, false) => {
                        for (k, v) in [("good_to_bad", self.good_to_bad), ("bad_to_good", self.bad_to_good)] {
                            if v.is_none() {
                                return Err(error(key(k), "missing; per-packet transitions need both good_to_bad and bad_to_good"));
                            }
                        }
                        gilbert::Transitions::PerPacket {
                            good_to_bad: probability("good_to_bad", self.good_to_bad, 0.0)?,
                            bad_to_good: probability("bad_to_good", self.bad_to_good, 0.0)?,
                        }
                    }
                    (false, true) => {
                        for (k, v) in [("mean_good", self.mean_good), ("mean_bad", self.mean_bad)] {
                            if v.is_none() {
                                return Err(error(key(k), "missing; timed transitions need both mean_good and mean_bad"));
                            }
                        }
                        gilbert::Transitions::Timed {
                            mean_good_ns: mean("mean_good", self.mean_good, 0.0)?,
                            mean_bad_ns: mean("mean_bad", self.mean_bad, 0.0)?,
                        }
                    }
                };
                if self.ber_bad.is_none() {
                    return Err(error(key("ber_bad"), "missing; the bad state's bit error rate, such as ber_bad = 1e-4"));
                }
                ChannelConfig::Gilbert(gilbert::Config {
                    ber_good: ber("ber_good", self.ber_good, 0.0)?,
                    ber_bad: ber("ber_bad", self.ber_bad, 0.0)?,
                    transitions,
                })
            }
            "leung-satellite" => {
                let d = leung::SatelliteConfig::default();
                ChannelConfig::LeungSatellite(leung::SatelliteConfig {
                    ber_clear: ber("ber_clear", self.ber_clear, d.ber_clear)?,
                    ber_rain: ber("ber_rain", self.ber_rain, d.ber_rain)?,
                    b: probability("b", self.b, d.b)?,
                    g: probability("g", self.g, d.g)?,
                })
            }
            "leung-mobile" => {
                let d = leung::MobileConfig::default();
                ChannelConfig::LeungMobile(leung::MobileConfig {
                    ber_good: ber("ber_good", self.ber_good, d.ber_good)?,
                    ber_bad: ber("ber_bad", self.ber_bad, d.ber_bad)?,
                    mean_good_ns: mean("mean_good", self.mean_good, d.mean_good_ns)?,
                    mean_bad_ns: mean("mean_bad", self.mean_bad, d.mean_bad_ns)?,
                    mean_normal_ns: mean("mean_normal", self.mean_normal, d.mean_normal_ns)?,
                    mean_handoff_ns: mean("mean_handoff", self.mean_handoff, d.mean_handoff_ns)?,
                })
            }
            "burst" => {
                let d = burst::Config::default();
                let burst_bits = self.burst_bits.unwrap_or(d.burst_bits);
                if burst_bits == 0 {
                    return Err(error(key("burst_bits"), "0; accepted: 1 bit or more"));
                }
                let interval_bits = self.interval_bits.unwrap_or(d.interval_bits);
                if !(interval_bits > burst_bits as f64 && interval_bits < 1e18) {
                    return Err(error(
                        key("interval_bits"),
                        format!("{interval_bits}; accepted: more than burst_bits ({burst_bits}) and below 1e18"),
                    ));
                }
                let spacing = match self.spacing.as_deref() {
                    None | Some("fixed") => burst::Spacing::Fixed,
                    Some("random") => burst::Spacing::Random,
                    Some(other) => return Err(error(key("spacing"), format!("\"{other}\"; accepted: \"fixed\", \"random\""))),
                };
                ChannelConfig::Burst(burst::Config { burst_bits, interval_bits, spacing })
            }
            _ => unreachable!("every name in MODELS is matched"),
        })
    }
}

/// `path.orbit`: a preset name (`"geo"`, `"meo"`, `"leo"`) or a table.
#[derive(Clone, Debug)]
pub enum OrbitSpec {
    Preset(String),
    Table(OrbitTable),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrbitTable {
    pub kind: Option<String>,
    pub altitude: Option<Length>,
    /// Degrees above the horizon at both stations (geo, meo).
    pub elevation: Option<f64>,
    /// Degrees; the satellite is used above it (leo).
    pub min_elevation: Option<f64>,
    /// No satellite between passes (leo).
    pub handover_gap: Option<Duration>,
}

impl<'de> Deserialize<'de> for OrbitSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OrbitVisitor;
        impl<'de> Visitor<'de> for OrbitVisitor {
            type Value = OrbitSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an orbit: \"geo\", \"meo\", \"leo\" or a table such as { kind = \"leo\", altitude = \"780km\" }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OrbitSpec, E> {
                Ok(OrbitSpec::Preset(v.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<OrbitSpec, A::Error> {
                OrbitTable::deserialize(de::value::MapAccessDeserializer::new(map)).map(OrbitSpec::Table)
            }
        }
        d.deserialize_any(OrbitVisitor)
    }
}

const KINDS: &[(&str, &[&str])] = &[
    ("geo", &["altitude", "elevation"]),
    ("meo", &["altitude", "elevation"]),
    ("leo", &["altitude", "min_elevation", "handover_gap"]),
];

impl OrbitSpec {
    pub fn config(&self) -> Result<OrbitConfig, ScenarioError> {
        self.config_at("path")
    }

    /// As `config`, naming keys under `at` ("path" or "link.N").
    pub fn config_at(&self, at: &str) -> Result<OrbitConfig, ScenarioError> {
        let accepted = "accepted: \"geo\", \"meo\", \"leo\"";
        let table = match self {
            OrbitSpec::Preset(name) => {
                return match name.as_str() {
                    "geo" => Ok(OrbitConfig::geo()),
                    "meo" => Ok(OrbitConfig::meo()),
                    "leo" => Ok(OrbitConfig::leo()),
                    other => Err(error(format!("{at}.orbit"), format!("unknown orbit \"{other}\"; {accepted}, or a table with `kind`"))),
                };
            }
            OrbitSpec::Table(table) => table,
        };
        let key = |name: &str| format!("{at}.orbit.{name}");
        let Some(kind) = &table.kind else {
            return Err(error(key("kind"), format!("missing; {accepted}")));
        };
        let Some((kind, keys)) = KINDS.iter().find(|(k, _)| k == kind) else {
            return Err(error(key("kind"), format!("unknown orbit \"{kind}\"; {accepted}")));
        };
        let set = [
            ("altitude", table.altitude.is_some()),
            ("elevation", table.elevation.is_some()),
            ("min_elevation", table.min_elevation.is_some()),
            ("handover_gap", table.handover_gap.is_some()),
        ];
        if let Some((stray, _)) = set.iter().find(|(k, on)| *on && !keys.contains(k)) {
            return Err(error(key(stray), format!("not a key of a \"{kind}\" orbit; accepted: {}", keys.join(", "))));
        }
        let preset = match *kind {
            "geo" => OrbitConfig::geo(),
            "meo" => OrbitConfig::meo(),
            _ => OrbitConfig::leo(),
        };
        let altitude = |default: f64| -> Result<f64, ScenarioError> {
            let a = table.altitude.map(|l| l.0).unwrap_or(default);
            // A LEO pass needs an orbit: nothing circles below the ~100 km Karman line.
            let floor = if *kind == "leo" { 100e3 } else { 1.0 };
            if a >= floor {
                Ok(a)
            } else {
                Err(error(key("altitude"), format!("{a} m; accepted: at least {floor} m")))
            }
        };
        let angle = |name: &str, value: Option<f64>, default: f64, max: f64| -> Result<f64, ScenarioError> {
            let v = value.unwrap_or(default);
            if (0.0..=max).contains(&v) {
                Ok(v)
            } else {
                Err(error(key(name), format!("{v} degrees; accepted: 0 to {max}")))
            }
        };
        Ok(match preset {
            OrbitConfig::Fixed { altitude_m, elevation_deg } => OrbitConfig::Fixed {
                altitude_m: altitude(altitude_m)?,
                elevation_deg: angle("elevation", table.elevation, elevation_deg, 90.0)?,
            },
            OrbitConfig::Leo(d) => OrbitConfig::Leo(LeoConfig {
                altitude_m: altitude(d.altitude_m)?,
                min_elevation_deg: angle("min_elevation", table.min_elevation, d.min_elevation_deg, 89.0)?,
                handover_gap_ns: table.handover_gap.map(|g| g.0).unwrap_or(d.handover_gap_ns),
            }),
        })
    }
}

/// Checks a `[path]`'s (or `[[link]]`'s, `at` = "link.N") delay, orbit and error keys together.
pub(super) fn validate(path: &PathSpec, at: &str) -> Result<(), ScenarioError> {
    let key = |name: &str| format!("{at}.{name}");
    match (&path.delay, &path.orbit) {
        (None, None) => return Err(error(key("delay"), "missing; set `delay` (one-way, such as \"250ms\") or `orbit`")),
        (Some(_), Some(_)) => {
            return Err(error(key("orbit"), "given with `delay`; an orbit sets the delay, so accepted: one of them"))
        }
        (None, Some(orbit)) => {
            orbit.config_at(at)?;
        }
        (Some(_), None) => {}
    }
    let forward_rate = path.forward_rate.or(path.rate).map(|r| r.0).unwrap_or(1);
    let return_rate = path.return_rate.or(path.rate).map(|r| r.0).unwrap_or(1);
    for (table, ber, at, ber_key, rate) in [
        (&path.errors, path.ber, key("errors"), key("ber"), forward_rate),
        (&path.return_errors, path.return_ber, key("return_errors"), key("return_ber"), return_rate),
    ] {
        let (at, ber_key) = (at.as_str(), ber_key.as_str());
        if let Some(spec) = table {
            if let ChannelConfig::Burst(b) = spec.config(at)? {
                let floor = rate as f64 * MIN_MEAN_NS as f64 / 1e9;
                if b.interval_bits < floor {
                    return Err(error(
                        format!("{at}.interval_bits"),
                        format!("{} bits is under 1us on this {rate} bit/s link; accepted: at least {floor}", b.interval_bits),
                    ));
                }
            }
            if ber != 0.0 {
                return Err(error(ber_key, format!("given with [{at}]; accepted: one of them ({ber_key} = 0 clears it)")));
            }
        }
    }
    Ok(())
}

impl PathSpec {
    /// The data direction's error model: `[path.errors]`, else `path.ber`.
    pub fn forward_channel(&self) -> ChannelConfig {
        channel(&self.errors, self.ber, "errors")
    }

    /// The ACK direction's: `[path.return_errors]`, else `path.return_ber`.
    pub fn return_channel(&self) -> ChannelConfig {
        channel(&self.return_errors, self.return_ber, "return_errors")
    }

    /// Both directions cross the same satellite (or the same constant delay).
    pub fn propagation(&self) -> Propagation {
        match (&self.orbit, self.delay) {
            (Some(orbit), _) => Propagation::from_orbit(&orbit.config().expect("orbit validated")),
            (None, delay) => Propagation::Constant(delay.map(|d| d.0).unwrap_or(0)),
        }
    }
}

/// The single path's, for a scenario written with `[path]`.
impl Scenario {
    fn single_path(&self) -> &PathSpec {
        self.path.as_ref().expect("a [path] scenario")
    }

    pub fn forward_channel(&self) -> ChannelConfig {
        self.single_path().forward_channel()
    }

    pub fn return_channel(&self) -> ChannelConfig {
        self.single_path().return_channel()
    }

    pub fn propagation(&self) -> Propagation {
        self.single_path().propagation()
    }
}

fn channel(table: &Option<ErrorsSpec>, ber: f64, at: &str) -> ChannelConfig {
    match table {
        Some(spec) => spec.config(at).expect("errors validated"),
        None if ber > 0.0 => ChannelConfig::Uniform { ber },
        None => ChannelConfig::Clean,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed_delay_ns(altitude_m: f64, elevation_deg: f64) -> u64 {
        orbit::hop_delay_ns(orbit::slant_range_m(altitude_m, elevation_deg))
    }

    fn load(path_extra: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_toml(&format!(
            "[path]\nrate = \"1Mbps\"\n{path_extra}\n[[flow]]\n"
        ))
    }

    fn err(path_extra: &str) -> ScenarioError {
        let e = load(path_extra).expect_err("should be refused");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
        e
    }

    #[test]
    fn each_model_loads() {
        let cases = [
            ("model = \"uniform\"\nber = 1e-6", "Uniform"),
            ("model = \"gilbert\"\nber_bad = 1e-4\ngood_to_bad = 0.01\nbad_to_good = 0.1", "Gilbert"),
            ("model = \"gilbert\"\nber_bad = 1e-4\nmean_good = \"2s\"\nmean_bad = \"50ms\"", "Gilbert"),
            ("model = \"leung-satellite\"", "LeungSatellite"),
            ("model = \"leung-mobile\"\nmean_handoff = \"2s\"", "LeungMobile"),
            ("model = \"burst\"\ninterval_bits = 1e6", "Burst"),
        ];
        for (keys, kind) in cases {
            let s = load(&format!("delay = \"10ms\"\n[path.errors]\n{keys}")).unwrap_or_else(|e| panic!("{keys}: {e}"));
            let got = format!("{:?}", s.forward_channel());
            assert!(got.starts_with(kind), "{keys}: {got}");
            assert_eq!(s.return_channel(), ChannelConfig::Clean);
        }
    }

    #[test]
    fn leung_defaults_are_the_thesis_constants() {
        let s = load("delay = \"10ms\"\n[path.errors]\nmodel = \"leung-satellite\"\nber_rain = 1e-5").unwrap();
        let ChannelConfig::LeungSatellite(c) = s.forward_channel() else { panic!() };
        assert_eq!((c.b, c.g, c.ber_rain), (0.01, 0.05, 1e-5));
    }

    #[test]
    fn bad_channel_keys_are_named() {
        let base = "delay = \"10ms\"\n[path.errors]\n";
        let e = err(&format!("{base}model = \"gilbert\"\nb = 0.1"));
        assert_eq!(e.key, "path.errors.b");
        assert!(e.message.contains("ber_good"), "{e}");
        let e = err(&format!("{base}model = \"rayleigh\""));
        assert_eq!(e.key, "path.errors.model");
        assert!(e.message.contains("leung-mobile"), "{e}");
        let e = err(&format!("{base}model = \"leung-satellite\"\nb = 1.5"));
        assert_eq!(e.key, "path.errors.b");
        let e = err(&format!("{base}model = \"leung-mobile\"\nmean_bad = \"0s\""));
        assert_eq!(e.key, "path.errors.mean_bad");
        let e = err(&format!("{base}model = \"gilbert\"\nber_bad = 1e-4\ngood_to_bad = 0.1"));
        assert_eq!(e.key, "path.errors.bad_to_good");
        let e = err(&format!("{base}model = \"gilbert\"\nber_bad = 1e-4\ngood_to_bad = 0.1\nbad_to_good = 0.1\nmean_bad = \"1s\""));
        assert_eq!(e.key, "path.errors.mean_bad");
        let e = err(&format!("{base}model = \"burst\"\nspacing = \"poisson\""));
        assert_eq!(e.key, "path.errors.spacing");
        let e = err(&format!("{base}model = \"burst\"\nburst_bits = 4000\ninterval_bits = 100"));
        assert_eq!(e.key, "path.errors.interval_bits");
        let e = err(&format!("{base}model = \"leung-mobile\"\nmean_good = \"10ns\""));
        assert_eq!(e.key, "path.errors.mean_good");
        let e = err(&format!("forward_rate = \"10Gbps\"\n{base}model = \"burst\"\nburst_bits = 10\ninterval_bits = 100"));
        assert_eq!(e.key, "path.errors.interval_bits");
        let e = err(&format!("{base}model = \"uniform\""));
        assert_eq!(e.key, "path.errors.ber");
        let e = err(&format!("{base}modle = \"uniform\""));
        assert_eq!(e.key, "path.errors.modle");
        let e = err(&format!("ber = 1e-6\n{base}model = \"leung-satellite\""));
        assert_eq!(e.key, "path.ber");
        let e = err("delay = \"10ms\"\n[path.return_errors]\nmodel = \"gilbert\"\nber_bad = 2");
        assert!(e.key.starts_with("path.return_errors."), "{e}");
    }

    #[test]
    fn orbits_load_and_replace_delay() {
        let s = load("orbit = \"geo\"").unwrap();
        assert_eq!(s.propagation(), Propagation::Constant(fixed_delay_ns(35_786e3, 90.0)));
        let s = load("[path.orbit]\nkind = \"geo\"\nelevation = 30").unwrap();
        assert_eq!(s.propagation(), Propagation::Constant(fixed_delay_ns(35_786e3, 30.0)));
        let s = load("[path.orbit]\nkind = \"leo\"\naltitude = \"780km\"\nmin_elevation = 10\nhandover_gap = \"2s\"").unwrap();
        assert!(matches!(s.propagation(), Propagation::Pass(_)));
        let s = load("delay = \"250ms\"").unwrap();
        assert_eq!(s.propagation(), Propagation::Constant(250_000_000));
    }

    #[test]
    fn bad_orbits_are_named() {
        assert_eq!(err("delay = \"1s\"\norbit = \"geo\"").key, "path.orbit");
        assert_eq!(err("").key, "path.delay");
        let e = err("orbit = \"heo\"");
        assert_eq!(e.key, "path.orbit");
        assert!(e.message.contains("leo"), "{e}");
        assert_eq!(err("[path.orbit]\nkind = \"geo\"\nhandover_gap = \"1s\"").key, "path.orbit.handover_gap");
        assert_eq!(err("[path.orbit]\nkind = \"leo\"\naltitude = \"50km\"").key, "path.orbit.altitude");
        assert_eq!(err("[path.orbit]\nkind = \"leo\"\nmin_elevation = 95").key, "path.orbit.min_elevation");
        assert_eq!(err("[path.orbit]\nkind = \"leo\"\naltitude = \"780 miles\"").key, "path.orbit.altitude");
        assert_eq!(err("[path.orbit]\nkind = \"leo\"\nheight = 1").key, "path.orbit.height");
        assert_eq!(err("[path.orbit]\naltitude = 1").key, "path.orbit.kind");
        assert_eq!(err("orbit = 3").key, "path.orbit");
    }

    #[test]
    fn json_paths_name_keys_too() {
        let e = Scenario::from_json(r#"{"path": {"rate": 1e6, "delay": 0.1, "errors": {"model": "burst", "burst": 3}}, "flow": [{}]}"#)
            .unwrap_err();
        assert_eq!(e.key, "path.errors.burst");
        let e = Scenario::from_json(r#"{"path": {"rate": 1e6, "orbit": {"kind": "leo", "altitude": "x"}}, "flow": [{}]}"#)
            .unwrap_err();
        assert_eq!(e.key, "path.orbit.altitude");
    }
}
