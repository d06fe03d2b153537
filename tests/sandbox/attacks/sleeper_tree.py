"""Outlive the timeout: double-forked children that ignore SIGTERM and sleep, marked by argv[1]."""

import os
import signal
import sys
import time

marker = sys.argv[1]
for _ in range(3):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.execvp("sh", ["sh", "-c", f"trap '' TERM HUP; exec sleep 1000 # {marker}"])
        os._exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("children started", flush=True)
time.sleep(1000)
