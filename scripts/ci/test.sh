#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh Debian machine
# (idempotent: nothing is installed twice), then runs the whole test suite in release mode and
# checks the committed HTML reports in headless Chromium (scripts/ci/check-reports.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi

# External SAT solvers that the reduction tests check DIMACS exports against, and python3,
# which runs scripts/canonical-cnf.py for the certificate tests (tests/certify.rs).
missing=()
for pkg in minisat cadical python3; do
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
             "the checks that run them will be skipped (they are required under CI)" >&2
    fi
fi

# rate, an independent DRAT checker (crates.io, MIT) that tests/certify.rs runs on every
# certificate's proof beside sudolab's own checker. cargo install puts it in cargo's bin
# folder, which the tests find on PATH (or in ~/.cargo/bin); it compiles in about 3 minutes
# on 2 cores, once.
cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
case ":$PATH:" in
    *":$cargo_bin:"*) ;;
    *) export PATH="$cargo_bin:$PATH" ;;
esac
if ! command -v rate >/dev/null 2>&1; then
    echo "installing rate 0.3.0 with cargo install (about 3 minutes)"
    if ! cargo install rate --version 0.3.0 --locked; then
        echo "warning: cargo install rate failed; the checks by rate will be skipped" \
             "(they are required under CI)" >&2
    fi
fi

cargo test --release --locked

# The library builds without the command line's dependencies (`default-features = false`).
cargo check --release --locked --lib --no-default-features --quiet

# The API documentation builds without a warning (broken or private intra-doc links).
RUSTDOCFLAGS="-D warnings" cargo doc --release --locked --no-deps --quiet

# The library examples: `cargo test` builds them; each also runs here (and checks its own
# answer), in a scratch directory so that what one writes stays out of the repository.
root=$(pwd)
examples_dir=$(mktemp -d)
for example in examples/*.rs; do
    (cd "$examples_dir" && cargo run --manifest-path "$root/Cargo.toml" --release --locked \
        --quiet --example "$(basename "$example" .rs)" >/dev/null)
done
rm -rf "$examples_dir"

# The committed HTML reports, rendered in a real browser (Debian's headless chromium, which
# scripts/ci/render-report.sh apt-gets quietly if it is missing; it says how long that took).
if command -v chromium >/dev/null 2>&1 || { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }; then
    bash scripts/ci/check-reports.sh
else
    echo "warning: chromium not installed and cannot apt-get here; the committed reports" \
         "are not checked in a browser (they are under CI)" >&2
fi
