#!/usr/bin/env bash
# A Triton fused-attention forward for this GPU (attn.py): its PTX, inputs and
# output under $RES (for tests/interp/triton/attention_wgmma.ptx and recorded/attention.*).
set -u
RES=${RES:-/tmp/attn-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
JOB=$(cd "$(dirname "$0")" && pwd)
(cd "$RES" && timeout 200 python3 "$JOB/attn.py" > log.txt 2>&1; echo $? > rc)
