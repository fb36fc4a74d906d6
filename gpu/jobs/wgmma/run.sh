#!/usr/bin/env bash
# Records ptx-samples/wgmma (copied into ./samples for gpu/jobs/tensor's
# recorder: every run.args line through gpurun on the sm_90a PTX), then dumps a
# Triton fp16 matmul compiled for the GPU (triton_mm.py) with its inputs and
# output. Results: $RES/wgmma/expected/ (for ptx-samples/wgmma/expected/) and $RES/triton/.
set -u
RES=${RES:-/tmp/wgmma-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
rm -rf samples && mkdir samples && cp -r ../../../ptx-samples/wgmma samples/ && rm -rf samples/wgmma/expected
RES=$RES ../tensor/run.sh
rm -rf samples
JOB=$PWD
mkdir -p "$RES/triton"
(cd "$RES/triton" && timeout 200 python3 "$JOB/triton_mm.py" > log.txt 2>&1; echo $? > rc)
