//! Python bindings: `run(scenario_json) -> result_json`, the variant table,
//! and `emulate_json` for the emulator's child process.
//! A run crosses the boundary once; nothing here is called per event.

use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use satcp_core::trace::TraceOptions;
use satcp_core::Scenario;

/// Runs one simulation. Takes the scenario as JSON, returns the result as JSON.
/// Raises ValueError("key `path.rate`: ...") for a scenario it cannot accept,
/// and OSError when a trace file cannot be written.
#[pyfunction]
#[pyo3(signature = (scenario, trace_dir=None, pcap=None))]
fn run_json(py: Python<'_>, scenario: &str, trace_dir: Option<PathBuf>, pcap: Option<PathBuf>) -> PyResult<String> {
    let scenario = Scenario::from_json(scenario).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let options = TraceOptions { dir: trace_dir, pcap };
    let result = py
        .allow_threads(|| satcp_core::run_traced(&scenario, &options))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    Ok(serde_json::to_string(&result).expect("results serialise"))
}

/// Runs one emulation (satcp-emu) of a request given as JSON; returns
/// (exit status, result JSON or a one-line error). Called only in the child
/// process `satcp.emulate` starts (python/satcp/_emu_child.py), which ends
/// with its parent when `die_with_parent` is set. `parent_pid` closes the
/// race before that: a parent that died before the death signal was armed
/// is no longer this process's parent, and nothing is started.
#[pyfunction]
#[pyo3(signature = (request, die_with_parent, parent_pid=None))]
fn emulate_json(py: Python<'_>, request: &str, die_with_parent: bool, parent_pid: Option<i32>) -> (i32, String) {
    if die_with_parent {
        satcp_emu::die_with_parent();
        if parent_pid.is_some_and(|pid| pid != std::os::unix::process::parent_id() as i32) {
            return (1, "the process that started the emulator is gone; nothing was run".into());
        }
    }
    match py.allow_threads(|| satcp_emu::run_json(request)) {
        Ok(out) => (0, out),
        Err(e) => (e.exit_code(), e.to_string()),
    }
}

/// Plans a scenario (JSON) for the kernel without running it: (exit status,
/// the plan as JSON or a one-line refusal). No root or TUN needed.
#[pyfunction]
fn emulate_check_json(scenario: &str) -> (i32, String) {
    match satcp_emu::check_json(scenario) {
        Ok(out) => (0, out),
        Err(e) => (e.exit_code(), e.to_string()),
    }
}

/// The variants as (name, description, source) tuples.
#[pyfunction]
fn variants() -> Vec<(&'static str, &'static str, &'static str)> {
    satcp_core::tcp::variant::VARIANTS.iter().map(|v| (v.name, v.description, v.source)).collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(emulate_json, m)?)?;
    m.add_function(wrap_pyfunction!(emulate_check_json, m)?)?;
    Ok(())
}
