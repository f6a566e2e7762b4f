#!/usr/bin/env bash
# The whole test suite: formatting, lints, unit and integration tests.
# Integration tests load BPF programs: run as root. With CI set, a machine
# where BPF cannot be used fails the run instead of skipping those tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
