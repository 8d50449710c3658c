//! CETEN-R (Carroll 2004; 000.md): routers keep an EWMA of the packets
//! that survive each link, segments carry the product of those estimates
//! in a TCP option, the receiver echoes it on its ACKs, and the sender,
//! on a duplicate ACK, classifies the loss as corruption with probability
//! (1-E)/((1-E)+(1-C)) and then resends the first unacknowledged segment
//! without touching the window. Growth and the congestion response are
//! Reno's.
//!
//! Every link's sending side is one of Carroll's router interfaces: each
//! `link.rs` keeps its own `RouterEstimate` (hosts and routers alike, as
//! his IP nodes all ran the update, 000.md §1.4).

use rand::Rng;

use super::{halve, Ack, Controller, Loss, Window};
use crate::packet::CetenOption;
use crate::rng::Stream;

/// Which CETEN-R to run (000.md §1.8 (A) and (B)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The design the thesis describes: survival and congestion-survival
    /// estimates both reach the sender; the decision runs when fast
    /// retransmit would (the third duplicate ACK).
    Intent,
    /// What its Appendix A code does: the congestion ratio never leaves
    /// 0, queue drops lower the survival estimate like corruption, and the
    /// decision runs on every duplicate ACK.
    Code,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// EWMA gain at the routers. Carroll never gives it (000.md §6.1 item 1); 0.1 is ours.
    pub alpha: f64,
    pub mode: Mode,
    //= Carroll 2004, Appendix A, tcp_seg_sup.h
    //# #define TCPC_SEG_CETEN_SIZE 32  /* Size of CETEN option in bytes */
    pub option_bytes: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config { alpha: 0.1, mode: Mode::Intent, option_bytes: 32 }
    }
}

impl From<&super::CcParams> for Config {
    fn from(p: &super::CcParams) -> Self {
        let d = Config::default();
        Config {
            alpha: p.ceten_alpha.unwrap_or(d.alpha),
            mode: if p.ceten_mode.as_deref() == Some("code") { Mode::Code } else { d.mode },
            option_bytes: p.ceten_option_bytes.unwrap_or(d.option_bytes),
        }
    }
}

impl Config {
    /// The option a data segment leaves the sender with.
    pub fn fresh_option(&self) -> CetenOption {
        //= Carroll 2004, Appendix A, tcp_seg_CETEN_set
        //# forward_ceten_survival_ratio = 1.0; forward_ceten_congestion_ratio = 0.0
        // The intended design starts the congestion-survival product at 1 (000.md §1.8 A).
        let congestion = if self.mode == Mode::Code { 0.0 } else { 1.0 };
        CetenOption::new(self.alpha, 1.0, congestion, self.mode == Mode::Code)
    }
}

#[derive(Clone, Debug)]
pub struct Ceten {
    pub cfg: Config,
    stream: Stream,
    /// The latest estimates the receiver echoed: survival E and congestion survival C.
    survival: f64,
    congestion: f64,
    /// Losses classified as corruption, for the result.
    pub corruption_retransmits: u64,
}

impl Ceten {
    pub fn new(cfg: Config, stream: Stream) -> Ceten {
        let congestion = if cfg.mode == Mode::Code { 0.0 } else { 1.0 };
        Ceten { cfg, stream, survival: 1.0, congestion, corruption_retransmits: 0 }
    }

    /// An ACK's echoed option.
    pub fn feedback(&mut self, option: &CetenOption) {
        self.survival = option.survival();
        self.congestion = option.congestion();
    }

    /// Whether the decision runs on this duplicate ACK (the `dupacks`-th).
    pub fn decides_at(&self, dupacks: u32, threshold: u32) -> bool {
        match self.cfg.mode {
            Mode::Intent => dupacks == threshold,
            //= Carroll 2004, Appendix A, tcp_ack_check (000.md §1.5)
            //# if ceten_support == 1 and tcp_ceten_packet_loss(): tcp_eten_retransmit()
            //# else: tcp_frfr_processing()
            Mode::Code => true,
        }
    }

    /// P(the loss was corruption) from the echoed estimates.
    pub fn corruption_probability(&self) -> f64 {
        //= Carroll 2004, Appendix A, tcp_ceten_packet_loss (000.md §1.6)
        //# a = 1 - ceten_forward_error_ratio; b = 1 - ceten_forward_congestion_ratio
        //# if a + b <= 0: bypass = false
        //# if u < a / (a + b): bypass = true
        let a = 1.0 - self.survival;
        let b = 1.0 - self.congestion;
        if a + b <= 0.0 {
            return 0.0;
        }
        a / (a + b)
    }

    /// Draws the decision: true = corruption, resend without shrinking the window.
    pub fn corruption(&mut self) -> bool {
        let p = self.corruption_probability();
        let u: f64 = self.stream.random();
        let corrupt = u < p;
        self.corruption_retransmits += corrupt as u64;
        corrupt
    }
}

impl Controller for Ceten {
    fn on_ack(&mut self, w: &mut Window, ack: &Ack) {
        super::reno::grow(w, ack.acked);
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> u64 {
        halve(w, loss.flight)
    }
}

/// A router's (here: a link sending side's) CETEN-R state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RouterEstimate {
    /// EWMA of the fraction of packets that cross uncorrupted.
    pub survival: f64,
    /// EWMA of the fraction of packets the queue accepts (the intended design only).
    pub congestion: f64,
}

impl Default for RouterEstimate {
    fn default() -> Self {
        // 000.md §6.1 item 3: per-router, per-outgoing-link state initialised to 1.0.
        RouterEstimate { survival: 1.0, congestion: 1.0 }
    }
}

impl RouterEstimate {
    /// A CETEN segment offered to the queue: accepted or dropped.
    pub fn on_enqueue(&mut self, option: &CetenOption, accepted: bool) {
        let alpha = option.alpha();
        if option.code_mode() {
            //= Carroll 2004, Appendix A, ip_rte_central_cpu (buffer overflow)
            //# if ceten_status == 1: p = (1 - alpha) * p
            if !accepted {
                self.survival *= 1.0 - alpha;
            }
        } else {
            self.congestion = (1.0 - alpha) * self.congestion + alpha * accepted as u8 as f64;
        }
    }

    /// A CETEN segment finished crossing the link; stamps it if it survived.
    pub fn on_transmitted(&mut self, option: &mut CetenOption, corrupted: bool) {
        let alpha = option.alpha();
        //= Carroll 2004, Appendix A, ip_rte_central_cpu_packet_arrival (000.md §1.4)
        //# if NUM_ERRORS > 0: p = (1 - alpha) * p
        //# otherwise: p = alpha + (1 - alpha) * p
        //# adjust_forward_CETEN_survival_ratio(seg, p)   (fwd_survival = p * fwd_survival)
        self.survival = (1.0 - alpha) * self.survival + if corrupted { 0.0 } else { alpha };
        if !corrupted {
            let congestion = if option.code_mode() { option.congestion() } else { option.congestion() * self.congestion };
            *option = CetenOption::new(alpha, option.survival() * self.survival, congestion, option.code_mode());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, Component};

    fn ceten(mode: Mode) -> Ceten {
        Ceten::new(Config { mode, ..Config::default() }, stream(1, Component::CcDecisions { flow: 0 }))
    }

    #[test]
    fn estimate_is_an_ewma_of_survival() {
        let cfg = Config::default();
        let mut router = RouterEstimate::default();
        let mut opt = cfg.fresh_option();
        router.on_transmitted(&mut opt, true);
        assert!((router.survival - 0.9).abs() < 1e-9, "a corrupted packet: (1 - 0.1) * 1");
        let mut opt = cfg.fresh_option();
        router.on_transmitted(&mut opt, false);
        assert!((router.survival - 0.91).abs() < 1e-9, "0.9 * 0.9 + 0.1");
        assert!((opt.survival() - 0.91).abs() < 1e-6, "the segment carries the product");
    }

    #[test]
    fn corruption_probability_is_the_ratio_of_loss_estimates() {
        let mut c = ceten(Mode::Intent);
        c.feedback(&CetenOption::new(0.1, 0.96, 0.99, false));
        // a = 0.04, b = 0.01: P = 0.8
        assert!((c.corruption_probability() - 0.8).abs() < 1e-4);
        c.feedback(&CetenOption::new(0.1, 1.0, 1.0, false));
        assert_eq!(c.corruption_probability(), 0.0, "no loss estimate at all: congestion, as the code's NaN test");
    }

    #[test]
    fn code_mode_never_sees_congestion_so_at_most_half() {
        let mut c = ceten(Mode::Code);
        c.feedback(&CetenOption::new(0.1, 0.0, 0.0, true));
        assert!((c.corruption_probability() - 0.5).abs() < 1e-9, "(1-E)/(2-E) with E = 0");
        let draws: u32 = (0..10_000).map(|_| c.corruption() as u32).sum();
        assert!((4_800..=5_200).contains(&draws), "{draws} of 10,000");
    }

    #[test]
    fn queue_drops_lower_congestion_survival_in_intent_and_survival_in_code() {
        let mut router = RouterEstimate::default();
        router.on_enqueue(&Config::default().fresh_option(), false);
        assert!((router.congestion - 0.9).abs() < 1e-9);
        assert_eq!(router.survival, 1.0);
        let code = Config { mode: Mode::Code, ..Config::default() };
        let mut router = RouterEstimate::default();
        router.on_enqueue(&code.fresh_option(), false);
        assert!((router.survival - 0.9).abs() < 1e-9);
        assert_eq!(router.congestion, 1.0);
    }

    #[test]
    fn decision_points() {
        assert!(ceten(Mode::Intent).decides_at(3, 3));
        assert!(!ceten(Mode::Intent).decides_at(1, 3));
        assert!(ceten(Mode::Code).decides_at(1, 3));
    }
}
