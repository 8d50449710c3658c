//! A `[path]` or `[[link]]` table: its rates, its checks, its queue discipline.

use super::{error, physical, PathSpec, QueueLimit, ScenarioError};

impl PathSpec {
    pub fn forward_rate(&self) -> u64 {
        self.forward_rate.or(self.rate).map(|r| r.0).unwrap_or(0)
    }

    pub fn return_rate(&self) -> u64 {
        self.return_rate.or(self.rate).map(|r| r.0).unwrap_or(0)
    }

    /// Checks a `[path]` (at = "path") or a `[[link]]` (at = "link.N", with `from`/`to`).
    pub(super) fn validate(&self, at: &str, is_link: bool) -> Result<(), ScenarioError> {
        let key = |name: &str| format!("{at}.{name}");
        if self.forward_rate.or(self.rate).is_none() {
            return Err(error(key("rate"), "missing; set `rate` (both directions) or `forward_rate`"));
        }
        if self.return_rate.or(self.rate).is_none() {
            return Err(error(key("rate"), "missing; set `rate` (both directions) or `return_rate`"));
        }
        for (name, ber) in [("ber", self.ber), ("return_ber", self.return_ber)] {
            if !(0.0..1.0).contains(&ber) {
                return Err(error(key(name), format!("bit error rate {ber}; accepted: 0 <= ber < 1")));
            }
        }
        physical::validate(self, at)?;
        for (name, queue) in [("queue", Some(self.queue)), ("return_queue", self.return_queue)] {
            if let Some(QueueLimit::Bytes(b)) = queue {
                if b < 1500 {
                    return Err(error(key(name), format!("{b} bytes cannot hold one packet; accepted: at least \"1500B\"")));
                }
            }
        }
        if self.drop_packets.contains(&0) {
            return Err(error(key("drop_packets"), "0; packets count from 1 (the first data packet on the forward link)"));
        }
        for (name, value) in [("from", &self.from), ("to", &self.to)] {
            match (is_link, value) {
                (true, None) => return Err(error(key(name), "missing; a [[link]] joins two [[node]]s by name: from = \"a\", to = \"b\"")),
                (false, Some(_)) => return Err(error(key(name), "belongs to [[link]] tables; [path] joins its sender and receiver itself")),
                _ => {}
            }
        }
        self.red().map(|_| ()).map_err(|message| error(key("queue_discipline"), message))
    }

    /// The RED parameters, if this link runs RED; defaults per Floyd & Jacobson 1993 §11.
    pub fn red(&self) -> Result<Option<crate::link::RedConfig>, String> {
        match self.queue_discipline.as_deref() {
            None | Some("drop-tail") => {
                if self.red_min.is_some() || self.red_max.is_some() || self.red_max_p.is_some() || self.red_weight.is_some() {
                    return Err("red_* keys need queue_discipline = \"red\"".into());
                }
                Ok(None)
            }
            Some("red") => {
                let config = crate::link::RedConfig {
                    min_th: self.red_min.unwrap_or(5.0),
                    max_th: self.red_max.unwrap_or(15.0),
                    max_p: self.red_max_p.unwrap_or(0.1),
                    weight: self.red_weight.unwrap_or(0.002),
                };
                if !(config.min_th >= 0.0 && config.min_th < config.max_th) {
                    return Err(format!("red_min {} and red_max {}; accepted: 0 <= red_min < red_max", config.min_th, config.max_th));
                }
                if !(config.max_p > 0.0 && config.max_p <= 1.0 && config.weight > 0.0 && config.weight <= 1.0) {
                    return Err("red_max_p and red_weight must be in (0, 1]".into());
                }
                Ok(Some(config))
            }
            Some(other) => Err(format!("\"{other}\"; accepted: \"drop-tail\" or \"red\"")),
        }
    }
}
