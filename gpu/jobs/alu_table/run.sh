#!/usr/bin/env bash
# Records the ALU differential table: every integer/float/conversion/comparison
# instruction form over edge and random inputs, as run by the GPU. Output:
# $RES/alu_table.txt (copy to tests/alu/alu_table.txt).
set -eu
RES=${RES:-.}
mkdir -p "$RES"
work=$(mktemp -d)
python3 gen.py "$work/alu_table.cu"
nvcc -arch=sm_90 -O3 -o "$work/alu_table" "$work/alu_table.cu"
"$work/alu_table" > "$RES/alu_table.txt"
wc -l "$RES/alu_table.txt"
rm -rf "$work"
