"""Fill the writable areas: /tmp and a writable mount, 1 MB at a time, 256 MB each."""

import sys

block = b"\0" * 2**20
for path in ["/tmp/fill.bin", sys.argv[1]]:
    written = 0
    try:
        with open(path, "wb") as fh:
            for _ in range(256):
                fh.write(block)
                fh.flush()
                written += 1
        print(f"ESCAPED: wrote 256 MB to {path}")
    except OSError as exc:
        print(f"blocked: {path} after {written} MB: {exc}")
sys.exit(1)
