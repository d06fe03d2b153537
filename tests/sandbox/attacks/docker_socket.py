"""Reach the docker daemon's socket (it would be root on the host)."""

import socket

for path in ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock"):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        print(f"ESCAPED: connected to {path}")
    except OSError as exc:
        print(f"blocked: {path}: {exc}")
