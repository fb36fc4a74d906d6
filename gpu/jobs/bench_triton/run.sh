#!/usr/bin/env bash
# Runs the Triton softmax and layer norm of bench/native/triton_*.c on a GPU
# with the benchmark's inputs at several sizes: the FNV-1a digest of the GPU's
# output (for bench_gpu_digest), and how far it lies from the native reference
# (the tolerance ptxi-bench allows). Writes bench_triton.txt under $RES.
# Sources: copies next to this script if present, else the tree's bench/.
set -euo pipefail
RES=${RES:-.}
mkdir -p "$RES"
b=../../../bench
src=.
[ -f bench.h ] || src=$b
ptx=../../../tests/interp/triton
[ -f softmax.ptx.in ] && ptx=.
# Triton 3.9 writes .version 9.4; nothing in these files is newer than 9.0
# (gpu/jobs/triton), so the line is lowered for CUDA 13.0's JIT.
mkdir -p kernels
for k in softmax layernorm; do
  if [ -f "$ptx/$k.ptx.in" ]; then f="$ptx/$k.ptx.in"; else f="$ptx/$k.ptx"; fi
  sed 's/^\.version 9\.4$/.version 9.0/' "$f" > kernels/$k.ptx
done
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
gcc -std=gnu11 -O3 -march=native -ffp-contract=off -fno-math-errno -I"$src" -I../bench_check -I../../../include -I"$cuda/include" \
    gpu_triton.c "$src"/bench_util.c "$src"/triton_softmax.c "$src"/triton_layernorm.c \
    -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda -lm -o gpu_triton 2>/dev/null ||
gcc -std=gnu11 -O3 -march=native -ffp-contract=off -fno-math-errno -I"$src" -I"$b" -I../bench_check -I../../../include \
    -I"$cuda/include" gpu_triton.c "$src"/bench_util.c "$src"/native/triton_softmax.c \
    "$src"/native/triton_layernorm.c -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda -lm -o gpu_triton
{ nvidia-smi --query-gpu=name --format=csv,noheader || echo "(no nvidia-smi)"; } | tee "$RES/bench_triton.txt"
./gpu_triton kernels "$RES" | tee -a "$RES/bench_triton.txt"
rm -rf gpu_triton kernels
