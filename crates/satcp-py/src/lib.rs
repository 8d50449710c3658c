//! Python bindings: `run(scenario_json) -> result_json`, and the variant table.
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

/// The variants as (name, description, source) tuples.
#[pyfunction]
fn variants() -> Vec<(&'static str, &'static str, &'static str)> {
    satcp_core::tcp::variant::VARIANTS.iter().map(|v| (v.name, v.description, v.source)).collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    Ok(())
}
