#!/usr/bin/env bash
# Records the graph programs of tests/cudart/programs (run from that folder),
# each built with `nvcc -cudart shared` and run twice on the GPU with NVIDIA's
# libcudart: $RES/ID.stdout, ID.stderr, ID.rc (run 2: ID.2.*).
set -u
cd "$(dirname "$0")/../../../tests/cudart/programs"
bin=$(mktemp -d)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L > "$RES/gpu.txt" 2>&1; nvcc --version >> "$RES/gpu.txt" 2>&1
while read -r id flags; do
  if ! nvcc -arch=sm_90 -cudart shared $flags -o "$bin/$id" $id.cu > "$RES/$id.build" 2>&1; then
    echo "build of $id failed"; cat "$RES/$id.build"
    continue
  fi
  for run in 1 2; do
    sfx=; [ $run = 1 ] || sfx=.$run
    timeout 20 "$bin/$id" > "$RES/$id$sfx.stdout" 2> "$RES/$id$sfx.stderr" < /dev/null; echo $? > "$RES/$id$sfx.rc"
    echo "$id run $run rc=$(cat "$RES/$id$sfx.rc")"
  done
done <<'LIST'
graph_mem
graph_update
graph_nodes
graph_cond
graph_capture
driver_graph -lcuda
dynpar_spin -rdc=true -lcudadevrt
LIST
