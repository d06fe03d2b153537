"""CPU spin in four processes, so no single process reaches a per-process CPU limit quickly."""

import os

for _ in range(3):
    if os.fork() == 0:
        break
while True:
    pass
