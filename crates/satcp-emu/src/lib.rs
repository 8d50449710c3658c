//! satcp-emu: a scenario's link emulated in user space between two network
//! namespaces joined by TUN devices, with the real Linux TCP stack at both
//! ends (DESIGN.md, "emulate"). The link is the simulator's: the same queue
//! rule, serialisation, channel models and random streams (`link.rs` on top
//! of `satcp_core::channel`); only the clock is the wall's.
//!
//! A run: check the machine -> plan the scenario for the kernel (plan.rs) ->
//! build the testbed (setup.rs) -> forward (forward.rs) while the flows run
//! (traffic.rs) -> read TCP_INFO and the link counters -> result JSON with
//! the fields of `satcp run`.

pub mod forward;
pub mod link;
pub mod netns;
pub mod plan;
pub mod probe;
mod report;
pub mod setup;
pub mod signals;
pub mod sock;
pub mod traffic;
pub mod tun;

use std::fmt;
use std::path::PathBuf;

use satcp_core::ScenarioError;
use serde::Deserialize;
use serde_json::Value;

pub use report::run;

/// What to emulate: the scenario (as `satcp run` takes it) and the options
/// only the emulator has.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub scenario: Value,
    /// Packets as they enter the emulator, both directions (raw IPv4).
    #[serde(default)]
    pub pcap: Option<PathBuf>,
    /// Start of a measurement window (seconds from the run's start) for `window_goodput_bps`.
    #[serde(default)]
    pub measure_from_s: Option<f64>,
    /// A UDP probe for the emulator's own delay and loss.
    #[serde(default)]
    pub probe: Option<probe::ProbeSpec>,
    /// Run the scenario's TCP flows (false: only the probe).
    #[serde(default = "yes")]
    pub tcp: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug)]
pub enum EmuError {
    /// The scenario asks for what the kernel cannot do, or is wrong.
    Scenario(ScenarioError),
    /// This machine cannot emulate (no root, no TUN, no `ip`).
    Environment(String),
    /// A system call failed during the run.
    Io(String),
    /// Ctrl-C or SIGTERM; everything was removed.
    Interrupted,
}

impl EmuError {
    pub fn exit_code(&self) -> i32 {
        match self {
            EmuError::Scenario(_) | EmuError::Environment(_) => 2,
            EmuError::Io(_) => 1,
            EmuError::Interrupted => 130,
        }
    }
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EmuError::Scenario(e) => write!(f, "{e}"),
            EmuError::Environment(m) | EmuError::Io(m) => write!(f, "{}", m.replace('\n', " ")),
            EmuError::Interrupted => write!(f, "interrupted; the namespaces and devices were removed"),
        }
    }
}

impl From<std::io::Error> for EmuError {
    fn from(e: std::io::Error) -> EmuError {
        EmuError::Io(e.to_string())
    }
}

/// Ends this process (SIGTERM, handled as Ctrl-C) when its parent dies.
pub fn die_with_parent() {
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) };
}

/// Plans a scenario (JSON) for this kernel without running it: what each
/// flow would run and the stack settings, as JSON, or the one-line refusal.
/// Needs neither root nor TUN, so a user can check a scenario first.
pub fn check_json(scenario: &str) -> Result<String, EmuError> {
    let scenario: Value = serde_json::from_str(scenario)
        .map_err(|e| EmuError::Scenario(ScenarioError { key: String::new(), message: format!("bad scenario JSON: {e}") }))?;
    let plan = plan::plan(&scenario, &setup::available_congestion_controls()).map_err(EmuError::Scenario)?;
    let flows: Vec<Value> = plan.flows.iter().map(|f| serde_json::json!({"variant": f.variant, "kernel_cc": f.cc})).collect();
    Ok(serde_json::json!({"flows": flows, "stack": plan.stack}).to_string())
}

/// Runs a request given as JSON; the result as JSON.
pub fn run_json(request: &str) -> Result<String, EmuError> {
    let request: Request = serde_json::from_str(request)
        .map_err(|e| EmuError::Scenario(ScenarioError { key: String::new(), message: format!("bad emulation request: {e}") }))?;
    Ok(run(&request)?.to_string())
}
