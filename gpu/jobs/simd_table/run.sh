#!/usr/bin/env bash
# Records the SIMD video / half / bf16 / fp8 differential table and the exhaustive
# half-type approximate-function tables. Writes $RES/simd_table.txt (the recording
# the tests replay), $RES/simd_table_check.txt (the same forms on other random
# inputs, to check the semantics on data they were not fitted to),
# $RES/half_approx.txt and $RES/half_approx_check.txt.
set -eu
RES=${RES:-$PWD/out}
mkdir -p "$RES"
work=$(mktemp -d)
build() {   # build DIR: generate and compile one table program
  python3 gen.py "$1"
  for p in 0 1 2 3 4 5 6 7; do nvcc -arch=sm_90 -O3 -c "$1/k$p.cu" -o "$1/k$p.o" & done
  nvcc -arch=sm_90 -O3 -c "$1/main.cu" -o "$1/main.o" &
  wait
  nvcc -arch=sm_90 "$1"/k*.o "$1/main.o" -o "$1/table"
}
build "$work/main"
SIMD_TABLE_SALT=check build "$work/check"
nvcc -arch=sm_90 -O3 approx.cu -o "$work/approx"
"$work/main/table" > "$RES/simd_table.txt"
"$work/check/table" > "$RES/simd_table_check.txt"
"$work/approx" > "$RES/half_approx.txt" 2> "$RES/half_approx_check.txt"
wc -l "$RES/simd_table.txt" "$RES/simd_table_check.txt"
grep differences "$RES/half_approx_check.txt"
