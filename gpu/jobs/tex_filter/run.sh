#!/usr/bin/env bash
# Records how the texture unit's linear filter rounds (interp/tex.c implements it):
# $RES/filter.txt (tests/cudart/programs/tex_filter.cu; copied to that folder's
# expected/tex_filter.stdout) and probe2.txt (trilinear weights, precision of
# normalized coordinates; copied to gpu/jobs/tex_filter/recorded/).
set -eu
RES=${RES:-.}
mkdir -p "$RES"
nvcc -arch=sm_90 -O2 -o filter ../../../tests/cudart/programs/tex_filter.cu
./filter > "$RES/filter.txt"
rm -f filter
nvcc -arch=sm_90 -O2 -o probe2 probe2.cu
./probe2 > "$RES/probe2.txt"
rm -f probe2
