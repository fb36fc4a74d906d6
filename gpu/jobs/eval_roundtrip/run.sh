#!/usr/bin/env bash
# GPU round trip of `ptxi eval`: compiles and runs the --emit-cuda programs
# (NAME.cu, from gen.sh) and stores what each prints as $RES/NAME.txt
# (copy to tests/eval/gpu/; tests/eval/test_eval_roundtrip.c diffs ptxi against them).
# With PTXI=path/to/ptxi it also emits the ALU and SIMD tables as CUDA programs
# (too large to commit), runs them and diffs them with the recordings:
# $RES/tables.txt says how many lines differ (0: the PTX ptxi eval generates
# for each form computes on the GPU what the recording holds).
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
if [ -n "${PTXI:-}" ]; then
    : > "$RES/tables.txt"
    for t in alu/alu_table simd/simd_table; do
        n=$(basename $t)
        "$PTXI" eval --table "../../../tests/$t.txt" --emit-cuda "$work/$n.cu"
        nvcc -arch=sm_90 -O1 -o "$work/$n" "$work/$n.cu"
        "$work/$n" > "$work/$n.out"
        d=$(diff "$work/$n.out" "../../../tests/$t.txt" | grep -c '^<' || true)
        echo "$t: $(wc -l < "$work/$n.out") lines, $d differ from the recording" >> "$RES/tables.txt"
        diff "$work/$n.out" "../../../tests/$t.txt" | head -40 >> "$RES/tables.txt" || true
    done
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$RES/device.txt" || true
rm -rf "$work"
ls -l "$RES"
