#!/usr/bin/env bash
# Records the im2col forms of cp.async.bulk.tensor (im2col.cu) on the GPU:
# $RES/<case>.bin per case and $RES/encode.txt (cuTensorMapEncodeIm2col's
# results for its argument rules). Copy them into gpu/jobs/async_im2col/recorded/
# (tests/async/test_im2col.c reads them there).
set -u
RES=${RES:-/tmp/async-im2col-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
cd "$(dirname "$0")"
nvcc -O2 -arch=sm_90a -o "$RES/im2col" im2col.cu -lcuda || { echo "build failed"; exit 1; }
RES="$RES" timeout 20 "$RES/im2col" enc 2>&1 | tee -a "$RES/summary.txt"
for c in $(grep -o '{"i2c_[a-z0-9_]*"' im2col.cu | tr -d '{"'); do
  RES="$RES" timeout 20 "$RES/im2col" "$c" 2>&1 | tee -a "$RES/summary.txt"
done
rm -f "$RES/im2col"
