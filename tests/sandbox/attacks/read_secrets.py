"""Reading host secrets: a planted key file, /proc/*/environ, our own environment."""

import os
import sys

secret_path = sys.argv[1]
try:
    print(f"ESCAPED: read {secret_path}: {open(secret_path).read()}")
except OSError as exc:
    print(f"blocked: {secret_path}: {exc}")
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    try:
        print(f"environ of {pid}: {open(f'/proc/{pid}/environ', 'rb').read()!r}")
    except OSError as exc:
        print(f"blocked: /proc/{pid}/environ: {exc}")
print(f"own environment: {dict(os.environ)}")
for path in ("/root", "/home", "/etc/shadow", "/var/lib/docker", "/proc/1/root/etc/hostname"):
    try:
        listing = os.listdir(path) if os.path.isdir(path) else open(path).read()[:200]
        print(f"visible: {path}: {listing}")
    except OSError as exc:
        print(f"blocked: {path}: {exc}")
