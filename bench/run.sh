#!/usr/bin/env bash
# run.sh — build the default (fast, Release) configuration and run the benchmark.
# Usage: bench/run.sh [ptxi-bench options]; BUILD=dir picks the build folder (default build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD:-$root/build}"
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target ptxi_bench -j "$(nproc)" >/dev/null
exec "$build/bench/ptxi-bench" "$@"
