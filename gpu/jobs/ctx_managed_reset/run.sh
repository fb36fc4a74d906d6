#!/usr/bin/env bash
# Records tests/cudart/programs/ctx_managed_reset.cu built with `nvcc -cudart shared` and run
# twice with NVIDIA's libcudart: $RES/ctx_managed_reset.{stdout,stderr,rc} (copied to
# tests/cudart/programs/expected/), and whether the second run printed the same.
set -u
cd ../../../tests/cudart/programs
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=$(mktemp -d)
id=ctx_managed_reset
nvcc -arch=sm_90 -lcuda -cudart shared -o "$bin/$id" $id.cu > "$RES/$id.build.log" 2>&1 || { cat "$RES/$id.build.log"; exit 1; }
timeout 40 "$bin/$id" > "$RES/$id.stdout" 2> "$RES/$id.stderr" < /dev/null; echo $? > "$RES/$id.rc"
timeout 40 "$bin/$id" > "$RES/$id.2.stdout" 2>&1 < /dev/null
cmp -s "$RES/$id.stdout" "$RES/$id.2.stdout" && echo "$id: both runs the same"
nvidia-smi -L > "$RES/gpu.txt" 2>&1
