//! Ctrl-C, SIGTERM and SIGHUP end a run early but cleanly: the handler only
//! sets a flag, which the run polls; everything it built is then dropped.
//! (What a signal cannot reach, SIGKILL, the kernel cleans: see netns.rs.)

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

pub fn stopped() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Installs the handlers; the previous ones come back when the guard drops.
pub struct Guard {
    previous: Vec<(libc::c_int, libc::sigaction)>,
}

pub fn install() -> Guard {
    STOP.store(false, Ordering::SeqCst);
    let mut previous = Vec::new();
    for sig in SIGNALS {
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut action.sa_mask);
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, &action, &mut old) == 0 {
                previous.push((sig, old));
            }
        }
    }
    Guard { previous }
}

impl Drop for Guard {
    fn drop(&mut self) {
        for (sig, old) in &self.previous {
            unsafe { libc::sigaction(*sig, old, std::ptr::null_mut()) };
        }
    }
}
