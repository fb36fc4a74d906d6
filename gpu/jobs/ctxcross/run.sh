#!/usr/bin/env bash
# Records tests/cudart/programs/ctx_cross.cu built with `nvcc -cudart shared` and run with
# NVIDIA's libcudart: $RES/ctx_cross.{stdout,stderr,rc} (copied to tests/cudart/programs/expected/).
set -u
cd ../../../tests/cudart/programs
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=$(mktemp -d)
for id in ctx_cross; do
  if ! nvcc -arch=sm_90 -lcuda -cudart shared -o "$bin/$id" $id.cu > "$RES/$id.build.log" 2>&1; then
    echo "build of $id failed"; cat "$RES/$id.build.log"; continue
  fi
  timeout 40 "$bin/$id" > "$RES/$id.stdout" 2> "$RES/$id.stderr" < /dev/null; echo $? > "$RES/$id.rc"
  echo "$id rc=$(cat "$RES/$id.rc")"
done
nvidia-smi -L > "$RES/gpu.txt" 2>&1
