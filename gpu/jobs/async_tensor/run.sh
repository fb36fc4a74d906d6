#!/usr/bin/env bash
# Records the tensor forms of the bulk asynchronous copies (tma.cu) and what
# tensormap.replace does (replace.cu) on the GPU: $RES/<case>.bin per case. Copy them into
# gpu/jobs/async_tensor/recorded/ (tests/async/test_tensor.c reads them there).
set -u
RES=${RES:-/tmp/async-tensor-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
cd "$(dirname "$0")"
nvcc -O2 -arch=sm_90a -o "$RES/tma" tma.cu -lcuda || { echo "build failed"; exit 1; }
nvcc -O2 -gencode arch=compute_90a,code=sm_90a -o "$RES/replace" replace.cu -lcuda || { echo "build failed"; exit 1; }
for c in $(grep -o '{"[a-z0-9_]*"' tma.cu | tr -d '{"'); do
  RES="$RES" "$RES/tma" "$c" 2>&1 | tee -a "$RES/summary.txt"
done
for c in $(grep -o '{"replace_[a-z0-9_]*"' replace.cu | tr -d '{"'); do
  RES="$RES" timeout 20 "$RES/replace" "$c" 2>&1 | tee -a "$RES/summary.txt"
done
rm -f "$RES/tma" "$RES/replace"
