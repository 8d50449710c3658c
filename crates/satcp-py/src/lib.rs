//! Python bindings: `run(scenario_json) -> result_json`, and the variant table.
//! A run crosses the boundary once; nothing here is called per event.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Runs one simulation. Takes the scenario as JSON, returns the result as JSON.
/// Raises ValueError("key `path.rate`: ...") for a scenario it cannot accept.
#[pyfunction]
fn run_json(py: Python<'_>, scenario: &str) -> PyResult<String> {
    py.allow_threads(|| satcp_core::run_json(scenario)).map_err(|e| PyValueError::new_err(e.to_string()))
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
