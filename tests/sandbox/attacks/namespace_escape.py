"""mount, unshare, chroot, setns and capability checks."""

import os
import subprocess

os.makedirs("/tmp/mnt", exist_ok=True)
for cmd in (
    ["mount", "-t", "tmpfs", "none", "/tmp/mnt"],
    ["unshare", "-U", "-r", "id"],
    ["unshare", "-m", "true"],
    ["unshare", "-n", "true"],
    ["nsenter", "-t", "1", "-m", "true"],
):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode == 0:
        print(f"ESCAPED: {' '.join(cmd)}: {proc.stdout.strip()}")
    else:
        print(f"blocked: {' '.join(cmd)}: {proc.stderr.strip()[:120]}")
try:
    os.chroot("/tmp")
    print("ESCAPED: chroot")
except OSError as exc:
    print(f"blocked: chroot: {exc}")
status = dict(line.split(":\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\t" in line)
print(f"CapEff={status['CapEff'].strip()} CapBnd={status['CapBnd'].strip()} NoNewPrivs={status['NoNewPrivs'].strip()}")
if int(status["CapEff"], 16):
    print("ESCAPED: effective capabilities")
print(f"uid={os.getuid()} euid={os.geteuid()}")
