#!/usr/bin/env bash
# Records the SIMD video / half / bf16 / fp8 differential table and the exhaustive
# half-type approximate-function tables. Writes $RES/simd_table.txt,
# $RES/half_approx.txt and $RES/half_approx_check.txt.
set -eu
RES=${RES:-$PWD/out}
mkdir -p "$RES"
work=$(mktemp -d)
python3 gen.py "$work"
for p in 0 1 2 3 4 5 6 7; do nvcc -arch=sm_90 -O3 -c "$work/k$p.cu" -o "$work/k$p.o" & done
nvcc -arch=sm_90 -O3 -c "$work/main.cu" -o "$work/main.o" &
nvcc -arch=sm_90 -O3 approx.cu -o "$work/approx" &
wait
nvcc -arch=sm_90 "$work"/k*.o "$work/main.o" -o "$work/table"
"$work/table" > "$RES/simd_table.txt"
"$work/approx" > "$RES/half_approx.txt" 2> "$RES/half_approx_check.txt"
wc -l "$RES/simd_table.txt"
cat "$RES/half_approx_check.txt" | grep differences
