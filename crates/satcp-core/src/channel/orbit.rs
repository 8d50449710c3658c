//! Propagation through a satellite: the delay from orbit geometry, fixed for
//! a geostationary (or a MEO taken at one elevation) satellite, varying over
//! a pass for a low-orbit one, with no satellite at all during a handover gap.
//!
//! The hop is a bent pipe: sender station -> satellite -> receiver station,
//! both stations seeing the satellite at the same elevation (stations close
//! together, as one beam serves them), so the one-way delay is twice the
//! slant range over the speed of light.

/// Earth radius used by the geometry, m. The equatorial radius (WGS-84:
/// 6,378,137 m), rounded as satellite link budgets take it.
pub const EARTH_RADIUS_M: f64 = 6_378_000.0;
/// m/s, exact by the definition of the metre.
pub const SPEED_OF_LIGHT: f64 = 299_792_458.0;
/// Earth's gravitational parameter GM, m^3/s^2 (WGS-84 / IERS Conventions 2010).
pub const GM_EARTH: f64 = 3.986_004_418e14;

/// Geostationary altitude: the orbit whose period is one sidereal day,
/// r = 42,164 km from Earth's centre.
pub const GEO_ALTITUDE_M: f64 = 35_786_000.0;
/// SES's O3b MEO constellation, equatorial at 8,062 km.
pub const MEO_ALTITUDE_M: f64 = 8_062_000.0;
/// Iridium: 66 satellites at 780 km, usable down to 8.2 degrees of elevation.
pub const LEO_ALTITUDE_M: f64 = 780_000.0;
pub const LEO_MIN_ELEVATION_DEG: f64 = 8.2;

/// Distance from a ground station to a satellite at `altitude_m` seen at
/// `elevation_deg` above the horizon, from the triangle Earth centre -
/// station - satellite (law of cosines; e.g. Pratt, Bostian & Allnutt,
/// Satellite Communications, 2nd ed., §2.2):
/// d = sqrt(r^2 - R^2 cos^2 e) - R sin e, r = R + h.
pub fn slant_range_m(altitude_m: f64, elevation_deg: f64) -> f64 {
    let (re, r) = (EARTH_RADIUS_M, EARTH_RADIUS_M + altitude_m);
    let e = elevation_deg.to_radians();
    (r * r - (re * e.cos()).powi(2)).sqrt() - re * e.sin()
}

/// The same distance from the Earth-central angle between the station and
/// the sub-satellite point: d = sqrt(R^2 + r^2 - 2 R r cos theta).
pub fn slant_range_at_central_angle_m(altitude_m: f64, theta: f64) -> f64 {
    let (re, r) = (EARTH_RADIUS_M, EARTH_RADIUS_M + altitude_m);
    (re * re + r * r - 2.0 * re * r * theta.cos()).sqrt()
}

/// Largest central angle at which the satellite is at least `min_elevation_deg`
/// up: theta = arccos(R cos e / r) - e (Wertz & Larson, Space Mission Analysis
/// and Design, 3rd ed., §5.2: eta from sin eta = (R/r) cos e, lambda = 90 - e - eta).
pub fn max_central_angle(altitude_m: f64, min_elevation_deg: f64) -> f64 {
    let e = min_elevation_deg.to_radians();
    (EARTH_RADIUS_M * e.cos() / (EARTH_RADIUS_M + altitude_m)).acos() - e
}

/// Circular orbital period, s: 2 pi sqrt(r^3 / GM) (Kepler's third law).
pub fn period_s(altitude_m: f64) -> f64 {
    let r = EARTH_RADIUS_M + altitude_m;
    2.0 * std::f64::consts::PI * (r * r * r / GM_EARTH).sqrt()
}

/// One-way delay of the bent-pipe hop over a slant range, ns (up and down).
pub fn hop_delay_ns(slant_m: f64) -> u64 {
    (2.0 * slant_m / SPEED_OF_LIGHT * 1e9).round() as u64
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OrbitConfig {
    /// A satellite that stays put in both stations' sky.
    Fixed { altitude_m: f64, elevation_deg: f64 },
    /// Low orbit: repeated passes with a gap between them.
    Leo(LeoConfig),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeoConfig {
    pub altitude_m: f64,
    /// The satellite is used from this elevation up to the zenith and down again.
    pub min_elevation_deg: f64,
    /// No satellite between one pass and the next, ns; 0 = the next one takes over at once.
    pub handover_gap_ns: u64,
}

impl OrbitConfig {
    pub fn geo() -> OrbitConfig {
        OrbitConfig::Fixed { altitude_m: GEO_ALTITUDE_M, elevation_deg: 90.0 }
    }
    pub fn meo() -> OrbitConfig {
        OrbitConfig::Fixed { altitude_m: MEO_ALTITUDE_M, elevation_deg: 90.0 }
    }
    pub fn leo() -> OrbitConfig {
        OrbitConfig::Leo(LeoConfig {
            altitude_m: LEO_ALTITUDE_M,
            min_elevation_deg: LEO_MIN_ELEVATION_DEG,
            handover_gap_ns: 0,
        })
    }
}

/// How a link's packets cross: a constant delay, or a low-orbit pass.
#[derive(Clone, Debug, PartialEq)]
pub enum Propagation {
    Constant(u64),
    Pass(LeoPass),
}

impl Propagation {
    pub fn from_orbit(orbit: &OrbitConfig) -> Propagation {
        match *orbit {
            OrbitConfig::Fixed { altitude_m, elevation_deg } => {
                Propagation::Constant(hop_delay_ns(slant_range_m(altitude_m, elevation_deg)))
            }
            OrbitConfig::Leo(config) => Propagation::Pass(LeoPass::new(config)),
        }
    }

    /// When a packet sent over [start_ns, end_ns) reaches the far end, or
    /// None if there was no satellite for part of it.
    #[inline]
    pub fn arrival(&self, start_ns: u64, end_ns: u64) -> Option<u64> {
        match self {
            Propagation::Constant(delay) => Some(end_ns + delay),
            Propagation::Pass(pass) => pass.in_view(start_ns, end_ns).then(|| end_ns + pass.delay_ns(end_ns)),
        }
    }
}

/// Overhead passes, one after another: the satellite rises at the minimum
/// elevation, culminates at the zenith over the stations and sets; after
/// `handover_gap` the next one rises. The run starts as a satellite rises.
/// Earth's rotation is neglected (it shifts a LEO pass by a few percent).
///
/// A packet is carried if the satellite is in view from its first bit to its
/// last; its delay is taken when the last bit leaves. A packet already on its
/// way up when the satellite sets is delivered: its flight (< 20 ms) is short
/// beside the pass, and the geometry at the edge barely changes within it.
#[derive(Clone, Debug, PartialEq)]
pub struct LeoPass {
    altitude_m: f64,
    /// Visible time of one pass, and pass plus gap, ns.
    pass_ns: u64,
    cycle_ns: u64,
    /// Central angle swept per ns, rad.
    omega_per_ns: f64,
}

impl LeoPass {
    pub fn new(config: LeoConfig) -> LeoPass {
        let omega_per_ns = 2.0 * std::f64::consts::PI / (period_s(config.altitude_m) * 1e9);
        let theta = max_central_angle(config.altitude_m, config.min_elevation_deg);
        let pass_ns = (2.0 * theta / omega_per_ns).round() as u64;
        LeoPass { altitude_m: config.altitude_m, pass_ns, cycle_ns: pass_ns + config.handover_gap_ns, omega_per_ns }
    }

    pub fn pass_ns(&self) -> u64 {
        self.pass_ns
    }

    pub fn cycle_ns(&self) -> u64 {
        self.cycle_ns
    }

    /// Whether one satellite serves the whole span [start_ns, end_ns].
    pub fn in_view(&self, start_ns: u64, end_ns: u64) -> bool {
        if self.cycle_ns == self.pass_ns {
            return true; // no gap: the next satellite takes over seamlessly
        }
        start_ns / self.cycle_ns == end_ns / self.cycle_ns && end_ns % self.cycle_ns <= self.pass_ns
    }

    /// One-way delay at time `t_ns` (during a gap: as at the edge of a pass).
    pub fn delay_ns(&self, t_ns: u64) -> u64 {
        let into_pass = (t_ns % self.cycle_ns).min(self.pass_ns);
        let theta = (into_pass as f64 - self.pass_ns as f64 / 2.0) * self.omega_per_ns;
        hop_delay_ns(slant_range_at_central_angle_m(self.altitude_m, theta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn km(m: f64) -> f64 {
        m / 1000.0
    }

    #[test]
    fn geo_slant_range_and_delay() {
        // Zenith: the altitude itself, 35,786 km, 119.37 ms each way up or down.
        let d = slant_range_m(GEO_ALTITUDE_M, 90.0);
        assert!((km(d) - 35_786.0).abs() < 0.01, "{d}");
        assert!((d / SPEED_OF_LIGHT * 1e3 - 119.37).abs() < 0.01);
        // Horizon: sqrt(42,164^2 - 6,378^2) = 41,679 km, 139.0 ms.
        let d = slant_range_m(GEO_ALTITUDE_M, 0.0);
        assert!((km(d) - 41_679.0).abs() < 1.0, "{d}");
        assert!((d / SPEED_OF_LIGHT * 1e3 - 139.0).abs() < 0.05);
        // Hayes (seed-notes/003.md §1.13): 240-300 ms ground to ground; ours
        // spans 238.7 ms (zenith) to 278.0 ms (horizon), Carroll's "240 to 280".
        assert_eq!(hop_delay_ns(slant_range_m(GEO_ALTITUDE_M, 90.0)) / 100_000, 2387);
        assert_eq!(hop_delay_ns(slant_range_m(GEO_ALTITUDE_M, 0.0)) / 100_000, 2780);
    }

    #[test]
    fn geo_period_is_a_sidereal_day() {
        assert!((period_s(GEO_ALTITUDE_M) - 86_164.1).abs() < 5.0, "{}", period_s(GEO_ALTITUDE_M));
    }

    #[test]
    fn iridium_geometry() {
        // Iridium: 780 km, period about 100.4 minutes.
        assert!((period_s(LEO_ALTITUDE_M) / 60.0 - 100.4).abs() < 0.2);
        // Slant range at the 8.2 degree edge of coverage: about 2,460 km
        // (8.2 ms up; 16.4 ms for the hop), 780 km overhead.
        let edge = slant_range_m(LEO_ALTITUDE_M, LEO_MIN_ELEVATION_DEG);
        assert!((km(edge) - 2464.0).abs() < 5.0, "{edge}");
        assert!((km(slant_range_m(LEO_ALTITUDE_M, 90.0)) - 780.0).abs() < 1e-6);
        // Both forms of the geometry agree at the edge.
        let theta = max_central_angle(LEO_ALTITUDE_M, LEO_MIN_ELEVATION_DEG);
        assert!((slant_range_at_central_angle_m(LEO_ALTITUDE_M, theta) - edge).abs() < 1e-3);
        // Coverage radius R * theta about 2,200 km (a footprint some 4,400 km across).
        assert!((km(EARTH_RADIUS_M * theta) - 2217.0).abs() < 5.0);
    }

    #[test]
    fn leo_pass_delay_rises_and_falls() {
        let pass = LeoPass::new(LeoConfig { altitude_m: 780e3, min_elevation_deg: 8.2, handover_gap_ns: 2_000_000_000 });
        // An overhead pass lasts 2 theta / omega: about 11 minutes.
        let minutes = pass.pass_ns() as f64 / 60e9;
        assert!((minutes - 11.1).abs() < 0.2, "{minutes}");
        let edge = hop_delay_ns(slant_range_m(780e3, 8.2));
        let zenith = hop_delay_ns(780e3);
        assert!((pass.delay_ns(0) as i64 - edge as i64).abs() <= 1);
        assert!((pass.delay_ns(pass.pass_ns() / 2) as i64 - zenith as i64).abs() <= 1);
        // Symmetric, and monotone on each side.
        let q = pass.pass_ns() / 4;
        assert_eq!(pass.delay_ns(q), pass.delay_ns(pass.pass_ns() - q));
        assert!(pass.delay_ns(q) < edge && pass.delay_ns(q) > zenith);
        // Arrival times never go backwards: the delay changes far slower than time.
        let mut last = 0;
        for k in 0..pass.pass_ns() / 1_000_000 {
            let t = k * 1_000_000;
            let at = t + pass.delay_ns(t);
            assert!(at >= last);
            last = at;
        }
    }

    #[test]
    fn handover_gap_carries_nothing() {
        let gap = 2_000_000_000;
        let prop = Propagation::from_orbit(&OrbitConfig::Leo(LeoConfig {
            altitude_m: 780e3,
            min_elevation_deg: 10.0,
            handover_gap_ns: gap,
        }));
        let Propagation::Pass(pass) = &prop else { panic!("a LEO orbit has passes") };
        let end = pass.pass_ns();
        assert!(prop.arrival(end - 1000, end).is_some(), "last bit at the edge");
        assert!(prop.arrival(end - 1000, end + 1).is_none(), "cut by the set");
        assert!(prop.arrival(end + gap / 2, end + gap / 2 + 10).is_none(), "in the gap");
        assert!(prop.arrival(end + gap - 10, end + gap + 10).is_none(), "started in the gap");
        let next = pass.cycle_ns();
        assert_eq!(prop.arrival(next, next + 10), Some(next + 10 + pass.delay_ns(next + 10)));
        // Without a gap nothing is lost.
        let seamless = Propagation::from_orbit(&OrbitConfig::leo());
        let Propagation::Pass(p) = &seamless else { panic!() };
        assert!(seamless.arrival(p.pass_ns() - 5, p.pass_ns() + 5).is_some());
    }

    #[test]
    fn fixed_orbits_are_constant() {
        // 2 x 35,786 km / c = 238.738494 ms.
        assert_eq!(Propagation::from_orbit(&OrbitConfig::geo()), Propagation::Constant(238_738_494));
        let Propagation::Constant(meo) = Propagation::from_orbit(&OrbitConfig::meo()) else { panic!() };
        assert_eq!(meo / 100_000, 537); // 2 x 8,062 km / c = 53.8 ms
    }
}
