#!/usr/bin/env bash
# GPU round trip of `ptxi eval`: compiles and runs the --emit-cuda programs
# (NAME.cu, from gen.sh) and stores what each prints as $RES/NAME.txt
# (copy to tests/eval/gpu/; tests/eval/test_eval_roundtrip.c diffs ptxi against them).
set -eu
cd "$(dirname "$0")"
RES=${RES:-.}
mkdir -p "$RES"
work=$(mktemp -d)
for cu in *.cu; do
    n=${cu%.cu}
    nvcc -arch=sm_90 -O2 -o "$work/$n" "$cu"
    "$work/$n" > "$RES/$n.txt"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/device.txt" || true
rm -rf "$work"
ls -l "$RES"
