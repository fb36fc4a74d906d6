#!/usr/bin/env bash
# Checks the benchmark's native C references (bench/native) against the GPU
# running the committed PTX (bench/kernels); writes bench_check.txt under $RES.
set -euo pipefail
b=../../../bench
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
gcc -std=gnu11 -O3 -march=native -ffp-contract=off -fno-math-errno -I"$b" -I../../../include \
    -I"$cuda/include" gpu_check.c "$b"/bench_util.c "$b"/native/*.c -L"$cuda/lib64" -L"$cuda/lib64/stubs" \
    -lcuda -lm -o gpu_check
./gpu_check "$b/kernels" | tee "$RES/bench_check.txt"
