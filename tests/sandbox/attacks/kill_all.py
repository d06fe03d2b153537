"""kill -9 -1: signal every process we are allowed to."""

import os
import signal

try:
    os.kill(-1, signal.SIGKILL)
except OSError as exc:
    print(f"kill -1: {exc}")
