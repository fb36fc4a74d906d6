#!/usr/bin/env bash
# Records what the GPU computes for the Triton kernels in tests/interp/triton/:
# their PTX (Triton 3.9 writes .version 9.4; nothing in it is newer than 9.0, so
# the version line is lowered for CUDA 13.0's ptxas), assembled and launched as
# Triton launches them. Results (inputs + outputs): $RES/*.bin, copied to
# tests/interp/triton/recorded/.
set -eu
RES=${RES:-.}
mkdir -p "$RES"
for k in add softmax layernorm; do
  sed 's/^\.version 9\.4$/.version 9.0/' ../../../tests/interp/triton/$k.ptx > $k.ptx
  ptxas -arch=sm_90a $k.ptx -o $k.cubin
done
nvcc -O2 -o triton_run triton_run.cu -lcuda
./triton_run "$RES"
rm -f triton_run *.cubin add.ptx softmax.ptx layernorm.ptx
