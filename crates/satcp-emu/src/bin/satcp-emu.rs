//! `satcp-emu REQUEST.json` (or `-` for stdin): runs one emulation and
//! prints its result as one JSON object. The request is
//! `{"scenario": {...}, "pcap": null, "measure_from_s": null, "probe": null}`
//! (lib.rs `Request`); `satcp emulate` builds it from a scenario file.
//! A failure is one line on stderr; exit 2 for a scenario or a machine that
//! cannot emulate, 1 for a failed system call, 130 when interrupted.

use std::io::Read;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "-".into());
    let text = if arg == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(&arg)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("satcp-emu: error: cannot read {arg}: {e}");
            std::process::exit(2);
        }
    };
    // If whoever started us dies, end the run (cleanly) rather than run on.
    satcp_emu::die_with_parent();
    match satcp_emu::run_json(&text) {
        Ok(out) => println!("{out}"),
        Err(e) => {
            eprintln!("satcp-emu: error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
