"""Flood stdout with 1 GB."""

import sys

block = b"A" * 2**20
for _ in range(1024):
    sys.stdout.buffer.write(block)
print("ESCAPED: wrote 1 GB")
