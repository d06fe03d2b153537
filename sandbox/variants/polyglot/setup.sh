#!/bin/sh
# Runs in the variant's root after its Debian packages: put the backported Go on PATH.
set -eu
for tool in go gofmt; do ln -sf "/usr/lib/go-1.23/bin/$tool" "/usr/local/bin/$tool"; done
