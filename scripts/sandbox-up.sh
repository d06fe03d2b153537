#!/usr/bin/env bash
# Bring up what the sandboxes need: a docker daemon (started here when root and none
# answers) and the sandbox image + rootfs (built offline once, reused after).
# Usage: scripts/sandbox-up.sh VENV_DIR [VARIANT...]
# `make evolve` needs the base image only (the built-in suite); `make test` and `make sandbox`
# also build the polyglot variant (its toolchains take minutes, once).
set -euo pipefail
venv=${1:?usage: sandbox-up.sh VENV_DIR [VARIANT...]}
shift
log() { printf 'sandbox-up: %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
    log "not root: not starting dockerd or building images (run 'sudo make test' once for that)"
    exit 0
fi

if ! docker info >/dev/null 2>&1; then
    log "starting dockerd (log: /var/log/dgm-dockerd.log)"
    setsid dockerd >/var/log/dgm-dockerd.log 2>&1 </dev/null &
    for _ in $(seq 60); do
        docker info >/dev/null 2>&1 && break
        sleep 1
    done
    docker info >/dev/null 2>&1 || { log "dockerd did not come up; see /var/log/dgm-dockerd.log"; exit 1; }
fi

"$venv/bin/dgm" sandbox build --offline
# Variants, e.g. polyglot: the toolchains of Aider's polyglot benchmark (C++, Go, Java,
# JavaScript, Rust). Built once, then reused.
for variant in "$@"; do
    "$venv/bin/dgm" sandbox build --variant "$variant"
done
