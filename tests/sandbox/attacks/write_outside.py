"""Writing outside the writable mounts, and into a read-only mount."""

import os
import sys

targets = [
    "/etc/dgm-pwned",
    "/usr/bin/dgm-pwned",
    "/dgm-pwned",
    "/var/dgm-pwned",
    "/home/agent/dgm-pwned",
    "/root/dgm-pwned",
    "/proc/sys/kernel/hostname",
    "/sys/dgm-pwned",
    *sys.argv[1:],
]
for path in targets:
    try:
        with open(path, "w") as fh:
            fh.write("pwned")
        print(f"ESCAPED: wrote {path}")
    except OSError as exc:
        print(f"blocked: write {path}: {exc}")
for ro_dir in sys.argv[1:]:
    ro_dir = os.path.dirname(ro_dir)
    for name in os.listdir(ro_dir):
        path = os.path.join(ro_dir, name)
        for what in ("unlink", "chmod", "rename"):
            try:
                if what == "unlink":
                    os.unlink(path)
                elif what == "chmod":
                    os.chmod(path, 0o777)
                else:
                    os.rename(path, path + ".moved")
                print(f"ESCAPED: {what} {path}")
            except OSError as exc:
                print(f"blocked: {what} {path}: {exc}")
