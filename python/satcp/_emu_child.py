"""The emulator's own process (started by :func:`satcp.emulate.emulate`):
reads the request JSON on stdin, runs it in the Rust emulator, prints the
result JSON on stdout, or one line on stderr and the emulator's exit status.

A process of its own because the emulator moves threads between network
namespaces and takes over SIGINT/SIGTERM for a clean stop; it ends with its
parent (PR_SET_PDEATHSIG), and whatever it built goes with it.
"""

import sys

from satcp import _core

# argv[1]: the parent's pid, so a parent gone before the death signal was
# armed stops the run before it starts.
parent_pid = int(sys.argv[1]) if len(sys.argv) > 1 else None
status, text = _core.emulate_json(sys.stdin.read(), True, parent_pid)
if status == 0:
    sys.stdout.write(text + "\n")
else:
    sys.stderr.write(text + "\n")
sys.exit(status)
