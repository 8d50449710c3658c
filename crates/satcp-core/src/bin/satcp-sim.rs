//! Runs one scenario file without Python: for profiling and benchmarks.
//! Usage: satcp-sim SCENARIO.toml [SEED]

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: satcp-sim SCENARIO.toml [SEED]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("satcp-sim: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut scenario = match satcp_core::Scenario::from_toml(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("satcp-sim: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(seed) = args.get(2).and_then(|s| s.parse().ok()) {
        scenario.seed = seed;
    }
    let result = satcp_core::run(&scenario);
    println!("{}", serde_json::to_string(&result).expect("results serialise"));
    ExitCode::SUCCESS
}
