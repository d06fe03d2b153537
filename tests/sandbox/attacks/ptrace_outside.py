"""ptrace processes outside the sandbox, by their host pids (given as arguments).

PID 1 of the sandbox is the sandbox's own (bwrap's init or the container's reaper), so
reaching it is no escape; the host's processes must be neither traceable nor visible."""

import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
PTRACE_ATTACH = 16
for pid in [int(p) for p in sys.argv[1:]]:
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
        print(f"ESCAPED: ptrace attach {pid}")
    else:
        print(f"blocked: ptrace {pid}: {os.strerror(ctypes.get_errno())}")
    try:
        cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
        print(f"visible pid {pid}: {cmdline[:200]!r}")
    except OSError as exc:
        print(f"blocked: /proc/{pid}/cmdline: {exc}")
