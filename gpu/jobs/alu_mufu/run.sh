#!/usr/bin/env bash
# Exhaustive probe of rcp/rsqrt/sqrt/ex2/lg2 .approx.ftz.f32 over the binades that
# determine them: how often and by how much the hardware differs from the
# correctly rounded value (interp/ALU.md quotes it). Output: $RES/mufu.txt.
set -eu
RES=${RES:-.}
mkdir -p "$RES"
nvcc -arch=sm_90 -O3 -o mufu mufu.cu
./mufu > "$RES/mufu.txt"
rm -f mufu
