#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh Debian machine
# (idempotent), then runs the whole test suite in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi

cargo test --release --locked
