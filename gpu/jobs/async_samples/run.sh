#!/usr/bin/env bash
# Records expected/ for the asynchronous barrier and copy samples
# (ptx-samples/async_barrier, async_memcpy, async_bulk, and async_copy again)
# with the samples job (gpu/jobs/samples/run.sh, which builds gpu/gpurun).
# Copy $RES/<name>/expected/ into ptx-samples/<name>/expected/.
set -u
RES=${RES:-/tmp/async-samples-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
cd "$(dirname "$0")/../samples" && RES="$RES" bash ./run.sh async_barrier async_memcpy async_bulk async_copy
