#!/usr/bin/env bash
# Records ptx-samples/wgmma (its copy in ./samples, through gpu/jobs/tensor's
# recorder: every run.args line through gpurun on the sm_90a PTX), then dumps a
# Triton fp16 matmul compiled for the GPU (triton_mm.py) with its inputs and
# output. Results: $RES/wgmma/expected/ (for ptx-samples/wgmma/expected/) and $RES/triton/.
set -u
RES=${RES:-/tmp/wgmma-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
RES=$RES ../tensor/run.sh
JOB=$PWD
mkdir -p "$RES/triton"
(cd "$RES/triton" && timeout 200 python3 "$JOB/triton_mm.py" > log.txt 2>&1; echo $? > rc)
