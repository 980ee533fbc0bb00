"""A jail mirror's wait, run by ``python -I -S _waiter.py PID DECODE`` (`_child._mirror`).

The mirror replaces its image with this script so it holds none of the kernel's memory:
no process but the cell's shares the kernel's pages while the dry run lives. It waits for
its child ``PID`` and ends as it ended: with its exit code, or with its signal; pid 1
cannot die of a signal it sends itself, so it ends with 128 + the signal, and the mirror
above it (``DECODE`` 1) turns that back into the signal. Standard library only: it runs
with no site-packages.
"""

import os
import sys


def main() -> None:
    try:  # the cell's process may not read or write this one's memory
        import ctypes
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    except (OSError, AttributeError):
        pass
    pid, decode = int(sys.argv[1]), sys.argv[2] == "1"
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        os._exit(1)
    code = os.waitstatus_to_exitcode(status)
    sig = -code if code < 0 else (code - 128 if decode and 128 < code < 128 + 65 else 0)
    if sig and os.getpid() != 1:
        import signal
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), sig)
    os._exit(128 + sig if sig else code & 0xFF)


if __name__ == "__main__":
    main()
