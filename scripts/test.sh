#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh Debian machine
# (idempotent: nothing is installed twice), then runs the whole test suite in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi

# External SAT solvers that the reduction tests check DIMACS exports against.
missing=()
for pkg in minisat cadical; do
    command -v "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing ${missing[*]} with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "warning: ${missing[*]} not installed and cannot apt-get here;" \
             "the external-solver checks will be skipped (they are required under CI)" >&2
    fi
fi

cargo test --release --locked
