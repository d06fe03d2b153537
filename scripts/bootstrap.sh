#!/usr/bin/env bash
# Bring up everything `make` targets need: system packages (through apt when root),
# then a virtual environment with dgm and its dev extra installed.
# Usage: scripts/bootstrap.sh VENV_DIR [PYTHON]
set -euo pipefail

venv=${1:?usage: bootstrap.sh VENV_DIR [PYTHON]}
py=${2:-python3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

log() { printf 'bootstrap: %s\n' "$*" >&2; }

# --- Python itself -----------------------------------------------------------
if ! command -v "$py" >/dev/null 2>&1; then
    log "no '$py' on PATH; dgm needs Python >= 3.11 (set PY=/path/to/python3.11)"
    exit 1
fi
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    log "$("$py" --version 2>&1) is too old; dgm needs Python >= 3.11 (set PY=...)"
    exit 1
fi

# --- system packages ---------------------------------------------------------
# Each line: a Debian package, then a shell test that holds when it is not needed.
# Blank lines and lines starting with # are skipped.
missing=()
while read -r pkg check; do
    case "$pkg" in ""|"#"*) continue ;; esac
    if ! eval "$check" >/dev/null 2>&1; then missing+=("$pkg"); fi
done < "$here/system-packages.txt"

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        log "installing system packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        log "missing system packages: ${missing[*]}"
        log "run once:  sudo apt-get install -y ${missing[*]}"
        exit 1
    fi
fi

# --- virtual environment -----------------------------------------------------
if [ ! -x "$venv/bin/python" ]; then
    log "creating virtual environment in $venv"
    "$py" -m venv "$venv"
fi
log "installing dgm with its dev extra into $venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root[dev,local]"

# --- test-only: the official swebench package -------------------------------
# The SWE-bench parity tests (tests/suites/official_swebench.py and the tests that use it)
# compare dgm's log parsers, grading and predictions with swebench's own. dgm never imports
# it. Its declared dependencies (datasets, modal, docker, ...) are not needed by the modules
# those tests import, so it goes in without them, followed by the two small packages those
# modules do import: unidiff (the grading chain) and tqdm (the predictions loader).
# pip may then warn that swebench's other requirements are missing: expected.
log "installing swebench==5.0.2 without its dependencies, plus unidiff and tqdm (tests only)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check unidiff tqdm
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps swebench==5.0.2
