//! satcp-core: a packet-level discrete-event simulator of TCP over
//! long-delay, error-prone links.
//!
//! A run is a pure function of its scenario and seed:
//! scenario (validated) -> world -> event loop -> result.

pub mod channel;
pub mod engine;
pub mod link;
pub mod packet;
pub mod pep;
pub mod red;
pub mod result;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod topology;
pub mod tcp;
pub mod time;
pub mod trace;
pub mod traffic;
pub mod units;

pub use result::RunResult;
pub use scenario::{Scenario, ScenarioError};

/// Runs one simulation of a validated scenario.
pub fn run(scenario: &Scenario) -> RunResult {
    sim::Simulation::new(scenario).run()
}

/// Runs one simulation, writing the traces `options` asks for.
pub fn run_traced(scenario: &Scenario, options: &trace::TraceOptions) -> std::io::Result<RunResult> {
    if options.is_off() {
        return Ok(run(scenario));
    }
    let mut sim = sim::Simulation::new(scenario);
    sim.attach_tracer(trace::Tracer::open(options, scenario)?);
    let started = std::time::Instant::now();
    while sim.step() {}
    let result = sim.finish(started.elapsed().as_secs_f64());
    sim.detach_tracer().expect("attached above").finish()?;
    Ok(result)
}

/// Runs a scenario given as JSON; the result as JSON.
pub fn run_json(scenario: &str) -> Result<String, ScenarioError> {
    let scenario = Scenario::from_json(scenario)?;
    Ok(serde_json::to_string(&run(&scenario)).expect("results serialise"))
}
