"""Run setuid-root binaries: one planted on a read-only mount, and every one in the image."""

import os
import subprocess
import sys

candidates = sys.argv[1:]
for root in ("/usr/bin", "/usr/sbin", "/bin", "/sbin"):
    for name in os.listdir(root):
        path = os.path.join(root, name)
        st = os.stat(path)
        if st.st_mode & 0o4000 and st.st_uid == 0:
            candidates.append(path)
for path in candidates:
    proc = subprocess.run(
        [path, "-u"] if path.endswith("id") else [path, "--help"], capture_output=True, text=True, timeout=10, input=""
    )
    st = os.stat(path)
    print(f"tried {path} (mode {st.st_mode:o}, owner {st.st_uid}): exit {proc.returncode}")
    if path.endswith("id"):
        print(f"euid via {path}: {proc.stdout.strip()}")
        if proc.stdout.strip() == "0":
            print(f"ESCAPED: {path} ran as root")
