#!/bin/bash
# Records the f32 .approx results over whole binades (see dump.cu): the default
# set, then the extra binades that pin down lg2 below 1, tanh and sin/cos.
# Results: $RES/mufu_dump/*.d32.xz, random.bin.xz, ops.txt.
set -e
cd "$(dirname "$0")"
out="$RES/mufu_dump"; mkdir -p "$out"
nvcc -O2 -arch=sm_90 -o "$out/dump" dump.cu
cd "$out"
./dump
./dump lg2_ftz 3f000000 3f800000 \
       tanh 3b800000 3c000000 tanh 3c000000 3c800000 tanh 3c800000 3d000000 tanh 3d000000 3d800000 \
       tanh 3d800000 3e000000 tanh 3e000000 3e800000 tanh 3e800000 3f000000 \
       tanh 40000000 40800000 tanh 40800000 41000000 tanh 41000000 41800000 \
       sin_ftz 3e800000 3f000000 sin_ftz 3f000000 3f800000 sin_ftz 40000000 40800000 sin_ftz 40800000 41000000 \
       cos_ftz 3e800000 3f000000 cos_ftz 3f000000 3f800000 cos_ftz 40000000 40800000 cos_ftz 40800000 41000000
rm -f dump
xz -T0 -9 *.d32 random.bin
