//! The `[flow.cc]` table: a flow's controller parameters. Every key is
//! prefixed by the controller that reads it (`vegas_alpha`, `cubic_beta`),
//! and a key for another controller than the flow's is an error.

use serde::Deserialize;

use super::CcKind;
use crate::units::Duration;

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CcParams {
    /// Vegas: fewer than alpha segments queued -> grow (Brakmo & Peterson 1995: 1).
    pub vegas_alpha: Option<f64>,
    /// Vegas: more than beta segments queued -> shrink (3).
    pub vegas_beta: Option<f64>,
    /// Vegas: leave slow start with more than gamma segments queued (1).
    pub vegas_gamma: Option<f64>,
    /// Vegas: the window factor on a retransmission (3/4, as the x-kernel and ns-2 Vegas).
    pub vegas_loss_factor: Option<f64>,
    /// Vegas: Brakmo & Peterson's fine-grained retransmission (true); false as Linux and ns-3.
    pub vegas_fine_retransmit: Option<bool>,
    /// Vegas: "every-other-rtt" (Brakmo & Peterson) or "every-rtt" (Linux and ns-3 slow start and exit).
    pub vegas_slow_start: Option<String>,
    /// CUBIC's multiplicative decrease (RFC 9438 §4.6: 0.7).
    pub cubic_beta: Option<f64>,
    /// CUBIC's C (RFC 9438 §5: 0.4).
    pub cubic_c: Option<f64>,
    /// RFC 9438 §4.7 fast convergence.
    pub cubic_fast_convergence: Option<bool>,
    /// Westwood+'s bandwidth filter: "linux" (two 7/8 stages, tcp_westwood.c) or "tustin" (ns-3's TcpWestwoodPlus).
    pub westwood_filter: Option<String>,
    /// Westwood+'s count of acknowledged data: "linux" (`westwood_acked_count`) or "ns3" (ns-3 3.44's PktsAcked calls).
    pub westwood_count: Option<String>,
    /// Hybla's reference RTT (Caini & Firrincieli 2004: 25 ms).
    pub hybla_rtt0: Option<Duration>,
    /// ADaLR's rwnd increase: "accumulate" on the sender, or "headroom" over each advertised window.
    pub adalr_rwnd: Option<String>,
    /// ADaLR's loss-recovery window rule: on the "full-ack" that ends fast recovery, or on each "partial-ack".
    pub adalr_recovery: Option<String>,
    /// Added to the RTO after a timeout, for delayed ACKs (Omueti: 200 ms).
    pub adalr_rto_extra: Option<Duration>,
    /// Segments resent per ACK or timeout from the retransmission buffer (Omueti: 3).
    pub adalr_retransmit_limit: Option<u32>,
    /// CETEN-R's EWMA gain alpha at the routers (not given by Carroll).
    pub ceten_alpha: Option<f64>,
    /// "intent": the design the thesis describes; "code": what its Appendix A code does.
    pub ceten_mode: Option<String>,
    /// Option bytes on every segment and ACK (Carroll's TCPC_SEG_CETEN_SIZE: 32).
    pub ceten_option_bytes: Option<u32>,
}

impl CcParams {
    /// Checks ranges and that each key belongs to `kind`; (key, message) on error.
    pub fn validate(&self, kind: CcKind, variant: &str) -> Result<(), (String, String)> {
        let set = self.keys_set();
        let prefix = kind.key_prefix();
        if let Some(key) = set.iter().find(|k| prefix.is_none_or(|p| !k.starts_with(p))) {
            let accepted = match prefix {
                Some(p) => format!("keys starting with `{p}`"),
                None => "no [flow.cc] keys".into(),
            };
            return Err((key.to_string(), format!("does not apply to variant \"{variant}\"; accepted with it: {accepted}")));
        }
        let fraction = |key: &str, v: Option<f64>, open_low: bool| -> Result<(), (String, String)> {
            match v {
                Some(x) if !(x <= 1.0 && (x > 0.0 || (!open_low && x == 0.0))) => {
                    Err((key.into(), format!("{x}; accepted: a number in (0, 1]")))
                }
                _ => Ok(()),
            }
        };
        for (key, v) in [("vegas_alpha", self.vegas_alpha), ("vegas_beta", self.vegas_beta), ("vegas_gamma", self.vegas_gamma)] {
            if let Some(x) = v {
                if !(x >= 0.0 && x.is_finite()) {
                    return Err((key.into(), format!("{x}; accepted: segments, 0 or more")));
                }
            }
        }
        if let (Some(a), Some(b)) = (self.vegas_alpha.or(Some(1.0)), self.vegas_beta.or(Some(3.0))) {
            if a > b {
                return Err(("vegas_alpha".into(), format!("{a} is above vegas_beta ({b}); accepted: alpha <= beta")));
            }
        }
        fraction("vegas_loss_factor", self.vegas_loss_factor, true)?;
        fraction("cubic_beta", self.cubic_beta, true)?;
        if self.cubic_beta == Some(1.0) {
            return Err(("cubic_beta".into(), "1 never reduces the window; accepted: (0, 1)".into()));
        }
        if let Some(c) = self.cubic_c {
            if !(c > 0.0 && c.is_finite()) {
                return Err(("cubic_c".into(), format!("{c}; accepted: a positive number such as 0.4")));
            }
        }
        if self.hybla_rtt0.is_some_and(|d| d.0 == 0) {
            return Err(("hybla_rtt0".into(), "must be positive, such as \"25ms\"".into()));
        }
        let one_of = |key: &str, v: &Option<String>, accepted: &[&str]| -> Result<(), (String, String)> {
            match v {
                Some(s) if !accepted.contains(&s.as_str()) => {
                    Err((key.into(), format!("\"{s}\"; accepted: {}", accepted.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(" or "))))
                }
                _ => Ok(()),
            }
        };
        one_of("vegas_slow_start", &self.vegas_slow_start, &["every-other-rtt", "every-rtt"])?;
        one_of("westwood_filter", &self.westwood_filter, &["linux", "tustin"])?;
        one_of("westwood_count", &self.westwood_count, &["linux", "ns3"])?;
        one_of("adalr_rwnd", &self.adalr_rwnd, &["accumulate", "headroom"])?;
        one_of("adalr_recovery", &self.adalr_recovery, &["full-ack", "partial-ack"])?;
        one_of("ceten_mode", &self.ceten_mode, &["intent", "code"])?;
        if self.adalr_retransmit_limit == Some(0) {
            return Err(("adalr_retransmit_limit".into(), "0 would never retransmit; accepted: 1 or more".into()));
        }
        fraction("ceten_alpha", self.ceten_alpha, true)?;
        if self.ceten_option_bytes.is_some_and(|b| b > 40) {
            return Err(("ceten_option_bytes".into(), "above the 40 bytes TCP options can hold; accepted: 0 to 40".into()));
        }
        Ok(())
    }

    fn keys_set(&self) -> Vec<&'static str> {
        let mut keys = Vec::new();
        macro_rules! check {
            ($($field:ident),*) => { $( if self.$field.is_some() { keys.push(stringify!($field)); } )* };
        }
        check!(
            vegas_alpha, vegas_beta, vegas_gamma, vegas_loss_factor, vegas_fine_retransmit, vegas_slow_start, cubic_beta, cubic_c, cubic_fast_convergence,
            westwood_filter, westwood_count, hybla_rtt0, adalr_rwnd, adalr_recovery, adalr_rto_extra, adalr_retransmit_limit, ceten_alpha, ceten_mode,
            ceten_option_bytes
        );
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_for_another_controller_is_named() {
        let p = CcParams { vegas_alpha: Some(2.0), ..Default::default() };
        let (key, message) = p.validate(CcKind::Cubic, "cubic").unwrap_err();
        assert_eq!(key, "vegas_alpha");
        assert!(message.contains("cubic_"), "{message}");
        assert!(p.validate(CcKind::Vegas, "vegas").is_ok());
    }

    #[test]
    fn ranges_are_checked() {
        let p = CcParams { ceten_alpha: Some(1.5), ..Default::default() };
        assert_eq!(p.validate(CcKind::Ceten, "ceten-reno").unwrap_err().0, "ceten_alpha");
        let p = CcParams { vegas_alpha: Some(4.0), ..Default::default() };
        assert_eq!(p.validate(CcKind::Vegas, "vegas").unwrap_err().0, "vegas_alpha");
        let p = CcParams { adalr_rwnd: Some("more".into()), ..Default::default() };
        let (key, message) = p.validate(CcKind::Adalr, "adalr-sack").unwrap_err();
        assert_eq!(key, "adalr_rwnd");
        assert!(message.contains("\"headroom\""), "{message}");
        let p = CcParams { westwood_filter: Some("kalman".into()), ..Default::default() };
        let (key, message) = p.validate(CcKind::Westwood, "westwood").unwrap_err();
        assert_eq!(key, "westwood_filter");
        assert!(message.contains("\"tustin\""), "{message}");
        let p = CcParams { westwood_filter: Some("tustin".into()), ..Default::default() };
        assert!(p.validate(CcKind::Westwood, "westwood").is_ok());
        assert_eq!(p.validate(CcKind::Reno, "newreno").unwrap_err().0, "westwood_filter");
        let p = CcParams { vegas_fine_retransmit: Some(false), ..Default::default() };
        assert!(p.validate(CcKind::Vegas, "vegas").is_ok());
        assert_eq!(p.validate(CcKind::Hybla, "hybla").unwrap_err().0, "vegas_fine_retransmit");
    }
}
