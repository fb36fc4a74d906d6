#!/usr/bin/env bash
# Records the runtime-in-a-driver-context programs (tests/cudart/programs) built with
# `nvcc -cudart shared` and run with NVIDIA's libcudart: $RES/ID.stdout, ID.stderr, ID.rc
# (copied to tests/cudart/programs/expected/). ctx_threads runs three times: $RES/ID.runN.*
# show whether its output is the same every run.
set -u
cd ../../../tests/cudart/programs
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=$(mktemp -d)
for id in ctx_threads drv_runtime ctx_runtime; do
  if ! nvcc -arch=sm_90 -lcuda -cudart shared -o "$bin/$id" $id.cu > "$RES/$id.build.log" 2>&1; then
    echo "build of $id failed"; continue
  fi
  timeout 40 "$bin/$id" > "$RES/$id.stdout" 2> "$RES/$id.stderr" < /dev/null; echo $? > "$RES/$id.rc"
  echo "$id rc=$(cat "$RES/$id.rc")"
done
for r in 1 2 3; do
  timeout 40 "$bin/ctx_threads" > "$RES/ctx_threads.run$r.stdout" 2> "$RES/ctx_threads.run$r.stderr" < /dev/null
  echo $? > "$RES/ctx_threads.run$r.rc"
done
nvidia-smi -L > "$RES/gpu.txt" 2>&1
