#!/usr/bin/env bash
# Records the dynamic-parallelism programs of tests/cudart/programs (dynpar, dynpar_limits,
# coop_rdc), built with -rdc=true -lcudadevrt and run twice on the GPU with NVIDIA's
# libcudart: $RES/ID.stdout, ID.stderr, ID.rc (run 2: ID.2.*).
set -u
cd ../../../tests/cudart/programs
bin=$(mktemp -d)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for id in dynpar dynpar_limits coop_rdc; do
  if ! nvcc -arch=sm_90 -cudart shared -rdc=true -lcudadevrt -o "$bin/$id" $id.cu; then
    echo "build of $id failed"
    continue
  fi
  for run in 1 2; do
    sfx=; [ $run = 1 ] || sfx=.$run
    timeout 60 "$bin/$id" > "$RES/$id$sfx.stdout" 2> "$RES/$id$sfx.stderr" < /dev/null; echo $? > "$RES/$id$sfx.rc"
    echo "$id run $run rc=$(cat "$RES/$id$sfx.rc")"
  done
done
