#!/bin/sh
# Provision a Debian root as the dgm sandbox image. Runs inside that root: as a RUN step of
# sandbox/Dockerfile, or in a chroot of the debootstrapped rootfs (dgm sandbox build --offline).
# Expects the wheels of requirements.txt (downloaded on the host) in /tmp/dgm/wheels.
set -eu
marker=/etc/dgm-sandbox-ready
if [ -e "$marker" ]; then
    echo "provision: already provisioned ($marker)"; exit 0
fi
packages="python3 python3-pip git patch procps ca-certificates"
missing=""
for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi
python3 -m pip install --no-index --find-links /tmp/dgm/wheels --break-system-packages \
    --no-cache-dir --root-user-action=ignore -r /tmp/dgm/requirements.txt
id agent >/dev/null 2>&1 || useradd --uid 1000 --user-group --create-home --shell /bin/sh agent
rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /root/.cache
touch "$marker"
