#!/bin/bash
# Exhaustive check of ptxi's .approx instructions against the GPU (check.cu):
# every f32 operand of the 15 f32 forms, every high word of the f64 forms,
# 2^30 operand pairs of each div.approx/div.full form. Needs a ptxi build
# (libptxi_static.a) in $PTXI_BUILD (default ../../../build). ~12 minutes.
# Result: $RES/mufu_check/check.txt (exit 1 on any mismatch). Arguments go to check (parts, div cases).
set -e
cd "$(dirname "$0")"
b=${PTXI_BUILD:-../../../build}
out="$RES/mufu_check"; mkdir -p "$out"
# static zstd/ffi where the machine has them, so the binary can also be built
# here and carried to a GPU machine that lacks the -dev packages
libs="-lzstd -lffi"
for l in zstd ffi; do
  a=$(ls /usr/lib/x86_64-linux-gnu/lib$l.a 2>/dev/null) && libs=${libs/-l$l/$a}
done
nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -o "$out/check" check.cu "$b/libptxi_static.a" $libs -lpthread -lm
"$out/check" "$@" | tee "$out/check.txt"
